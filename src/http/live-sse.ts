// GraphQL subscriptions over Server-Sent Events (graphql-sse, distinct connections mode) at
// /graphql/stream: one HTTP request per subscription (GET with query parameters, or POST with a
// JSON body, Accept: text/event-stream), the token in the x-service-authtoken header. A missing
// or refused token answers 401 before the stream opens; a revocation (from any instance) or the
// token's expiry completes the stream. Only subscription operations are served here, and under
// GRAPHQL_TRUSTED_DOCUMENTS=enforce only the manifest's (or any, with an explore x-api-key): another
// is answered 403 WSInsufficientPrivilegesException before the stream opens.
//
// Bounds (config.live, docs/security.md "Live connections"): a stream takes one of the instance's
// live connections and one of its token's from its request until its response closes; past
// LIVE_MAX_CONNECTIONS it is answered 503, past LIVE_MAX_CONNECTIONS_PER_TOKEN 429, both with
// Retry-After and WSLimitExceededException. Events are written as they come, and a stream whose
// reader leaves more than LIVE_MAX_BUFFERED_BYTES unsent is cut (its response destroyed).
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { GraphQLSchema, GraphQLError } from 'graphql';
import { createHandler, type OperationArgs, type Response as SseResponse } from 'graphql-sse';
import type { LiveContext } from './live-context';
import { ServiceError } from '../core/errors';
import { jsonBody } from './json-body';
import { asAnswered, LiveSessions, subscriptionDocument, type LiveSession } from './live-sessions';

type StreamContext = LiveContext & Record<PropertyKey, unknown>;

/** A refusal before the stream opens: `{errors}` as /graphql answers them, with the status (and headers) of the first. */
function errorReply(errors: readonly unknown[]): SseResponse {
  const first = errors[0];
  const status = first instanceof ServiceError ? first.status : first instanceof Error && !(first as GraphQLError).extensions ? 500 : 400;
  const headers = { 'content-type': 'application/json; charset=utf-8', ...(first instanceof ServiceError ? first.headers : undefined) };
  const body = JSON.stringify({ errors: errors.map((err) => asAnswered(err).toJSON()) });
  return [body, { status, statusText: STATUS_CODES[status] ?? '', headers }];
}

/** Completes `source` when `ended` resolves (the token was revoked), and ends the session when the stream ends.
 * It has `throw` too: graphql-sse returns only what looks like a generator when its stream is disposed.
 * `ended` is waited on once, not raced against each next(): a Promise.race with a promise that
 * stays pending for hours leaves it one reaction a call, holding that call's result (the event,
 * some 450 bytes) until the stream ends. */
