// GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol of graphql-ws) on
// /graphql. The client sends its service auth token in connectionParams as
// x-service-authtoken; it is checked at connect (refused: close 4403 with the error identifier as
// the reason) and the socket is closed (4403 WSInvalidAuthTokenException) as soon as any instance
// revokes the token, or when it expires. Only subscription operations are served here, and under
// GRAPHQL_TRUSTED_DOCUMENTS=enforce only the manifest's (or any, with an explore x-api-key in
// connectionParams): another is answered with an error message (WSInsufficientPrivilegesException).
//
// Bounds (config.live, docs/security.md "Live connections"): a socket takes one of the instance's
// live connections from its upgrade (past LIVE_MAX_CONNECTIONS it is closed at once, 1013); the
// token's sessions are counted at connection_init (past LIVE_MAX_CONNECTIONS_PER_TOKEN: 4429); a
// subscribe past LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION subscriptions in progress closes the socket
// (4429); and a socket with more than LIVE_MAX_BUFFERED_BYTES unsent when a message is due is
// closed as too slow a reader (1008). The reason of each is WSLimitExceededException. A socket we
// close that does not answer the closing handshake within CLOSE_GRACE_MS is cut.
import type http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { GraphQLSchema } from 'graphql';
import { ServiceError } from '../core/errors';
import { answeredResult, asAnswered, LiveSessions, liveSubscribe, subscriptionDocument, type LiveSession } from './live-sessions';

/** The largest message a client may send (a subscription document and its variables). */
const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Close codes: the token was refused; a limit of the token or the connection was exceeded (as
 * HTTP 429); the service is going away; a policy (the buffered bytes) was violated; try again later. */
export const CLOSE_TOKEN_REFUSED = 4403;
const CLOSE_LIMIT_EXCEEDED = 4429;
const CLOSE_GOING_AWAY = 1001;
const CLOSE_POLICY = 1008;
const CLOSE_TRY_AGAIN = 1013;
/** How long a socket we close (or shutdown) waits for the client to answer the closing handshake. */
const CLOSE_GRACE_MS = 1000;
const LIMIT = 'WSLimitExceededException';

export interface WebSocketEndpoint {
  close(): Promise<void>;
}

type Extra = { session?: LiveSession };

/** Closes with the code and reason; a client that does not answer within CLOSE_GRACE_MS is cut
 * (one that stopped reading never sees the close frame queued behind what it left unread). */
function closeWithin(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === socket.CLOSED) return;
  socket.close(code, reason);
  const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
}

