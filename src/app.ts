// createApp(deps): the composition root and the service's one Koa application. Here (and in server.ts,
// scripts and tests) the module list is read and handed to the schema, the services, the request
// context, the route table and the OpenAPI document: core, db, graphql, rest and http import no
// module. Middleware order: request id and access log, the request span, the one error handler,
// security headers, probes, /graphql and /graphiql, authentication, /rest, a JSON 404.
import type http from 'node:http';
import Koa from 'koa';
import Router from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import type { AppDeps, Context } from './context';
import { contextParts } from './core/module';
import { ServiceError } from './core/errors';
import { createOAuthServer, MODULES, RATE_LIMITED_OPERATIONS } from './modules';
import { createSchema } from './graphql/schema';
import { startApollo } from './graphql/apollo';
import { routeTable } from './rest/routes';
import { compileRoutes, createRestRouter } from './rest/executor';
import { buildOpenApi } from './rest/openapi';
import { createServices, type Services } from './services';
import { poolStats } from './db/orm';
import { createMetrics, type Metrics } from './observability/metrics';
import { knownOperations } from './observability/operation-names';
import { traceRequest } from './observability/tracing';
import { requestLog } from './http/request-log';
import { errorHandler, logAppErrors } from './http/error-handler';
import { security, trustProxies } from './http/security';
import { mountProbes } from './http/probes';
import { readScope } from './http/read-scope';
import { mountGraphql } from './http/graphql-route';
import { mountExplorer } from './explorer/route';
import { notFound } from './http/not-found';
import { outside, REST_PREFIX } from './http/outside';
import { LiveSessions } from './http/live-sessions';
import { liveConnections } from './http/live-ws';
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

export type CreateAppOptions = { config: Config; logger: Logger; orm: MikroORM };

/** What the app starts after its services: the OAuth server, the routes, the OpenAPI document, metrics and Apollo. */
async function startParts(config: Config, logger: Logger, orm: MikroORM, schema: GraphQLSchema, services: Services) {
  const oauth = await createOAuthServer(config, services.identity);
  const routes = routeTable(MODULES);
  const compiled = compileRoutes(schema, routes);
  const openApi = buildOpenApi(schema, compiled, {
    serverUrl: config.publicBaseUrl,
    authBaseUrl: config.authBaseUrl,
    rateLimited: RATE_LIMITED_OPERATIONS,
  });
  const metrics = createMetrics(knownOperations(routes), () => poolStats(orm), services.reads);
  const apollo = await startApollo(schema, config, logger, routes);
  return { oauth, routes, compiled, openApi, metrics, apollo };
}

export async function createApp({ config, logger, orm }: CreateAppOptions): Promise<App> {
  const schema = await createSchema(MODULES);
  const services = await createServices({ config, logger, orm, modules: MODULES });
  // A start that fails after the services opened closes them again: the bus keeps a LISTEN
  // connection and its reconnect timer, which would outlive the failed start.
  const started = await startParts(config, logger, orm, schema, services).catch(async (err: unknown) => {
    await services.close().catch(() => undefined);
    throw err;
  });
  const { oauth, routes, compiled, openApi, metrics, apollo } = started;
  const deps: AppDeps = { config, logger, em: orm.em, services, parts: contextParts(MODULES) };

  const koa = trustProxies(new Koa(), config);
  logAppErrors(koa, logger);
  koa.use(requestLog(logger, metrics));
  // Outside the error handler so the span sees the status actually sent.
  koa.use(traceRequest);
  koa.use(errorHandler);
  for (const middleware of security(config)) koa.use(middleware);
  if (services.reads) koa.use(readScope(services.reads));

  const router = new Router();
  let draining = false;
  mountProbes(router, { config, orm, metrics, openApi, services, draining: () => draining });
  const sessions = new LiveSessions(deps, routes);
  mountEventStream(router, schema, sessions);
  await mountGraphql(router, apollo, deps, routes, Math.max(...compiled.map((c) => c.bodyLimit)));
  // GRAPHQL_EXPLORER (off in production unless set; config refuses it without introspection, by which it loads the schema): else 404.
  if (config.explorer) mountExplorer(router, { authBaseUrl: config.authBaseUrl });
  const rest = createRestRouter(deps, compiled, { onIgnoredProperty: (operation) => metrics.ignoredProperty(operation) });
  koa.use(outside(REST_PREFIX, router));
  koa.use(oauth.middleware);
  koa.use(rest.routes());
  const refused = () => new ServiceError('WSMethodNotAllowedException', undefined);
  koa.use(rest.allowedMethods({ throw: true, methodNotAllowed: refused, notImplemented: refused }));
  koa.use(notFound);

  const live = liveConnections(schema, sessions);
  const stop = async () => {
    await live.close();
    await apollo.stop();
    await services.close();
    metrics.release();
  };
  return { koa, schema, openApi, apollo, metrics, services, live, startDraining: () => void (draining = true), stop };
}
