// The routes operators and tools read, beside the API: liveness (/healthz), readiness with the
// stores every authenticated request needs (/readyz; 503 at once once the instance drains after
// SIGTERM, so a balancer takes it out while it still serves), Prometheus metrics (/metrics, optionally
// behind a bearer token, or on a listener of its own with METRICS_PORT) and the OpenAPI document
// (/openapi.json). They sit before authentication: none needs credentials.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../config';
import type { Metrics } from '../observability/metrics';
import type { Services } from '../services';
import { ServiceError } from '../core/errors';
import { sendError } from '../rest/respond';
import { notFound } from './not-found';

export interface ProbeDeps {
  config: Config;
  orm: MikroORM;
  metrics: Metrics;
  openApi: Record<string, unknown>;
  services: Pick<Services, 'readiness'>;
  /** True once the instance is shutting down (server.ts, on SIGTERM): /readyz answers 503 without asking the stores. */
  draining: () => boolean;
}

/**
 * Where /metrics is served: nowhere when METRICS_ENABLED is off; on its own listener with
 * METRICS_PORT; else on the service's port, which in production only with METRICS_TOKEN (closed by
 * default: the label values and process figures are not for anyone who can reach the API).
 */
export function metricsPlace(config: Config): 'off' | 'own-port' | 'main-port' {
  if (!config.metricsEnabled) return 'off';
  if (config.metricsPort !== null) return 'own-port';
  return config.nodeEnv !== 'production' || config.metricsToken ? 'main-port' : 'off';
}

function serveMetrics(config: Config, metrics: Metrics): Koa.Middleware {
  return async (ctx) => {
    if (config.metricsToken && ctx.get('authorization') !== `Bearer ${config.metricsToken}`) {
      return sendError(ctx, new ServiceError('WSInvalidAuthTokenException', 'A metrics token is required.'));
    }
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  };
}

export function mountProbes(router: Router, { config, orm, metrics, openApi, services, draining }: ProbeDeps): void {
  if (metricsPlace(config) === 'main-port') router.get('/metrics', serveMetrics(config, metrics));
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  // Ready while the database and the stores beside it (Redis, as `cache`, with REDIS_URL) answer.
  router.get('/readyz', async (ctx) => {
    if (draining()) {
      ctx.status = 503;
      ctx.body = { status: 'draining' };
      return;
    }
    const [check, stores] = await Promise.all([orm.checkConnection().catch(() => ({ ok: false as const })), services.readiness()]);
    const parts = { database: check.ok ? 'up' : 'down', ...stores };
    const ready = Object.values(parts).every((state) => state === 'up');
    ctx.status = ready ? 200 : 503;
    ctx.body = { status: ready ? 'ready' : 'unavailable', ...parts };
  });
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApi;
  });
}

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

/**
 * With METRICS_PORT: /metrics on a listener of its own at that port on HOST (the token, when set,
 * still required), anything else a JSON 404. Null when /metrics is not served there.
 */
export async function startMetricsListener(config: Config, metrics: Metrics): Promise<MetricsListener | null> {
  if (metricsPlace(config) !== 'own-port') return null;
  const app = new Koa();
  const router = new Router();
  router.get('/metrics', serveMetrics(config, metrics));
  app.use(router.routes());
  app.use(notFound);
  const handle = app.callback();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.metricsPort!, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // A scraper's idle keep-alive connection would hold close() open.
      server.closeIdleConnections();
      await closed;
    },
  };
}
