// The answer of a GET: the root field's JSON with its caching headers (http-cache.ts) and a strong
// ETag, the digest of the very bytes sent, so any change of the answer changes it; 304 without a
// body when If-None-Match names it. The file and whole-list answers keep the same headers.
import type Koa from 'koa';
import { cacheControlOf, etagMatches, etagOf, varyOf } from '../http-cache';
import { sendBytes } from '../respond';
import type { RouteDef } from '../route';

/**
 * The route's caching headers, set on a successful answer only: an error is never kept. Vary adds
 * to what is there (CORS's Origin).
 */
export function cachingOf(def: RouteDef): (ctx: Koa.Context) => void {
  const cacheControl = cacheControlOf(def);
  const vary = varyOf(def);
  return (ctx) => {
    ctx.set('Cache-Control', cacheControl);
    if (vary) ctx.vary(vary);
  };
}

/** Sends a read's JSON with its ETag, or 304 when If-None-Match names it. */
export function sendRead(ctx: Koa.Context, json: string): void {
  // Encoded once: the tag is the digest of the bytes sent (hashing the text would encode it too).
  const bytes = Buffer.from(json);
  const etag = etagOf(bytes);
  ctx.set('ETag', etag);
  if (etagMatches(ctx.get('If-None-Match'), etag)) ctx.status = 304;
  else sendBytes(ctx, bytes);
}

export function readAnswer(def: RouteDef, rootKey: string) {
  const caching = cachingOf(def);
  return (ctx: Koa.Context, data: Record<string, unknown>): void => {
    const body = data[rootKey];
    // A null root (an optional answer) keeps Koa's own handling of an empty body.
    if (body == null) ctx.body = body;
    else {
      caching(ctx);
      sendRead(ctx, JSON.stringify(body));
    }
  };
}
