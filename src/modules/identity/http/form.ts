// application/x-www-form-urlencoded bodies of the OAuth endpoints, read by hand so that a
// repeated parameter is seen (RFC 6749 3.2: parameters must not be included more than once).
import type Koa from 'koa';
import { OAuthError } from '../oauth-error';

const MAX_BODY = 16_384;

export async function readRawBody(ctx: Koa.Context): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new OAuthError('invalid_request', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parameters with their values; empty values count as omitted (RFC 6749 3.1 and 3.2). */
export function parseParams(source: URLSearchParams): { params: Map<string, string>; duplicates: string[] } {
  const params = new Map<string, string>();
  const duplicates = new Set<string>();
  for (const [name, value] of source) {
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
  const { params, duplicates } = parseParams(new URLSearchParams(await readRawBody(ctx)));
  if (duplicates.length) throw new OAuthError('invalid_request', `Parameter ${duplicates[0]} is repeated.`);
  return params;
}
