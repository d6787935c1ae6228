// Browser-facing protection: helmet's security headers on every response, and CORS only for
// the origins CORS_ORIGINS names (none by default: no CORS headers at all). The CSP is set by the
// two HTML pages themselves: the Sandbox landing page (its own, for Apollo's CDN) and the explorer
// at /graphiql (same origin only, src/explorer/route.ts); every other response is JSON.
import type Koa from 'koa';
import helmet from 'koa-helmet';
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
const EXPOSE_HEADERS = ['x-request-id', 'etag', 'retry-after'];

export function security(config: Config): Koa.Middleware[] {
  const headers = helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false });
  if (!config.corsOrigins.length) return [headers];
  const allowed = new Set(config.corsOrigins);
  const origin = (ctx: Koa.Context) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : '');
  return [headers, cors({ origin, allowHeaders: ALLOW_HEADERS, exposeHeaders: EXPOSE_HEADERS })];
}