export function attachWebSocket(server: http.Server, schema: GraphQLSchema, sessions: LiveSessions, path = '/graphql'): WebSocketEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  const onUpgrade = (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    // Held from here until the TCP connection closes, whatever becomes of the handshake.
    let full: unknown = null;
    try {
      socket.once('close', sessions.admit());
    } catch (err) {
      full = err;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      // Upgraded, then closed: the client sees the code and reason a refused handshake cannot carry.
      if (full) closeWithin(ws, CLOSE_TRY_AGAIN, LIMIT);
      else wss.emit('connection', ws, req);
    });
  };
  server.on('upgrade', onUpgrade);

  const refuse = (socket: WebSocket, err: unknown) => {
    if (err instanceof ServiceError && err.code === 'WSInvalidAuthTokenException') closeWithin(socket, CLOSE_TOKEN_REFUSED, err.code);
    else if (err instanceof ServiceError && err.status === 429) closeWithin(socket, CLOSE_LIMIT_EXCEEDED, err.code);
    else closeWithin(socket, CLOSE_TRY_AGAIN, err instanceof ServiceError ? err.code : 'WSInternalException');
  };
  /** Before a message is sent: a client that left more than the bound unread is closed instead. */
  const tooSlow = (socket: WebSocket, session: LiveSession | undefined): void => {
    const buffered = socket.bufferedAmount;
    if (buffered <= sessions.limits.maxBufferedBytes || socket.readyState !== socket.OPEN) return;
    session?.ctx.logger.warn(
      { event: 'live.slow_reader', transport: 'ws', userId: session.userId, buffered },
      'live socket closed: slow reader',
    );
    closeWithin(socket, CLOSE_POLICY, LIMIT);
  };

  useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      subscribe: liveSubscribe,
      onConnect: async (ctx) => {
        // graphql-ws keeps the upgrade request (its headers and state, some 1.2 KB) in extra for
        // the socket's life, for hooks that read it; none here does.
        Reflect.deleteProperty(ctx.extra, 'request');
        const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
        const socket = ctx.extra.socket;
        try {
          const session = await sessions.open(
            text(ctx.connectionParams?.['x-service-authtoken']),
            (reason) =>
              reason === 'revoked'
                ? closeWithin(socket, CLOSE_TOKEN_REFUSED, 'WSInvalidAuthTokenException')
                : closeWithin(socket, CLOSE_GOING_AWAY, 'Server shutting down'),
            text(ctx.connectionParams?.['x-api-key']),
          );
          // The socket closed while the token was checked (onClose found no session): end it here.
          if (socket.readyState !== socket.OPEN) {
            session.close();
            return false;
          }
          ctx.extra.session = session;
          return true;
        } catch (err) {
          refuse(socket, err);
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        const { socket, session } = ctx.extra;
        // graphql-ws lists every operation in progress, this one included, until it has finished
        // (completed by either side, failed, or its socket closed).
        const held = Object.keys(ctx.subscriptions).length;
        if (held > sessions.limits.maxSubscriptionsPerConnection && socket.readyState === socket.OPEN) {
          session?.ctx.logger.info(
            { event: 'live.refused', limit: 'subscriptions', userId: session.userId, held },
            'live socket closed: too many subscriptions',
          );
          closeWithin(socket, CLOSE_LIMIT_EXCEEDED, LIMIT);
        }
        // A closing socket starts nothing more (and is sent nothing: this answer is dropped).
        if (socket.readyState !== socket.OPEN) return [new ServiceError(LIMIT, 'The connection is closing.')];
        const checked = subscriptionDocument(schema, payload.query, payload.operationName);
        if ('errors' in checked) return checked.errors;
        const refused = await sessions.untrusted(session!, payload.query, payload.operationName);
        if (refused) return [refused];
        return {
          schema,
          document: checked.document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue: session!.ctx,
        };
      },
      // Started (or answered at once): what the operation made of the context is dropped, and so
      // after each message (an idle session holds no EntityManager, src/http/live-context.ts).
      onOperation: (ctx) => ctx.extra.session?.ctx.release(),
      // A message that finds its socket closing is not sent (graphql-ws sends only to an open socket).
      onError: (ctx, _id, _payload, errors) => {
        ctx.extra.session?.ctx.release();
        tooSlow(ctx.extra.socket, ctx.extra.session);
        return errors.map((err) => asAnswered(err).toJSON());
      },
      onNext: (ctx, _id, _payload, _args, result) => {
        ctx.extra.session?.ctx.release();
        tooSlow(ctx.extra.socket, ctx.extra.session);
        return result.errors ? answeredResult(result) : undefined;
      },
      onClose: (ctx) => ctx.extra.session?.close(),
    },
    wss,
  );

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      const clients = [...wss.clients];
      const gone = Promise.all(
        clients.map((c) => new Promise<void>((resolve) => (c.readyState === c.CLOSED ? resolve() : c.once('close', () => resolve())))),
      );
      for (const client of clients) client.close(CLOSE_GOING_AWAY, 'Server shutting down');
      // A client that does not answer the closing handshake is cut.
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS).unref())]);
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

/**
 * Subscriptions over WebSockets: attach() serves graphql-ws on a server's /graphql upgrades; close()
 * ends every live connection (the event streams' too).
 */
export function liveConnections(
  schema: GraphQLSchema,
  sessions: LiveSessions,
): { attach(server: http.Server): void; close(): Promise<void> } {
  const sockets: WebSocketEndpoint[] = [];
  return {
    attach: (server) => void sockets.push(attachWebSocket(server, schema, sessions)),
    async close() {
      sessions.closeAll();
      await Promise.all(sockets.splice(0).map((s) => s.close()));
    },
  };
}
