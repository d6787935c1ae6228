// Structured JSON logs. Credentials never reach a log line: the redact list names every
// place a token, secret or password can appear in what we log. Logged errors keep their type,
// codes and message but not the row values a database error carries.
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

/** Fields of database errors that hold data: PostgreSQL's detail ("Failing row contains (...)"),
 * hint and context, and the statement with its values as the ORM attaches it. */
const ERROR_DATA_FIELDS = ['detail', 'hint', 'where', 'internalQuery', 'query', 'sql', 'params', 'parameters'];

/** Drops the " - detail: ..." and " - hint: ..." lines the ORM appends to a database error's
 * message (and so to its stack), up to the next stack frame. */
function withoutDetail(text: string): string {
  let skipping = false;
  return text
    .split('\n')
    .filter((line) => {
      if (/^ - (detail|hint): /.test(line)) skipping = true;
      else if (/^\s+at |^caused by: |^$/.test(line)) skipping = false;
      return !skipping;
    })
    .join('\n');
}

/** pino's error serializer, without the data a database error carries. */
function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  if (!out || typeof out !== 'object') return out;
  for (const field of ERROR_DATA_FIELDS) if (out[field] !== undefined) out[field] = '[redacted]';
  if (typeof out.message === 'string') out.message = withoutDetail(out.message);
  if (typeof out.stack === 'string') out.stack = withoutDetail(out.stack);
  return out;
}

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, base: undefined, serializers: { err: serializeError }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    destination,
  );
}
