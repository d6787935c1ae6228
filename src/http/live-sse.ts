// GraphQL subscriptions over Server-Sent Events at /graphql/stream: the distinct connections mode of
// the GraphQL over SSE protocol (graphql-sse's PROTOCOL.md; its client and the explorer's fetcher
// speak it). One HTTP request per subscription (GET with query parameters, or POST with a JSON
// body, Accept: text/event-stream), the token in the x-service-authtoken header. A missing or
// refused token answers 401 before the stream opens; a revocation (from any instance) or the
// token's expiry completes the stream. Only subscription operations are served here, and under
// GRAPHQL_TRUSTED_DOCUMENTS=enforce only the manifest's (or any, with an explore x-api-key): another
// is answered 403 WSInsufficientPrivilegesException before the stream opens.
//
// The stream: 200 text/event-stream, a `:` comment at once and every 12 s (one timer for all the
// streams), `event: next` with each result, `event: complete` when the subscription ends. The
// request's middleware chain returns once the stream is open (its report waits for the close:
// src/observability/answered.ts), and the events are written from the subscription's iterator
// here: an open stream holds its socket, its request (its headers and Koa's context among it), its
// session and that iterator, 11.7 KB of heap a stream (bench --live --transport sse, the second
// half of 3,000; Node's own, 5.1; Koa's on-finished listeners 2.8 of it), where graphql-sse's
// handler (a queue, a generator and a timer of each stream besides the waiting chain) held 27.6 KB
// at 2,000 (docs/performance.md, the live target).
//
// Bounds (config.live, docs/security.md "Live connections"): a stream takes one of the instance's
// live connections and one of its token's from its request until its response closes; past
// LIVE_MAX_CONNECTIONS it is answered 503, past LIVE_MAX_CONNECTIONS_PER_TOKEN 429, both with
// Retry-After and WSLimitExceededException. Events are written as they come, and a stream whose
// reader leaves more than LIVE_MAX_BUFFERED_BYTES unsent is cut (its response destroyed).
import { OutgoingMessage, type ServerResponse } from 'node:http';
import type Router from '@koa/router';
import type Koa from 'koa';
import type { ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import { ServiceError } from '../core/errors';
import { jsonBody } from './json-body';
import type { RequestState } from './request-state';
import { LiveSessions, subscriptionDocument, type LiveSession } from './live-sessions';
import { answeredJson, asAnswered, liveSubscribe, type LiveResults } from './live-execution';

/** How often every open stream is sent a comment, so that proxies and clients see it alive. */
export const STREAM_PING_MS = 12_000;
const PING = ':\n\n';
const COMPLETE = 'event: complete\ndata:\n\n';
/**
 * A stream's head. A user's own items: kept by no cache (no-store, as /graphql's answers), and
 * changed by no intermediary (no-transform: a compressing proxy holds the events back to fill its
 * blocks; HAProxy's and Node's `compression` leave such an answer alone). nginx is told not to
 * buffer it (X-Accel-Buffering), whatever its proxy_buffering. (graphql-sse's own handler sends
 * `Content-Encoding: none` for the compression; that is no registered coding, RFC 9110 8.4.1.)
 */
const STREAM_HEADERS = {
  connection: 'keep-alive',
  'cache-control': 'no-store, no-transform',
  'content-type': 'text/event-stream; charset=utf-8',
  'x-accel-buffering': 'no',
};

/**
 * Node's private key of a response's header list (null on a response with none set), found on a
 * response of its own: undefined should a Node version name it otherwise (the list is then kept).
 */
const HEADER_LIST = Object.getOwnPropertySymbols(new OutgoingMessage()).find((key) => key.description === 'kOutHeaders');

/**
 * Drops a sent response's header list. Node keeps it (for getHeader()) as long as the response
 * lives, beside the head it wrote: 1.9 KB of each open stream's heap (18 headers, in a dictionary
 * of [name, value] pairs). Nothing reads a stream's headers once they are written.
 */
function dropHeaderList(res: ServerResponse): void {
  if (HEADER_LIST && res.headersSent) (res as unknown as Record<symbol, unknown>)[HEADER_LIST] = null;
}

/** What a stream's request asks: the protocol's parameters, the query not yet checked. */
interface Params {
  query: unknown;
  operationName?: string;
  variables?: Record<string, unknown>;
}

const invalid = (field: string, message: string, status?: number) =>
  new ServiceError('WSInvalidParameterException', message, { field, status });

/** A JSON object (or nothing) from a query parameter's text. */
function jsonParameter(search: URLSearchParams, name: string): unknown {
  const text = search.get(name);
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(name, `${name} is not JSON.`);
  }
}

