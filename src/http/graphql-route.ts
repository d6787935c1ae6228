// POST/GET /graphql: multipart uploads (the GraphQL multipart request spec) or a JSON body, then
// Apollo's Koa integration inside the operation's span. The GraphQL context is the one REST
// builds too, plus the request's state (for the access log, and the media type the client's
// Accept chose, which the request-outcome plugin answers with) and the client's address; building
// it checks the document against the trusted documents (GRAPHQL_TRUSTED_DOCUMENTS) first.
import type Koa from 'koa';
import { closeAfterAnswer } from './linger';
import type Router from '@koa/router';
import type { ApolloServer } from '@apollo/server';
import { processRequest } from 'graphql-upload-minimal';
import { buildContext, type AppDeps, type Context } from '../context';
import { drainUploads } from '../rest/multipart';
import type { RouteDef } from '../rest/route';
import { ServiceError } from '../core/errors';
import { traceOperation } from '../observability/tracing';
import { getParameters, trustedDocumentGuard } from '../graphql/plugins/trusted-documents';
import { jitOf } from '../graphql/apollo';
import { jsonBodyParser } from './json-body';
import { graphqlLane } from './graphql-lane';
import type { GraphqlMediaType, RequestMiddleware, RequestState } from './request-state';

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

/** Resolves when the request has been read to its end or its connection is gone, whichever comes first. */
function requestDone(req: Koa.Context['req']): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
  });
}

/**
 * A GraphQL multipart request (the GraphQL multipart request spec): its operations with an Upload
 * for each file. graphql-upload-minimal's own Koa middleware waits for the request's end even when
 * it refused the request before reading it (no boundary), which never comes: here a refusal
 * drains the body and answers at once, and a client that goes away ends the wait (the operations'
 * strings are checked by the text-input plugin, as for a JSON body).
 */
function multipartOperations(options: Parameters<typeof processRequest>[2]): Koa.Middleware {
  return async (ctx, next) => {
    if (!ctx.request.is('multipart/form-data')) return next();
    const done = requestDone(ctx.req);
    // processRequest listens for its parser's first 'error' only: busboy emits a second one
    // ("Unexpected end of form") when destroyed after a malformed part, which would be unhandled
    // and end the process. The parser piped from this request keeps a listener of its own.
    const pipe = ctx.req.pipe.bind(ctx.req);
    ctx.req.pipe = <T extends NodeJS.WritableStream>(dest: T, opts?: { end?: boolean }): T => {
      dest.on('error', () => undefined);
      return pipe(dest, opts);
    };
    try {
      (ctx.request as { body?: unknown }).body = await processRequest(ctx.req, ctx.res, options);
    } catch (err) {
      // Unread data is discarded; the answer closes the connection (lingering).
      closeAfterAnswer(ctx);
      const { status, message } = (err ?? {}) as { status?: number; message?: string };
      if (status === 413) throw new ServiceError('WSLimitExceededException', message ?? 'The request body is too large.', { status: 413 });
      // Its other refusals (400, 499, and 500 for a form with neither operations nor map) and
      // busboy's parse errors are all the body's fault.
      throw new ServiceError('WSInvalidParameterException', 'The multipart body is malformed or incomplete.', { field: 'body' });
    }
    try {
      await next();
    } finally {
      await done;
    }
  };
}

/**
 * `bodyLimit`: bytes of JSON body admitted, the largest a REST route admits (so a REST route's
 * GraphQL twin takes what the route takes). Strings are checked once the operation is known (the
 * text-input plugin), answered as GraphQL errors.
 */
export async function mountGraphql(
  router: Router,
  apollo: ApolloServer<Context>,
  deps: AppDeps,
  routes: readonly RouteDef[],
  bodyLimit?: number,
): Promise<void> {
  // The integration is ESM-only and resolves its own copy of Apollo's type declarations.
  const { koaMiddleware } = await import('@as-integrations/koa');
  const trusted = trustedDocumentGuard(deps.config, routes);
  const contextOf = (ctx: Koa.ParameterizedContext<RequestState>, mediaType: GraphqlMediaType | false) => {
    const context = buildContext(deps, ctx.state.requestId, ctx.headers, () => ctx.state.logger);
    context.request = ctx.state;
    context.clientIp = ctx.ip;
    if (mediaType) ctx.state.graphqlMediaType = mediaType;
    return context;
  };
  // The context the lane made for a request it handed to Apollo (graphql-lane.ts).
  const handedOver = new WeakMap<Koa.Context, Context>();
  const graphqlMiddleware = koaMiddleware(apollo as unknown as Parameters<typeof koaMiddleware>[0], {
    context: async ({ ctx }: { ctx: Koa.ParameterizedContext<RequestState> }) => {
      const made = handedOver.get(ctx);
      if (made) return made;
      // Plain JSON first: what a client that sends no Accept, or */*, is answered (graphql-http's
      // audit); false (neither accepted) is left to Apollo, which answers 406.
      const context = contextOf(ctx, ctx.accepts('application/json', 'application/graphql-response+json') as GraphqlMediaType | false);
      // Before Apollo reads its persisted queries or parses: a refusal is answered with its status.
      if (trusted) await trusted(context, ctx.method === 'GET' ? getParameters(ctx.querystring) : (ctx.request as { body?: unknown }).body);
      return context;
    },
  });
  const uploads = multipartOperations({
    maxFileSize: Math.max(deps.config.uploadMaxBytes, deps.config.tileMaxBytes) + 1,
    maxFiles: MAX_FILES,
  });
  const jit = jitOf(apollo);
  const lane =
    jit &&
    graphqlLane({
      jit,
      context: contextOf,
      trusted: trusted && ((context, id, operationName) => trusted(context, { operationName }, id)),
    });
  const operation: RequestMiddleware = async (ctx, next) => {
    ctx.state.operation = 'graphql';
    // Renamed after the operation once Apollo has resolved it (the operation-span plugin), or by
    // the lane; resolvers' statements nest under it.
    await traceOperation('graphql', {}, async () => {
      if (lane && (await lane(ctx, (context) => handedOver.set(ctx, context)))) return;
      await graphqlMiddleware(ctx, next);
    });
  };
  router.all('/graphql', uploads, drainUnusedUploads, jsonBodyParser(false, bodyLimit), operation);
}
