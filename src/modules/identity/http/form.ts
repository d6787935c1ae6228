// application/x-www-form-urlencoded bodies of the OAuth endpoints, read by hand so that a
// repeated parameter is seen (RFC 6749 3.2: parameters must not be included more than once), and
// strictly: a body that is not UTF-8, or a parameter whose percent-escapes are not UTF-8 or that
// holds a NUL, is invalid_request naming it (never a lookup with a value the database refuses).
import { isUtf8 } from 'node:buffer';
import type Koa from 'koa';
import { OAuthError } from '../oauth-error';
import { formPairs, NotText } from '../../../core/text';

const MAX_BODY = 16_384;

export async function readRawBody(ctx: Koa.Context): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new OAuthError('invalid_request', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const bytes = Buffer.concat(chunks);
  if (!isUtf8(bytes)) throw new OAuthError('invalid_request', 'The request body is not UTF-8.');
  return bytes.toString('utf8');
}

/**
 * Parameters of a form body or query string with their values; empty values count as omitted
 * (RFC 6749 3.1 and 3.2). A parameter that is not text is OAuthError invalid_request.
 */
export function parseParams(raw: string): { params: Map<string, string>; duplicates: string[] } {
  let pairs: [string, string][];
  try {
    pairs = formPairs(raw);
  } catch (err) {
    if (err instanceof NotText) throw new OAuthError('invalid_request', `Parameter ${err.field} is not valid text.`);
    throw err;
  }
  const params = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const [name, value] of pairs) {
    if (value === '') continue;
    if (params.has(name)) duplicates.add(name);
    params.set(name, value);
  }
  return { params, duplicates: [...duplicates] };
}

export async function readForm(ctx: Koa.Context): Promise<Map<string, string>> {
  if (!ctx.is('application/x-www-form-urlencoded')) {
    throw new OAuthError('invalid_request', 'The body must be application/x-www-form-urlencoded.');
  }
  const { params, duplicates } = parseParams(await readRawBody(ctx));
  if (duplicates.length) throw new OAuthError('invalid_request', `Parameter ${duplicates[0]} is repeated.`);
  return params;
}
