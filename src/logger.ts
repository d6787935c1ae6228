// Structured JSON logs (or, for a person at a terminal, the same records as lines: prettyStdout).
// Credentials never reach a log line: the redact list names every
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

const LEVEL_NAMES: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** A field's value as `key=value` shows it: plain words bare, anything else as JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string') return /^[\w.:/@+-]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

/**
 * One JSON record as a person reads it: `HH:MM:SS.mmm LEVEL message key=value ...` in local time,
 * an error as `err=Type: message` with its stack indented on the lines below.
 */
export function prettyLine(json: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const { time, level, msg, err, ...fields } = record;
  const at = new Date(typeof time === 'number' ? time : Date.now());
  const clock = [at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
  const parts = [`${clock}.${String(at.getMilliseconds()).padStart(3, '0')}`, (LEVEL_NAMES[level as number] ?? String(level)).padEnd(5)];
  if (msg !== undefined) parts.push(typeof msg === 'string' ? msg : shown(msg));
  let stack = '';
  if (err && typeof err === 'object') {
    const e = err as { type?: string; message?: string; stack?: string };
    parts.push(`err=${shown(`${e.type ?? 'Error'}: ${e.message ?? ''}`)}`);
    // The stack's first line repeats the message.
    const frames = (e.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    stack = frames.map((line) => `    ${line.trim()}\n`).join('');
  } else if (err !== undefined) fields.err = err;
  for (const [key, value] of Object.entries(fields)) parts.push(`${key}=${shown(value)}`);
  return `${parts.join(' ')}\n${stack}`;
}

/** stdout as LOG_FORMAT=pretty writes it: each record pino writes, reformatted by prettyLine. */
export function prettyStdout(): pino.DestinationStream {
  return { write: (json: string) => void process.stdout.write(prettyLine(json)) };
}
