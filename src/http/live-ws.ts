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
//
// graphql-ws's protocol server (makeServer) runs on sockets of the ws library through an adapter
// of our own rather than graphql-ws's useServer, which gives each socket a ping timer, a pong
// timer, the connection_init timer (kept after it fires) and eight closures: here each socket
// holds one SocketAdapter, the sockets share their listeners and one heartbeat, and the init timer
// is dropped once connection_init arrives (docs/performance.md, the live target). What a client
// sees is useServer's: a ping every SOCKET_PING_MS and the socket cut when the next finds the last
// unanswered, close 4408 without connection_init within CONNECTION_INIT_WAIT_MS, close 1011 when
// handling a message fails.
//
// A socket's messages are handled in order as far as subscriptions go: a message that comes while
// a subscribe is starting (its document, its x-api-key and its subscribe resolver checked) waits
// until that subscription has started or been answered with errors. So a ping sent after a
// subscribe is answered once the subscription hears its events (useServer answers it at once).
// More than MAX_WAITING messages waiting close the socket (1008, WSLimitExceededException).
import type http from 'node:http';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { GraphQLSchema } from 'graphql';
import type { Logger } from '../logger';
import { ServiceError } from '../core/errors';
import { LiveSessions, subscriptionDocument, type LiveSession } from './live-sessions';
import { answeredResult, asAnswered, liveSubscribe } from './live-execution';

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
/** How often every socket is pinged (graphql-ws's keepAlive). */
export const SOCKET_PING_MS = 12_000;
/** How long a socket may take to send connection_init (graphql-ws's connectionInitWaitTimeout). */
export const CONNECTION_INIT_WAIT_MS = 3_000;
/** The most messages a socket may send while one of its subscribes is starting (see the header). */
export const MAX_WAITING = 64;

export interface WebSocketEndpoint {
  close(): Promise<void>;
}

type Extra = { socket: WebSocket; session?: LiveSession };

/** What pings a socket and cuts it (a WebSocket of the ws library, or a test's). */
type Pinged = Pick<WebSocket, 'ping' | 'terminate' | 'readyState' | 'OPEN'>;

/**
 * The heartbeat of one server's sockets: one timer for all of them, which pings each open socket
 * every `everyMs` and cuts one that has not answered the previous ping (a pong) by then.
 */
export class SocketHeartbeat {
  /** Pinged, no pong yet. */
  private readonly awaiting = new Set<Pinged>();
  private readonly timer: NodeJS.Timeout;

  constructor(sockets: Iterable<Pinged>, everyMs = SOCKET_PING_MS) {
    this.timer = setInterval(() => {
      for (const socket of sockets) {
        if (this.awaiting.has(socket)) {
          this.awaiting.delete(socket);
          socket.terminate();
        } else if (socket.readyState === socket.OPEN) {
          this.awaiting.add(socket);
          socket.ping();
        }
      }
    }, everyMs).unref();
  }

  /** The socket answered (a pong), or has closed. */
  heard(socket: Pinged): void {
    this.awaiting.delete(socket);
  }

  stop(): void {
    clearInterval(this.timer);
    this.awaiting.clear();
  }
}

/** graphql-ws's protocol server, as makeServer makes it. */
type ProtocolServer = ReturnType<typeof makeServer<Record<string, unknown> | undefined, Extra>>;

/** One socket as graphql-ws's protocol server sees it (its WebSocket interface), and that server's handlers of it. */
class SocketAdapter {
  /** graphql-ws's handler of each message, and of the close. */
  private handle: ((data: string) => Promise<void>) | null = null;
  private readonly ended: (code?: number, reason?: string) => Promise<void>;
  /** Closes the socket if connection_init has not come within CONNECTION_INIT_WAIT_MS (null once it came). */
  private initWait: NodeJS.Timeout | null;
  /** The subscribe being started (its id) and the messages that came since; null: none is starting. */
  private start: { id: string; waiting: string[] } | null = null;
  /** graphql-ws's ctx.extra of the socket: its session once connection_init is accepted. */
  private readonly extra: Extra;

  constructor(
    private readonly socket: WebSocket,
    server: ProtocolServer,
    private readonly logger: Logger,
  ) {
    this.initWait = setTimeout(
      () => socket.close(CloseCode.ConnectionInitialisationTimeout, 'Connection initialisation timeout'),
      CONNECTION_INIT_WAIT_MS,
    );
    this.extra = { socket };
    this.ended = server.opened(this, this.extra);
  }

  get protocol(): string {
    return this.socket.protocol;
  }