/** The protocol's parameters of a GET (the URL) or a POST (the JSON body jsonBody read); throws the refusal. */
function paramsOf(ctx: Koa.Context): Params {
  let raw: Record<string, unknown>;
  if (ctx.method === 'GET') {
    const search = new URLSearchParams(ctx.querystring);
    raw = {
      query: search.get('query') ?? undefined,
      operationName: search.get('operationName') ?? undefined,
      variables: jsonParameter(search, 'variables'),
      extensions: jsonParameter(search, 'extensions'),
    };
  } else if (ctx.method !== 'POST') {
    throw new ServiceError('WSMethodNotAllowedException', undefined, { headers: { Allow: 'GET, POST' } });
  } else if (!ctx.is('application/json')) {
    throw invalid('body', 'Unsupported content type: send the subscription as application/json.', 415);
  } else {
    const body = (ctx.request as { body?: unknown }).body ?? {};
    if (typeof body !== 'object' || Array.isArray(body)) throw invalid('body', 'The body must be a JSON object.');
    raw = body as Record<string, unknown>;
  }
  const { query, operationName, variables, extensions } = raw;
  for (const [name, value] of Object.entries({ variables, extensions }))
    if (value != null && (typeof value !== 'object' || Array.isArray(value))) throw invalid(name, `${name} must be a JSON object.`);
  return {
    query,
    // As sent: a name that is not a string names no operation (subscriptionDocument refuses it).
    operationName: (operationName ?? undefined) as string | undefined,
    variables: (variables ?? undefined) as Params['variables'],
  };
}

/** A refusal before the stream opens: the status, the body (JSON) and headers. */
type Refusal = { status: number; body: unknown; headers?: Record<string, string> };

/** A refusal as /graphql answers errors: `{errors}`, with the status (and headers) of the first. */
function errorRefusal(errors: readonly unknown[]): Refusal {
  const first = errors[0];
  const status = first instanceof ServiceError ? first.status : first instanceof Error && !(first as GraphQLError).extensions ? 500 : 400;
  return {
    status,
    headers: first instanceof ServiceError ? first.headers : undefined,
    body: { errors: errors.map((err) => asAnswered(err).toJSON()) },
  };
}

function refuse(ctx: Koa.Context, { status, body, headers }: Refusal): void {
  ctx.status = status;
  for (const [name, value] of Object.entries(headers ?? {})) ctx.set(name, value);
  ctx.set('content-type', 'application/json; charset=utf-8');
  ctx.body = JSON.stringify(body);
}

const nextEvent = (result: ExecutionResult) => `event: next\ndata: ${answeredJson(result)}\n\n`;

/** What a stream is to the timer that pings it. */
type Stream = Pick<ServerResponse, 'write' | 'writableEnded' | 'destroyed'>;

/** The open streams of one app, and the one timer that sends each of them a comment every `everyMs`. */
export class OpenStreams {
  private readonly open = new Set<Stream>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly everyMs = STREAM_PING_MS) {}

  get size(): number {
    return this.open.size;
  }

  add(res: Stream): void {
    this.open.add(res);
    this.timer ??= setInterval(() => {
      for (const r of this.open) if (!r.writableEnded && !r.destroyed) r.write(PING);
    }, this.everyMs).unref();
  }

  delete(res: Stream): void {
    this.open.delete(res);
    if (this.open.size || !this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
  }
}

/**
 * Writes the subscription's results to the open response until it completes (the subscription
 * ended, its token was revoked or the service stops: `event: complete`), the client leaves, or the
 * reader falls more than `maxBuffered` bytes behind (the response destroyed). Its session ends with it.
 */
