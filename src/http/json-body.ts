// The JSON body parser /graphql and /rest share (POST, PUT and PATCH with a JSON media type).
// Every body it reads ends, answered or refused within the request, and nothing reaches the
// service that is not text:
// - the content encoding is undone (gzip, deflate, br: inflation); data that does not inflate is
//   400, an encoding it does not know is 415;
// - at most 1 MB (after inflating), else 413;
// - a body cut short, or left unread because the client hung up first, is 400 (incomplete);
// - the bytes must be UTF-8 (refused, not replaced with U+FFFD), a BOM is dropped;
// - the JSON must be an object or an array (a `__proto__` key is refused: @hapi/bourne);
// - no object in it may name a key twice (JSON.parse would keep the last): refused naming the key,
//   on /graphql too (duplicate-keys.ts);
// - no string in it, keys included, may hold a NUL or an unpaired surrogate (a `\u0000` or
//   `\ud800` escape): refused naming the property that holds it (on /graphql, where the
//   text-input plugin does it for the operation's variables, answered as a GraphQL error).
// Refusals are WSInvalidParameterException naming `body` (or the property), through the one
// error handler.
import { isUtf8 } from 'node:buffer';
import type Koa from 'koa';
import { closeAfterAnswer } from './linger';
import getRawBody from 'raw-body';
import bourne from '@hapi/bourne';
import { ServiceError } from '../core/errors';
import { firstBadText } from '../core/text';
import { duplicateKey } from './duplicate-keys';

// inflation has no type declarations: the request, decoded by its Content-Encoding.
const inflate: (req: NodeJS.ReadableStream) => NodeJS.ReadableStream = require('inflation');

export const JSON_BODY_LIMIT = 1024 * 1024;
const PARSED = new Set(['POST', 'PUT', 'PATCH']);
/** Allowed leading whitespace (RFC 8259), then an object or an array. */
const OBJECT_OR_ARRAY = /^[\x20\x09\x0a\x0d]*[[{]/;

const refused = (message: string, field = 'body', status?: number) =>
  new ServiceError('WSInvalidParameterException', message, { field, ...(status ? { status } : {}) });

/** The request's bytes, inflated, within the limit; failures as the service's errors. */
async function readBytes(ctx: Koa.Context, limit: number): Promise<Buffer> {
  const encoding = (ctx.get('content-encoding') || 'identity').toLowerCase();
  const length = encoding === 'identity' ? ctx.get('content-length') : undefined;
  try {
    return await getRawBody(inflate(ctx.req), { limit, length: length || undefined });
  } catch (err) {
    // The rest of the body is not read: the answer closes the connection (lingering).
    closeAfterAnswer(ctx);
    const { status, type, code } = (err ?? {}) as { status?: number; type?: string; code?: string };
    if (status === 413) throw new ServiceError('WSLimitExceededException', 'The request body is too large.', { status: 413 });
    if (status === 415 || type === 'encoding.unsupported')
      throw refused(`The content encoding ${encoding} is not supported (gzip, deflate, br or none).`, 'body', 415);
    if (typeof code === 'string' && code.startsWith('Z_')) throw refused(`The request body is not valid ${encoding} data.`);
    // Cut short, or the client hung up before it was read (Node has destroyed the request): its doing, not ours.
    if ((typeof status === 'number' && status < 500) || (type === 'stream.not.readable' && ctx.req.destroyed))
      throw refused('The request body is incomplete.');
    // zlib's brotli errors carry other codes; anything else from inflating is the body's fault too.
    if (encoding !== 'identity') throw refused(`The request body is not valid ${encoding} data.`);
    throw err;
  }
}

/**
 * Parses a JSON body read from the request (see the header); `{}` for an empty one. `checkText`
 * false leaves its strings to the reader (/graphql: its text-input plugin answers in GraphQL's shape).
 */
export async function readJson(ctx: Koa.Context, limit = JSON_BODY_LIMIT, checkText = true): Promise<unknown> {
  const bytes = await readBytes(ctx, limit);
  if (!isUtf8(bytes)) throw refused('The request body is not UTF-8.');
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!text) return {};
  let parsed: unknown;
  try {
    if (!OBJECT_OR_ARRAY.test(text)) throw new SyntaxError('not an object or array');
    parsed = bourne.parse(text, { protoAction: 'error' });
  } catch {
    throw refused('The request body is not valid JSON.');
  }
  const twice = duplicateKey(text, parsed);
  if (twice) throw refused(`${twice.path} is given twice.`, twice.key);
  const bad = checkText ? firstBadText(parsed) : null;
  if (bad) throw refused(`${bad} holds a character that is not text (NUL or an unpaired surrogate).`, bad);
  return parsed;
}

/** POST, PUT and PATCH: a JSON body parsed, any other media type left unread as `{}` (a multipart route reads it itself). */
export function jsonBodyParser(checkText: boolean, limit = JSON_BODY_LIMIT): Koa.Middleware {
  return async (ctx, next) => {
    const request = ctx.request as { body?: unknown };
    if (request.body === undefined && PARSED.has(ctx.method))
      request.body = ctx.request.is('application/json', '+json', 'application/csp-report') ? await readJson(ctx, limit, checkText) : {};
    return next();
  };
}

/** REST and the event stream: every string checked. */
export const jsonBody = jsonBodyParser(true);
