// The routes operators and tools read, beside the API: liveness (/healthz), readiness with the
// database (/readyz), Prometheus metrics (/metrics, optionally behind a bearer token) and the
// OpenAPI document (/openapi.json). They sit before authentication: none needs credentials.
import type Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config';
import type { Metrics } from '../observability/metrics';
import { ServiceError } from '../graphql/errors';
import { sendError } from '../rest/respond';

export interface ProbeDeps {
  config: Config;
  orm: MikroORM;
  metrics: Metrics;
  openApi: Record<string, unknown>;
}

export function mountProbes(router: Router, { config, orm, metrics, openApi }: ProbeDeps): void {
  if (config.metricsEnabled) {
    router.get('/metrics', async (ctx) => {
      if (config.metricsToken && ctx.get('authorization') !== `Bearer ${config.metricsToken}`) {
        return sendError(ctx, new ServiceError('WSInvalidAuthTokenException', 'A metrics token is required.'));
      }
      ctx.type = metrics.registry.contentType;
      ctx.body = await metrics.registry.metrics();
    });
  }
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  router.get('/readyz', async (ctx) => {
    const check = await orm.checkConnection().catch(() => ({ ok: false as const }));
    ctx.status = check.ok ? 200 : 503;
    ctx.body = { status: check.ok ? 'ready' : 'unavailable', database: check.ok ? 'up' : 'down' };
  });
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi;
  });
}
