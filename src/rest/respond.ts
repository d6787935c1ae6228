// The REST error body: {errorCode, message, field?}, with the status from the registry.
import type Koa from 'koa';
import type { ServiceError } from '../core/errors';

export interface ErrorBody {
  errorCode: string;
  message: string;
  field?: string;
}

export function errorBody(err: ServiceError): ErrorBody {
  const body: ErrorBody = { errorCode: err.code, message: err.message };
  if (err.field) body.field = err.field;
  return body;
}

/**
 * A JSON answer sent as the bytes it is encoded to, once. Given the object (or its text), Koa
 * measures the text's UTF-8 length, and node encodes it again for the socket into a buffer sized
 * for three bytes a character; a recommended-entities answer is 270 KB ("Answers as bytes" in
 * docs/performance.md).
 */
export function sendJson(ctx: Koa.Context, json: string): void {
  sendBytes(ctx, Buffer.from(json));
}

/**
 * JSON text and a newline after it, as one buffer the text is encoded into once. Not
 * `Buffer.from(json + '\n')`: that joined string is a rope, and encoding a rope is far slower than
 * encoding the flat text (1.24 ms more a request on recommended entities' 270 KB on /graphql, in a
 * CPU profile).
 */
export function jsonLineBytes(json: string): Buffer {
  const length = Buffer.byteLength(json);
  const bytes = Buffer.allocUnsafe(length + 1);
  bytes.write(json, 0);
  bytes[length] = 0x0a;
  return bytes;
}

/** JSON already encoded (sendJson). */
export function sendBytes(ctx: Koa.Context, bytes: Buffer): void {
  ctx.type = 'json';
  ctx.body = bytes;
}

export function sendError(ctx: Koa.Context, err: ServiceError): void {
  ctx.status = err.status;
  for (const [k, v] of Object.entries(err.headers ?? {})) ctx.set(k, v);
  ctx.body = errorBody(err);
  ctx.state.errorCode = err.code;
}
