// createApp(deps): request ids and logging, the one error handler, /graphql, /rest,
// /openapi.json and the health probes. server.ts only starts and stops what this returns.
import crypto from 'node:crypto';
import Koa from 'koa';
import Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { ApolloServerPluginInlineTraceDisabled } from '@apollo/server/plugin/disabled';
import { unwrapResolverError } from '@apollo/server/errors';
import type { GraphQLFormattedError, GraphQLSchema } from 'graphql';
import { GraphQLError } from 'graphql';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import { buildContext, type Context } from './context';
import { createSchema } from './graphql/schema';
import { classify } from './graphql/error-mapping';
import { ServiceError } from './graphql/errors';
import { ROUTES } from './rest/routes';
import { compileRoutes, createRestRouter } from './rest/executor';
import { buildOpenApi } from './rest/openapi';
import { sendError } from './rest/respond';
import { graphqlUploadKoa } from 'graphql-upload-minimal';
import { drainUploads } from './rest/multipart';
import { startUploadPurge } from './modules/library/upload.purge';
import { createAuth } from './auth';
import { graphqlArmor, GRAPHQL_LIMITS } from './graphql/limits';
import { sandboxDocument } from './graphql/sandbox';
import { createMetrics, type Metrics } from './observability/metrics';
import { traceRequest, traceOperation, activeSpan, recordOperationError } from './observability/tracing';
import helmet from 'koa-helmet';
import cors from '@koa/cors';

export interface App {
  koa: Koa;
  schema: GraphQLSchema;
  /** The OpenAPI document served at /openapi.json. */
  openApi: Record<string, unknown>;
  apollo: ApolloServer<Context>;
  metrics: Metrics;
  /** Stops Apollo; the caller closes the HTTP server and the ORM. */
  stop(): Promise<void>;
}

