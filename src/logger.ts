// Structured JSON logs. Credentials never reach a log line: the redact list names every
// place a token, secret or password can appear in what we log.
import pino from 'pino';
import type { LogLevel } from './config';

export type Logger = pino.Logger;

export const REDACT_PATHS = [
  'req.headers["x-service-authtoken"]',
  'req.headers["x-api-key"]',
  'req.headers["x-service-company-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.authToken',
];

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino({ level, base: undefined, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, destination);
}