async function pump(
  res: ServerResponse,
  results: LiveResults,
  session: LiveSession,
  maxBuffered: number,
  streams: OpenStreams,
): Promise<void> {
  // (res.writable stays true after destroy.)
  const open = () => !res.destroyed && !res.writableEnded;
  // The client left: the pending next() is answered done.
  const left = () => void results.return(undefined);
  // ('close' comes once: `on`, as below, holds no once-wrapper of each open stream.)
  res.on('close', left);
  streams.add(res);
  try {
    res.write(PING);
    for (;;) {
      const { value, done } = await results.next();
      // What the operation made of the context is dropped after each event (src/http/live-context.ts).
      session.ctx.release();
      if (done || !open()) break;
      // Measured before writing: Node holds a write until the next tick (corked) even for a fast reader.
      const buffered = res.writableLength;
      if (buffered > maxBuffered) {
        session.ctx.logger.warn(
          { event: 'live.slow_reader', transport: 'sse', userId: session.userId, buffered },
          'live stream cut: slow reader',
        );
        res.destroy();
        break;
      }
      res.write(nextEvent(value));
    }
    if (open()) res.write(COMPLETE);
  } finally {
    res.off('close', left);
    streams.delete(res);
    session.close();
    await results.return(undefined);
    if (open()) res.end();
  }
}

export function mountEventStream(router: Router, schema: GraphQLSchema, sessions: LiveSessions, path = '/graphql/stream'): void {
  const streams = new OpenStreams();
  const stream: Koa.Middleware = async (ctx) => {
    ctx.state.operation = 'graphql-stream';
    let params: Params;
    try {
      // Only event streams are served here (the protocol's single connection mode is not).
      if (!ctx.get('accept').includes('text/event-stream'))
        throw invalid('accept', 'Subscriptions here are answered as text/event-stream: send Accept: text/event-stream.', 406);
      params = paramsOf(ctx);
    } catch (err) {
      return refuse(ctx, errorRefusal([err]));
    }
    // Read: the request's body is not kept for the stream's life (Koa's context holds it).
    (ctx.request as { body?: unknown }).body = undefined;
    const checked = subscriptionDocument(schema, params.query, params.operationName);
    if ('errors' in checked) return refuse(ctx, errorRefusal(checked.errors));
    const res = ctx.res;
    // The instance's connection, then the token's (the session): both held until the response closes.
    try {
      res.on('close', sessions.admit());
    } catch (err) {
      return refuse(ctx, errorRefusal([err]));
    }
    // The session's end (revoked, expired, the service stopping) answers the pending next() done;
    // an end before the stream started ends it as it starts.
    const ending: { ended: boolean; results?: LiveResults } = { ended: false };
    let session: LiveSession;
    try {
      session = await sessions.open(
        ctx.get('x-service-authtoken') || undefined,
        () => {
          ending.ended = true;
          void ending.results?.return(undefined);
        },
        ctx.get('x-api-key') || undefined,
        (ctx.state as RequestState).requestId,
      );
    } catch (err) {
      return refuse(ctx, errorRefusal([err]));
    }
    // (subscriptionDocument took the query: a text.)
    const refused = await sessions.untrusted(session, params.query as string, params.operationName);
    if (refused) {
      session.close();
      return refuse(ctx, errorRefusal([refused]));
    }
    // The client left while the token was checked: the answer goes nowhere.
    if (res.destroyed) {
      session.close();
      return void (ctx.status = 204);
    }
    // The stream stays open: no socket timeout for it.
    ctx.req.socket.setTimeout(0);
    let result: Awaited<ReturnType<typeof liveSubscribe>>;
    try {
      result = await liveSubscribe({
        schema,
        document: checked.document,
        variableValues: params.variables,
        operationName: params.operationName,
        contextValue: session.ctx,
      });
    } catch (err) {
      session.close();
      throw err;
    } finally {
      // Started: what the operation made of the context is dropped (src/http/live-context.ts).
      session.ctx.release();
    }
    ctx.status = 200;
    ctx.set(STREAM_HEADERS);
    ctx.respond = false;
    // Sent now: what a middleware sets on its way out is not part of a stream's answer.
    res.flushHeaders();
    dropHeaderList(res);
    if (!(Symbol.asyncIterator in result)) {
      // Refused as it started (its variables, or its resolver threw): one result, then complete.
      session.close();
      return void res.end(PING + nextEvent(result) + COMPLETE);
    }
    ending.results = result;
    if (ending.ended || res.destroyed) void result.return(undefined);
    // (The request's logger is made only when a line is written: else a pino child for each stream.)
    const failed = (err: unknown) => (ctx.state as RequestState).logger.error({ err }, 'unhandled error');
    pump(res, result, session, sessions.limits.maxBufferedBytes, streams).catch(failed);
  };
  router.all(path, jsonBody, stream);
}
