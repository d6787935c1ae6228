// createApp(deps): the service's one Koa application. It builds what the requests share (schema,
// services, Apollo, the OAuth endpoints, REST routes, metrics) and chains the middleware in the order that matters:
// request id and access log, the request span, the one error handler, security headers, the
// probes, /graphql and its bundled explorer (/graphiql), authentication, /rest, and a JSON 404. server.ts only starts and stops
// what this returns; background work is src/background.ts.
import type http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { MikroORM } from '@mikro-orm/core';
import type { Pool } from 'pg';
import type { Config } from './config';
import type { Logger } from './logger';
import type { Context } from './context';
import { createSchema } from './graphql/schema';
import { startApollo } from './graphql/apollo';
import { ServiceError } from './core/errors';
import { ROUTES } from './rest/routes';
import { compileRoutes, createRestRouter } from './rest/executor';
import { buildOpenApi } from './rest/openapi';
import { createOAuthServer } from './modules';
import { createServices, type Services } from './services';
import { createMetrics, type Metrics } from './observability/metrics';
import { traceRequest } from './observability/tracing';
import { requestLog } from './http/request-log';
import { errorHandler } from './http/error-handler';
import { security } from './http/security';
import { mountProbes } from './http/probes';
import { mountGraphql } from './http/graphql-route';
import { mountExplorer } from './explorer/route';
import { notFound } from './http/not-found';
import { LiveSessions } from './http/live-sessions';
import { attachWebSocket, type WebSocketEndpoint } from './http/live-ws';
import { mountEventStream } from './http/live-sse';

export interface App {
  koa: Koa;
  schema: GraphQLSchema;
  /** The OpenAPI document served at /openapi.json. */
  openApi: Record<string, unknown>;
  apollo: ApolloServer<Context>;
  metrics: Metrics;
  /** The app-wide services every request's context carries (background work takes them too). */
  services: Services;
  /** Subscriptions: attach() serves graphql-ws on the server's /graphql upgrades; close() ends every live connection. */
  live: { attach(server: http.Server): void; close(): Promise<void> };
  /** From now on /readyz answers 503 (`draining`) while everything else is still served (server.ts, on SIGTERM). */
  startDraining(): void;
  /** Stops Apollo and the services; the caller closes the HTTP server and the ORM. */
  stop(): Promise<void>;
}

export interface CreateAppOptions {
  config: Config;
  logger: Logger;
  orm: MikroORM;
}

/** What the app starts after its services: the OAuth server, the routes, the OpenAPI document, metrics and Apollo. */
async function startParts(config: Config, logger: Logger, orm: MikroORM, schema: GraphQLSchema, services: Services) {
  const oauth = await createOAuthServer(config, services.identity);
  const compiled = compileRoutes(schema, ROUTES);
  const openApi = buildOpenApi(schema, compiled, { serverUrl: config.publicBaseUrl, authBaseUrl: config.authBaseUrl });
  const metrics = createMetrics(() => poolStats(orm));
  const apollo = await startApollo(schema, config, logger);
  return { oauth, compiled, openApi, metrics, apollo };
}

export async function createApp({ config, logger, orm }: CreateAppOptions): Promise<App> {
  const schema = await createSchema();
  const services = await createServices({ config, logger, orm });
  // A start that fails after the services opened closes them again: the bus keeps a LISTEN
  // connection and its reconnect timer, which would outlive the failed start.
  const started = await startParts(config, logger, orm, schema, services).catch(async (err: unknown) => {
    await services.close().catch(() => undefined);
    throw err;
  });
  const { oauth, compiled, openApi, metrics, apollo } = started;
  const deps = { config, logger, em: orm.em, services };

  const koa = new Koa();
  // The client's address is the socket's, or with TRUST_PROXY_HOPS the X-Forwarded-For entry
  // that many hops from the right (what the outermost trusted proxy saw); entries further left
  // are the client's own words and never trusted.
  koa.proxy = config.trustProxyHops > 0;
  koa.maxIpsCount = config.trustProxyHops;
  koa.use(requestLog(logger, metrics));
  // Outside the error handler so the span sees the status actually sent.
  koa.use(traceRequest);
  koa.use(errorHandler);
  for (const middleware of security(config)) koa.use(middleware);

  const router = new Router();
  let draining = false;
  mountProbes(router, { config, orm, metrics, openApi, services, draining: () => draining });
  const sessions = new LiveSessions(deps);
  mountEventStream(router, schema, sessions);
  await mountGraphql(router, apollo, deps, Math.max(...compiled.map((c) => c.bodyLimit)));
  // GRAPHQL_EXPLORER (off in production unless set; config refuses it without introspection, by which it loads the schema): else 404.
  if (config.explorer) mountExplorer(router, { authBaseUrl: config.authBaseUrl });
  const rest = createRestRouter(deps, compiled, { onIgnoredProperty: (operation) => metrics.ignoredProperty(operation) });
  koa.use(outside(REST_PREFIX, router));
  koa.use(oauth.middleware);
  koa.use(rest.routes());
  koa.use(
    rest.allowedMethods({
      throw: true,
      methodNotAllowed: () => new ServiceError('WSMethodNotAllowedException', undefined),
      notImplemented: () => new ServiceError('WSMethodNotAllowedException', undefined),
    }),
  );
  koa.use(notFound);

  const sockets: WebSocketEndpoint[] = [];
  const live = {
    attach: (server: http.Server) => void sockets.push(attachWebSocket(server, schema, sessions)),
    async close() {
      sessions.closeAll();
      await Promise.all(sockets.splice(0).map((s) => s.close()));
    },
  };

  return {
    koa,
    schema,
    openApi,
    apollo,
    metrics,
    services,
    live,
    startDraining: () => {
      draining = true;
    },
    stop: async () => {
      await live.close();
      await apollo.stop();
      await services.close();
      metrics.release();
    },
  };
}

/** Where every REST route is (src/rest/routes.ts). */
const REST_PREFIX = '/rest/';

/**
 * The router's routes for the paths outside `prefix`; a request under it goes on without being
 * matched against them (docs/performance.md). None of the router's routes may be under it.
 */
function outside(prefix: string, router: Router): Koa.Middleware {
  const inside = router.stack.map((layer) => String(layer.path)).filter((path) => path.startsWith(prefix));
  if (inside.length) throw new Error(`${inside.join(', ')}: under ${prefix}, which is the REST routes' own`);
  const routes = router.routes() as Koa.Middleware;
  return (ctx, next) => (ctx.path.startsWith(prefix) ? next() : routes(ctx, next));
}

// pg's Pool on a real server; PGlite has a single in-process connection and no pool.
async function poolStats(orm: MikroORM) {
  const connection = orm.em.getConnection() as unknown as { getNativeClient(): Promise<Partial<Pool> | null> };
  const client = await connection.getNativeClient();
  return typeof client?.totalCount === 'number'
    ? { total: client.totalCount, idle: client.idleCount!, waiting: client.waitingCount! }
    : null;
}
