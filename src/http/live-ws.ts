// GraphQL subscriptions over WebSocket (the graphql-transport-ws protocol of graphql-ws) on
// /graphql. The client sends its service auth token in connectionParams as
// x-service-authtoken; it is checked at connect (refused: close 4403 with the error identifier as
// the reason) and the socket is closed (4403 WSInvalidAuthTokenException) as soon as any instance
// revokes the token, or when it expires. Only subscription operations are served here.
import type http from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { GraphQLSchema } from 'graphql';
import { ServiceError } from '../graphql/errors';
import { asAnswered, LiveSessions, subscriptionDocument, type LiveSession } from './live-sessions';

/** The largest message a client may send (a subscription document and its variables). */
const MAX_PAYLOAD_BYTES = 64 * 1024;
/** Close codes: the token was refused; the service is going away. */
export const CLOSE_TOKEN_REFUSED = 4403;
const CLOSE_GOING_AWAY = 1001;
const CLOSE_TRY_AGAIN = 1013;
/** How long shutdown waits for clients to answer the closing handshake. */
const CLOSE_GRACE_MS = 1000;

export interface WebSocketEndpoint {
  close(): Promise<void>;
}

type Extra = { session?: LiveSession };

export function attachWebSocket(server: http.Server, schema: GraphQLSchema, sessions: LiveSessions, path = '/graphql'): WebSocketEndpoint {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES });
  const onUpgrade = (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);

  const refuse = (socket: WebSocket, err: unknown) => {
    if (err instanceof ServiceError && err.code === 'WSInvalidAuthTokenException') socket.close(CLOSE_TOKEN_REFUSED, err.code);
    else socket.close(CLOSE_TRY_AGAIN, err instanceof ServiceError ? err.code : 'WSInternalException');
  };

  useServer<Record<string, unknown> | undefined, Extra>(
    {
      schema,
      onConnect: async (ctx) => {
        const raw = ctx.connectionParams?.['x-service-authtoken'];
        const socket = ctx.extra.socket;
        try {
          ctx.extra.session = await sessions.open(typeof raw === 'string' ? raw : undefined, (reason) =>
            reason === 'revoked'
              ? socket.close(CLOSE_TOKEN_REFUSED, 'WSInvalidAuthTokenException')
              : socket.close(CLOSE_GOING_AWAY, 'Server shutting down'),
          );
          return true;
        } catch (err) {
          refuse(socket, err);
          return false;
        }
      },
      onSubscribe: (ctx, _id, payload) => {
        const checked = subscriptionDocument(schema, payload.query, payload.operationName);
        if ('errors' in checked) return checked.errors;
        return {
          schema,
          document: checked.document,
          variableValues: payload.variables ?? undefined,
          operationName: payload.operationName ?? undefined,
          contextValue: ctx.extra.session!.ctx,
        };
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((err) => asAnswered(err).toJSON()),
      onNext: (_ctx, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((err) => asAnswered(err).toJSON()) } : undefined,
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
