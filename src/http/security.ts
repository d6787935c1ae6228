// Browser-facing protection: helmet's security headers on every response, and CORS only for
// the origins CORS_ORIGINS names (none by default: no CORS headers at all). The CSP is set by the
// two HTML pages themselves: the Sandbox landing page (its own, for Apollo's CDN) and the explorer
// at /graphiql (same origin only, src/explorer/route.ts); every other response is JSON.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import helmet, { type HelmetOptions } from 'helmet';
import cors from '@koa/cors';
import type { Config } from '../config';

const ALLOW_HEADERS = [
  'content-type',
  'x-service-authtoken',
  'x-service-company-api-key',
  'x-api-key',
  'authorization',
  'apollo-require-preflight',
  'x-request-id',
];
const EXPOSE_HEADERS = ['x-request-id', 'etag', 'retry-after', 'ratelimit', 'ratelimit-policy'];

/** Without a CSP (see above) every header helmet writes is the same on every response. */
export const HELMET_OPTIONS: HelmetOptions = { contentSecurityPolicy: false, crossOriginEmbedderPolicy: false };

/**
 * The headers helmet writes with these options, asked of helmet once at start-up. Nothing in
 * them depends on the request (no CSP nonce), so every response gets the same list, set without
 * running helmet's middleware (and a promise around it) per request: docs/performance.md.
 */
export function helmetHeaders(options: HelmetOptions = HELMET_OPTIONS): [string, string][] {
  const headers: [string, string][] = [];
  let done = false;
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
    },
    // X-Powered-By, which neither Node nor Koa sets.
    removeHeader() {},
  } as unknown as ServerResponse;
  helmet(options)({} as IncomingMessage, res, (err) => {
    if (err) throw new Error('helmet failed to set its headers', { cause: err });
    done = true;
  });
  // helmet's middleware is synchronous; a version that answered later could not be precomputed.
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

export function security(config: Config): Koa.Middleware[] {
  const list = helmetHeaders();
  const headers: Koa.Middleware = (ctx, next) => {
    for (const [name, value] of list) ctx.res.setHeader(name, value);
    return next();
  };
  if (!config.corsOrigins.length) return [headers];
  const allowed = new Set(config.corsOrigins);
  const origin = (ctx: Koa.Context) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : '');
  // The one error handler keeps the headers set before a failure (error-handler.ts), so cors does not
  // copy its own onto the error as well: from there they would be set a second time (Vary as `vary`).
  return [headers, cors({ origin, allowHeaders: ALLOW_HEADERS, exposeHeaders: EXPOSE_HEADERS, keepHeadersOnError: false })];
}

/**
 * The client's address is the socket's, or with TRUST_PROXY_HOPS the X-Forwarded-For entry that
 * many hops from the right (what the outermost trusted proxy saw); entries further left are the
 * client's own words and never trusted.
 */
export function trustProxies(koa: Koa, config: Config): Koa {
  koa.proxy = config.trustProxyHops > 0;
  koa.maxIpsCount = config.trustProxyHops;
  return koa;
}