function untilEnded<T>(source: AsyncIterable<T>, ended: Promise<void>, session: LiveSession): AsyncIterableIterator<T> {
  const it = source[Symbol.asyncIterator]();
  const done: IteratorResult<T> = { value: undefined, done: true };
  let stopped = false;
  // The pending next()'s settling, answered done when the token is revoked meanwhile.
  let stopWaiting: ((result: IteratorResult<T>) => void) | null = null;
  void ended.then(() => {
    stopped = true;
    stopWaiting?.(done);
  });
  const finish = async (): Promise<IteratorResult<T>> => {
    session.close();
    await it.return?.();
    return done;
  };
  return {
    async next() {
      if (stopped) return finish();
      const result = await new Promise<IteratorResult<T>>((resolve, reject) => {
        stopWaiting = resolve;
        it.next().then(resolve, reject);
      });
      stopWaiting = null;
      return result.done ? finish() : result;
    },
    return: finish,
    async throw(err: unknown) {
      await finish();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

/**
 * graphql-sse's answer written to Koa's response. Its own adapters write one event at a time and
 * wait until each is flushed, holding the rest in an unbounded queue; here each event is written
 * as it comes, so what the reader has not taken is the response's writableLength, and an event
 * that finds more than `maxBuffered` there destroys the response instead (which returns the
 * stream: the subscription and its session end).
 */
async function respond(ctx: Koa.Context, [body, init]: SseResponse, maxBuffered: number, session?: LiveSession): Promise<void> {
  ctx.status = init.status;
  ctx.message = init.statusText;
  for (const [name, value] of Object.entries(init.headers ?? {})) ctx.set(name, value);
  if (!body || typeof body === 'string') {
    ctx.body = body;
    return;
  }
  ctx.respond = false;
  const res = ctx.res;
  // (res.writable stays true after destroy.)
  const open = () => !res.destroyed && !res.writableEnded;
  const stop = () => void body.return();
  res.once('close', stop);
  try {
    for await (const event of body) {
      if (!open()) break;
      // Measured before writing: Node holds a write until the next tick (corked) even for a fast reader.
      const buffered = res.writableLength;
      if (buffered > maxBuffered) {
        session?.ctx.logger.warn(
          { event: 'live.slow_reader', transport: 'sse', userId: session.userId, buffered },
          'live stream cut: slow reader',
        );
        res.destroy();
        break;
      }
      res.write(event);
    }
  } finally {
    res.off('close', stop);
    if (open()) res.end();
  }
}

export function mountEventStream(router: Router, schema: GraphQLSchema, sessions: LiveSessions, path = '/graphql/stream'): void {
  // The session (and the promise of its end) of each request, between onSubscribe and onOperation.
  const opened = new WeakMap<IncomingMessage, { session: LiveSession; ended: Promise<void> }>();
  const handler = createHandler<IncomingMessage, Koa.Context, StreamContext>({
    schema,
    // Distinct connections only: every subscription is its own request, authenticated by its header.
    authenticate: () => null,
    onSubscribe: async (req, params): Promise<SseResponse | OperationArgs<StreamContext>> => {
      const raw = req.raw;
      const res = req.context.res;
      const checked = subscriptionDocument(schema, params.query, params.operationName);
      if ('errors' in checked) return errorReply(checked.errors);
      // The instance's connection, then the token's (the session): both held until the response closes.
      try {
        res.once('close', sessions.admit());
      } catch (err) {
        return errorReply([err]);
      }
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      let session: LiveSession;
      try {
        session = await sessions.open(
          req.headers.get('x-service-authtoken') ?? undefined,
          () => end(),
          req.headers.get('x-api-key') ?? undefined,
        );
      } catch (err) {
        return errorReply([err]);
      }
      const refused = await sessions.untrusted(session, params.query, params.operationName);
      if (refused) {
        session.close();
        return errorReply([refused]);
      }
      // The client left while the token was checked: the answer goes nowhere.
      if (res.destroyed) {
        session.close();
        return [null, { status: 204, statusText: 'No Content' }];
      }
      res.once('close', () => session.close());
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
      // Started: what the operation made of the context is dropped (src/http/live-context.ts), and so after each event.
      live?.session.ctx.release();
      if (!live || !(Symbol.asyncIterator in Object(result))) return result;
      return untilEnded(result as AsyncIterable<never>, live.ended, live.session);
    },
    onNext: (ctx, _req, result) => {
      ctx.release();
      return result.errors ? { ...result, errors: result.errors.map(asAnswered) } : undefined;
    },
  });
  const stream: Koa.Middleware = async (ctx) => {
    ctx.state.operation = 'graphql-stream';
    // The stream stays open: no socket timeout for it.
    ctx.req.socket.setTimeout(0);
    const answer = await handler({
      url: ctx.url,
      method: ctx.method,
      headers: {
        get: (key) => {
          const value = ctx.headers[key];
          return Array.isArray(value) ? value.join('\n') : value;
        },
      },
      // jsonBody has read a POST's; a GET's parameters are in the URL.
      body: (ctx.request as { body?: Record<string, unknown> }).body ?? null,
      raw: ctx.req,
      context: ctx,
    });
    await respond(ctx, answer, sessions.limits.maxBufferedBytes, opened.get(ctx.req)?.session);
  };
  router.all(path, jsonBody, stream);
}