export interface CreateAppOptions {
  config: Config;
  logger: Logger;
  orm: MikroORM;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

function formatError(formatted: GraphQLFormattedError, raw: unknown): GraphQLFormattedError {
  const err = unwrapResolverError(raw);
  const gqlError = raw instanceof GraphQLError ? raw : err instanceof GraphQLError ? err : new GraphQLError(formatted.message);
  const classified = classify(err instanceof ServiceError ? err : gqlError);
  if (!classified) return { message: formatted.message, locations: formatted.locations, extensions: { code: formatted.extensions?.code } };
  const { error } = classified;
  const extensions: Record<string, unknown> = { code: error.code };
  if (error.field) extensions.field = error.field;
  // A rate-limit refusal carries its Retry-After (seconds) for GraphQL clients too.
  if (error.headers?.['Retry-After']) extensions.retryAfter = Number(error.headers['Retry-After']);
  return { message: error.message, locations: formatted.locations, path: formatted.path, extensions };
}

export async function createApp({ config, logger, orm }: CreateAppOptions): Promise<App> {
  const schema = await createSchema();
  const deps = { config, logger, em: orm.em };
  const auth = await createAuth({ config, logger, orm });
  const compiled = compileRoutes(schema, ROUTES);
  const openApi = buildOpenApi(schema, compiled, config.publicBaseUrl);

  const armor = graphqlArmor();
  const metrics = createMetrics(async () => {
    // pg's Pool on a real server; PGlite has a single in-process connection and no pool.
    const client: any = await (orm.em.getConnection() as any).getNativeClient();
    return typeof client?.totalCount === 'number' ? { total: client.totalCount, idle: client.idleCount, waiting: client.waitingCount } : null;
  });
  const apollo = new ApolloServer<Context>({
    schema,
    validationRules: armor.validationRules,
    parseOptions: { maxTokens: GRAPHQL_LIMITS.maxTokens },
    introspection: config.introspection,
    csrfPrevention: true,
    allowBatchedHttpRequests: false,
    // server.ts owns the signals: it drains HTTP first, then stops Apollo, then the database.
    stopOnTerminationSignals: false,
    includeStacktraceInErrorResponses: false,
    hideSchemaDetailsFromClientErrors: !config.introspection,
    formatError,
    plugins: [
      ...armor.plugins,
      ApolloServerPluginInlineTraceDisabled(),
      ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false, document: sandboxDocument(ROUTES), headers: { 'x-service-authtoken': '' } }),
      {
        // Names the /graphql operation span; its errors carry the service's identifier.
        async requestDidStart() {
          const span = activeSpan();
          if (!span?.isRecording()) return;
          return {
            async didResolveOperation({ operationName, operation }) {
              span.updateName(operationName ?? 'anonymous');
              if (operation) span.setAttribute('graphql.operation.type', operation.operation);
              if (operationName) span.setAttribute('graphql.operation.name', operationName);
            },
            async didEncounterErrors({ errors }) {
              const classified = classify(errors[0]);
              recordOperationError(span, classified?.error.code ?? 'WSInternalException', !classified || classified.internal);
            },
          };
        },
      },
      {
        // Unknown failures are logged once, with the request id, before formatError hides them.
        async requestDidStart({ contextValue }) {
          return {
            // A document refused before execution is the client's error (400), whichever
            // validation step refused it (Apollo answers 500 for limits raised while parsing).
            async willSendResponse({ response }) {
              if (response.body.kind !== 'single') return;
              const { data, errors } = response.body.singleResult;
              if (data === undefined && errors?.length && errors.every((e) => e.extensions?.code === 'GRAPHQL_VALIDATION_FAILED' || e.extensions?.code === 'GRAPHQL_PARSE_FAILED')) {
                response.http.status = 400;
              }
              // A refused rate limit answers 429 with Retry-After, as on REST, when nothing else was answered.
              const limited = errors?.filter((e) => typeof e.extensions?.retryAfter === 'number') ?? [];
              if (limited.length) {
                response.http.headers.set('retry-after', String(Math.max(...limited.map((e) => e.extensions!.retryAfter as number))));
                if (limited.length === errors!.length && (data == null || Object.values(data).every((v) => v === null))) response.http.status = 429;
              }
            },
            async didResolveOperation({ operationName }) {
              if (contextValue.httpState) contextValue.httpState.operation = operationName ?? 'anonymous';
            },
            async didEncounterErrors({ errors }) {
              const first = errors[0];
              if (first && contextValue?.httpState) {
                const c = classify(first.originalError instanceof ServiceError ? first.originalError : first);
                contextValue.httpState.errorCode = c?.error.code ?? (first.extensions?.code as string | undefined) ?? 'GRAPHQL_ERROR';
              }
              for (const e of errors) {
                const c = classify(e.originalError instanceof ServiceError ? e.originalError : e);
                if (c?.internal) contextValue.logger.error({ err: e.originalError ?? e, path: e.path }, 'unhandled error in GraphQL operation');
              }
            },
          };
        },
      },
    ],
  });
  await apollo.start();
  const { koaMiddleware } = await import('@as-integrations/koa');

  const koa = new Koa();
  koa.proxy = false;

  // Request id and access log: every line of this request carries the id.
  koa.use(async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.logger = logger.child({ requestId });
    ctx.set('x-request-id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (ctx.path !== '/metrics') {
        metrics.observe({ operation: ctx.state.operation ?? (ctx.status === 404 ? 'unmatched' : ctx.path), method: ctx.method, outcome: ctx.state.errorCode ?? (ctx.status < 400 ? 'ok' : String(ctx.status)) }, ms / 1000);
      }
      ctx.state.logger.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, operation: ctx.state.operation, errorCode: ctx.state.errorCode },
        'request',
      );
    }
  });

  // Outside the error handler so the span sees the status actually sent.
  koa.use(traceRequest);

  // The one error handler: nothing but the error body leaves; never a stack trace.
  koa.use(async (ctx, next) => {
    try {
      await next();
    } catch (err: any) {
      if (err instanceof ServiceError) return sendError(ctx, err);
      const status = typeof err?.status === 'number' ? err.status : 500;
      if (status === 400 || err?.type === 'entity.parse.failed' || err instanceof SyntaxError) {
        return sendError(ctx, new ServiceError('WSInvalidParameterException', 'The request body is not valid JSON.', { field: 'body' }));
      }
      if (status === 413) return sendError(ctx, new ServiceError('WSLimitExceededException', 'The request body is too large.', { status: 413 }));
      if (status === 415) return sendError(ctx, new ServiceError('WSInvalidParameterException', 'Unsupported content type.', { field: 'body', status: 415 }));
      ctx.state.logger.error({ err }, 'unhandled error');
      sendError(ctx, new ServiceError('WSInternalException'));
    }
  });

  // Security headers. The CSP is left to the embedded Sandbox page's own needs (it loads from
  // Apollo's CDN); every other response is JSON.
  koa.use(helmet({ contentSecurityPolicy: false, crossOriginEmbedderPolicy: false }));
  if (config.corsOrigins.length) {
    const allowed = new Set(config.corsOrigins);
    koa.use(cors({ origin: (ctx: Koa.Context) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''), allowHeaders: ['content-type', 'x-service-authtoken', 'x-service-company-api-key', 'x-api-key', 'authorization', 'apollo-require-preflight', 'x-request-id'], exposeHeaders: ['x-request-id', 'etag', 'retry-after'] }));
  }

  const router = new Router();
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

  // The integration is ESM-only and resolves its own copy of Apollo's type declarations.
  const graphqlMiddleware = koaMiddleware(apollo as any, {
    context: async ({ ctx }: { ctx: Koa.Context }) => ({ ...buildContext(deps, ctx.state.requestId, ctx.headers, ctx.state.logger), httpState: ctx.state, clientIp: ctx.ip }),
  });
  const jsonBody = bodyParser({ enableTypes: ['json'], jsonLimit: '1mb', encoding: 'utf-8' });
  // Multipart requests (GraphQL multipart request spec) stream their files to the resolvers;
  // 21 files is the most one operation takes (createSupportGroup). Unused files are drained.
  const uploads = graphqlUploadKoa({ maxFileSize: Math.max(config.uploadMaxBytes, config.tileMaxBytes) + 1, maxFiles: 21 });
  const drainUnusedUploads: Koa.Middleware = async (ctx, next) => {
    try {
      await next();
    } finally {
      drainUploads((ctx.request as any).body);
    }
  };
  router.all('/graphql', uploads, drainUnusedUploads, jsonBody, async (ctx, next) => {
    ctx.state.operation = 'graphql';
    // Renamed after the operation once Apollo has resolved it (plugin above); resolvers'
    // statements nest under it.
    await traceOperation('graphql', {}, () => graphqlMiddleware(ctx, next));
  });

  const rest = createRestRouter(deps, compiled, { onIgnoredProperty: (operation) => metrics.ignoredProperty(operation) });
  const purge = startUploadPurge(orm.em, logger);
  koa.use(router.routes());
  koa.use(auth.middleware);
  koa.use(jsonBody);
  koa.use(rest.routes());
  koa.use(
    rest.allowedMethods({
      throw: true,
      methodNotAllowed: () => new ServiceError('WSMethodNotAllowedException', undefined),
      notImplemented: () => new ServiceError('WSMethodNotAllowedException', undefined),
    }),
  );
  // Nothing matched: a JSON 404, never Koa's text page.
  koa.use(async (ctx) => {
    if (ctx.status === 404 && !ctx.body) sendError(ctx, new ServiceError('WSNotFoundException', `No route for ${ctx.method} ${ctx.path}.`));
  });

  return {
    koa,
    schema,
    openApi,
    apollo,
    metrics,
    stop: async () => {
      purge.stop();
      await apollo.stop();
      await auth.close();
    },
  };
}
