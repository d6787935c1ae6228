// GraphQL subscriptions over Server-Sent Events (graphql-sse, distinct connections mode) at
// /graphql/stream: one HTTP request per subscription (GET with query parameters, or POST with a
// JSON body, Accept: text/event-stream), the token in the x-service-authtoken header. A missing
// or refused token answers 401 before the stream opens; a revocation (from any instance) or the
// token's expiry completes the stream. Only subscription operations are served here.
import type { IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { GraphQLSchema, GraphQLError } from 'graphql';
import type { OperationArgs, Response as SseResponse } from 'graphql-sse';
import { createHandler } from 'graphql-sse/lib/use/koa';
import type { Context } from '../context';
import { ServiceError } from '../graphql/errors';
import { jsonBody } from './json-body';
import { asAnswered, LiveSessions, subscriptionDocument, type LiveSession } from './live-sessions';

type StreamContext = Context & Record<PropertyKey, unknown>;

/** A refusal before the stream opens: `{errors}` as /graphql answers them, with the status of the first. */
function errorReply(errors: readonly unknown[]): SseResponse {
  const first = errors[0];
  const status = first instanceof ServiceError ? first.status : first instanceof Error && !(first as GraphQLError).extensions ? 500 : 400;
  const statusText =
    status === 401 ? 'Unauthorized' : status === 503 ? 'Service Unavailable' : status === 500 ? 'Internal Server Error' : 'Bad Request';
  const body = JSON.stringify({ errors: errors.map((err) => asAnswered(err).toJSON()) });
  return [body, { status, statusText, headers: { 'content-type': 'application/json; charset=utf-8' } }];
}

/** Completes `source` when `ended` resolves (the token was revoked), and ends the session when the stream ends. */
function untilEnded<T>(source: AsyncIterable<T>, ended: Promise<void>, session: LiveSession): AsyncIterableIterator<T> {
  const it = source[Symbol.asyncIterator]();
  const stop = ended.then((): IteratorResult<T> => ({ value: undefined, done: true }));
  const finish = async (): Promise<IteratorResult<T>> => {
    session.close();
    await it.return?.();
    return { value: undefined, done: true };
  };
  return {
    async next() {
      const result = await Promise.race([it.next(), stop]);
      return result.done ? finish() : result;
    },
    return: finish,
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

export function mountEventStream(router: Router, schema: GraphQLSchema, sessions: LiveSessions, path = '/graphql/stream'): void {
  // The session (and the promise of its end) of each request, between onSubscribe and onOperation.
  const opened = new WeakMap<IncomingMessage, { session: LiveSession; ended: Promise<void> }>();
  const handler = createHandler<StreamContext>({
    schema,
    // Distinct connections only: every subscription is its own request, authenticated by its header.
    authenticate: () => null,
    onSubscribe: async (req, params): Promise<SseResponse | OperationArgs<StreamContext>> => {
      const raw = req.raw;
      const checked = subscriptionDocument(schema, params.query, params.operationName);
      if ('errors' in checked) return errorReply(checked.errors);
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      let session: LiveSession;
      try {
        session = await sessions.open(req.headers.get('x-service-authtoken') ?? undefined, () => end());
      } catch (err) {
        return errorReply([err]);
      }
      raw.once('close', () => session.close());
      opened.set(raw, { session, ended });
      return {
        schema,
        document: checked.document,
        variableValues: params.variables ?? undefined,
        operationName: params.operationName ?? undefined,
        contextValue: session.ctx as StreamContext,
      };
    },
    onOperation: (_ctx, req, _args, result) => {
      const live = opened.get(req.raw);
      if (!live || !(Symbol.asyncIterator in Object(result))) return result;
      return untilEnded(result as AsyncIterable<never>, live.ended, live.session);
    },
    onNext: (_ctx, _req, result) => (result.errors ? { ...result, errors: result.errors.map(asAnswered) } : undefined),
  });
  const stream: Koa.Middleware = async (ctx) => {
    ctx.state.operation = 'graphql-stream';
    // The stream stays open: no socket timeout for it.
    ctx.req.socket.setTimeout(0);
    await handler(ctx, async () => undefined);
  };
  router.all(path, jsonBody, stream);
}