  /** Resolves once written (graphql-ws sends a subscription's next result after the last was). */
  send(data: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.readyState !== this.socket.OPEN) return resolve();
      this.socket.send(data, (err) => (err ? reject(err) : resolve()));
    });
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  onMessage(handle: (data: string) => Promise<void>): void {
    this.handle = handle;
  }

  /** connection_init has come. */
  initialised(): void {
    if (this.initWait) clearTimeout(this.initWait);
    this.initWait = null;
  }

  /** A message from the client: handled now, or once the subscribe being started has started. */
  message(data: string): void {
    // Closing (we closed it, or the client did): graphql-ws would answer nothing more.
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (!this.start) return this.hand(data);
    if (this.start.waiting.push(data) <= MAX_WAITING) return;
    this.start = null;
    const { session } = this.extra;
    session?.ctx.logger.info(
      { event: 'live.refused', limit: 'waiting', userId: session.userId, held: MAX_WAITING + 1 },
      'live socket closed: too many messages while a subscribe started',
    );
    closeWithin(this.socket, CLOSE_POLICY, LIMIT);
  }

  private hand(data: string): void {
    const handled = this.handle?.(data).catch((err: unknown) => {
      this.logger.error({ err }, 'live socket: handling a message failed');
      this.socket.close(CloseCode.InternalServerError, 'Internal server error');
    });
    // A subscribe has called starting() by now (graphql-ws calls onSubscribe before it awaits).
    const start = this.start;
    // Refused, failed, or a query or mutation answered: its handling ends without onOperation.
    if (start) void handled?.then(() => this.start === start && this.started(start.id));
  }

  /** onSubscribe: the subscribe `id` is starting; the messages after it wait (message). */
  starting(id: string): void {
    this.start = { id, waiting: [] };
  }

  /** onOperation: the subscribe `id` has started; the messages that waited are handed over in order. */
  started(id: string): void {
    const start = this.start;
    if (start?.id !== id) return;
    this.start = null;
    for (const [i, data] of start.waiting.entries()) {
      if (this.socket.readyState !== this.socket.OPEN) return;
      this.hand(data);
      // Another subscribe is starting: the rest wait for it.
      const next = this.start as typeof start | null;
      if (next) return void next.waiting.unshift(...start.waiting.slice(i + 1));
    }
  }

  /** The socket has closed: its operations end (graphql-ws's onClose, then each one's return). */
  gone(code: number, reason: string): void {
    this.initialised();
    this.start = null;
    this.ended(code, reason).catch((err: unknown) => this.logger.error({ err }, 'live socket: ending its operations failed'));
  }
}

/**
 * Serves graphql-ws's protocol on the sockets `wss` accepts (its 'connection' events), as
 * graphql-ws's useServer does, each socket holding one SocketAdapter (see the header). Stop the
 * returned heartbeat when the server closes.
 */
function serveProtocol(
  wss: WebSocketServer,
  options: ServerOptions<Record<string, unknown> | undefined, Extra>,
  logger: Logger,
): SocketHeartbeat {
  const adapters = new WeakMap<WebSocket, SocketAdapter>();
  const server = makeServer<Record<string, unknown> | undefined, Extra>({
    ...options,
    // The adapter's timer, dropped here: graphql-ws's own is kept for the socket's life.
    connectionInitWaitTimeout: Infinity,
    onConnect: (ctx) => {
      adapters.get(ctx.extra.socket)?.initialised();
      return options.onConnect?.(ctx);
    },
    onSubscribe: (ctx, id, payload) => {
      adapters.get(ctx.extra.socket)?.starting(id);
      return options.onSubscribe?.(ctx, id, payload);
    },
    // The operation's own hook first (it drops what the operation made of the context), then the
    // messages that waited for it.
    onOperation: (ctx, id, payload, args, result) => {
      const answer = options.onOperation?.(ctx, id, payload, args, result);
      adapters.get(ctx.extra.socket)?.started(id);
      return answer;
    },
  });
  const heartbeat = new SocketHeartbeat(wss.clients);
  // One listener of each kind for every socket (a listener is called with its socket as this).
  function onMessage(this: WebSocket, data: RawData): void {
    // A Buffer: the server's binaryType is ws's default (nodebuffer), fragments joined.
    adapters.get(this)?.message((data as Buffer).toString('utf8'));
  }
  function onPong(this: WebSocket): void {
    heartbeat.heard(this);
  }
  function onError(this: WebSocket, err: Error): void {
    logger.warn({ err }, 'live socket: error');
    this.close(CloseCode.InternalServerError, 'Internal server error');
  }
  function onClose(this: WebSocket, code: number, reason: Buffer): void {
    heartbeat.heard(this);
    adapters.get(this)?.gone(code, reason.toString('utf8'));
    adapters.delete(this);
  }
  wss.on('connection', (socket: WebSocket) => {
    adapters.set(socket, new SocketAdapter(socket, server, logger));
    socket.on('message', onMessage).on('pong', onPong).on('error', onError).on('close', onClose);
  });
  wss.on('error', (err) => logger.error({ err }, 'live WebSocket server: error'));
  return heartbeat;
}

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
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD_BYTES, handleProtocols });
  const onUpgrade = (req: http.IncomingMessage, socket: import('node:stream').Duplex, head: Buffer) => {
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (pathname !== path) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    // Held from here until the TCP connection closes, whatever becomes of the handshake.
    let full: unknown = null;
    try {
      // (A socket closes once: `on` holds no once-wrapper of each open connection.)
      socket.on('close', sessions.admit());
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

  const heartbeat = serveProtocol(
    wss,
    {
      schema,
      subscribe: liveSubscribe,
      onConnect: async (ctx) => {
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
    sessions.logger,
  );

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      heartbeat.stop();
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
