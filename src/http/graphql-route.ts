// POST/GET /graphql: multipart uploads (the GraphQL multipart request spec) or a JSON body, then
// Apollo's Koa integration inside the operation's span. The GraphQL context is the one REST
// builds too, plus the request's state (for the access log) and the client's address.
import type Koa from 'koa';
import type Router from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import { graphqlUploadKoa } from 'graphql-upload-minimal';
import { buildContext, type AppDeps, type Context } from '../context';
import { drainUploads } from '../rest/multipart';
import { traceOperation } from '../observability/tracing';
import { jsonBody } from './json-body';
import type { RequestMiddleware, RequestState } from './request-state';

/** The most files one operation takes (createSupportGroup). */
const MAX_FILES = 21;

// Files an operation did not read are drained, so their streams do not hold the request open.
const drainUnusedUploads: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } finally {
    drainUploads((ctx.request as { body?: unknown }).body);
  }
};

export async function mountGraphql(router: Router, apollo: ApolloServer<Context>, deps: AppDeps): Promise<void> {
  // The integration is ESM-only and resolves its own copy of Apollo's type declarations.
  const { koaMiddleware } = await import('@as-integrations/koa');
  const graphqlMiddleware = koaMiddleware(apollo as unknown as Parameters<typeof koaMiddleware>[0], {
    context: async ({ ctx }: { ctx: Koa.ParameterizedContext<RequestState> }) => {
      const context = buildContext(deps, ctx.state.requestId, ctx.headers, ctx.state.logger);
      context.request = ctx.state;
      context.clientIp = ctx.ip;
      return context;
    },
  });
  const uploads = graphqlUploadKoa({
    maxFileSize: Math.max(deps.config.uploadMaxBytes, deps.config.tileMaxBytes) + 1,
    maxFiles: MAX_FILES,
  });
  const operation: RequestMiddleware = async (ctx, next) => {
    ctx.state.operation = 'graphql';
    // Renamed after the operation once Apollo has resolved it (the operation-span plugin);
    // resolvers' statements nest under it.
    await traceOperation('graphql', {}, () => graphqlMiddleware(ctx as Koa.Context, next));
  };
  router.all('/graphql', uploads, drainUnusedUploads, jsonBody, operation);
}
