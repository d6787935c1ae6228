// The event bus between the instances of the service: small JSON messages on named topics,
// delivered to every instance (this one included). PostgreSQL LISTEN/NOTIFY by default (a
// dedicated listening connection on a real server, reconnecting; the embedded PGlite's own
// listen API), Redis pub/sub when REDIS_URL is set. A message published with an EntityManager
// inside a transaction is delivered only if that transaction commits: NOTIFY inside the
// transaction on PostgreSQL, a publish after the commit on Redis. Delivery is at most once: a
// listener that reconnects may have missed messages, which onReconnect announces.
//
// LISTEN belongs to a session: behind a pooler in transaction mode the listening connection goes
// to DATABASE_DIRECT_URL (past the pooler), and without one the bus refuses to open rather than
// listen on a server connection the pooler hands to other clients (its notifications lost, or
// read by whoever holds it next). NOTIFY is a statement of the sender's transaction and goes
// through the pool like any other.
import type { EntityManager, MikroORM, TransactionEventArgs } from '@mikro-orm/core';
import { Client } from 'pg';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger';
import type { Pooling } from '../db/sql';

export type BusHandler = (data: unknown) => void | Promise<void>;

export interface Bus {
  /**
   * Sends `data` on `topic` to every instance. With `em` inside a transaction the message goes out
   * only if the transaction commits; without, at once. At most MAX_BUS_MESSAGE_BYTES of JSON.
   */
  publish(topic: string, data: unknown, em?: EntityManager): Promise<void>;
  /** Calls `handler` with the data of every message on `topic`; returns the unsubscribe. */
  subscribe(topic: string, handler: BusHandler): () => void;
  /** Calls `listener` after the bus has reconnected: messages sent meanwhile were lost. */
  onReconnect(listener: () => void): () => void;
  close(): Promise<void>;
}

/** The JSON of one message, topic included (PostgreSQL's NOTIFY payload limit is 8000 bytes). */
export const MAX_BUS_MESSAGE_BYTES = 7900;
/** The PostgreSQL channel (per database, so instances on other databases never hear it). */
const PG_CHANNEL = 'pronet_bus';
const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5000;

export class BusMessageTooLargeError extends Error {}

function encode(topic: string, data: unknown): string {
  const text = JSON.stringify({ t: topic, d: data });
  if (Buffer.byteLength(text) > MAX_BUS_MESSAGE_BYTES)
    throw new BusMessageTooLargeError(`bus message on ${topic} exceeds ${MAX_BUS_MESSAGE_BYTES} bytes`);
  return text;
}

/** The topic table and local fan-out every transport shares. */
abstract class BaseBus implements Bus {
  private readonly handlers = new Map<string, Set<BusHandler>>();
  private readonly reconnectListeners = new Set<() => void>();

  constructor(protected readonly logger: Logger) {}

  abstract publish(topic: string, data: unknown, em?: EntityManager): Promise<void>;
  abstract close(): Promise<void>;

  subscribe(topic: string, handler: BusHandler): () => void {
    let set = this.handlers.get(topic);
    if (!set) this.handlers.set(topic, (set = new Set()));
    set.add(handler);
    return () => void set.delete(handler);
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => void this.reconnectListeners.delete(listener);
  }

  /** A message as the transport received it. */
  protected dispatch(raw: string): void {
    let message: { t?: unknown; d?: unknown };
    try {
      message = JSON.parse(raw);
    } catch {
      this.logger.warn('bus: a message that is not JSON was ignored');
      return;
    }
    if (typeof message?.t !== 'string') return;
    for (const handler of this.handlers.get(message.t) ?? []) {
      Promise.resolve()
        .then(() => handler(message.d))
        .catch((err) => this.logger.error({ err, topic: message.t }, 'bus: a handler failed'));
    }
  }

  protected reconnected(): void {
    this.logger.info('bus: reconnected; messages sent meanwhile were missed');
    for (const listener of this.reconnectListeners) listener();
  }
}

/** NOTIFY through the ORM (in the caller's transaction when there is one): the message waits for the commit. */
async function notify(orm: MikroORM, text: string, em?: EntityManager): Promise<void> {
  const on = em ?? orm.em.fork();
  await on.getConnection().execute('select pg_notify(?, ?)', [PG_CHANNEL, text], 'run', on.getTransactionContext());
}

/** A real PostgreSQL server: LISTEN on a connection of its own, reconnected with backoff. */
class PostgresBus extends BaseBus {
  private client: Client | null = null;
  private closed = false;
  private delay = RECONNECT_MIN_MS;
  private timer: NodeJS.Timeout | null = null;
  private everConnected = false;

  constructor(
    private readonly orm: MikroORM,
    private readonly url: string,
    logger: Logger,
  ) {
    super(logger);
  }

  /** Starts listening; start-up does not wait for the database (the bus reconnects). */
  start(): void {
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString: this.url, keepAlive: true });
    client.on('notification', (msg) => {
      if (msg.channel === PG_CHANNEL && msg.payload) this.dispatch(msg.payload);
    });
    client.on('error', (err) => {
      this.logger.warn({ err: { message: err.message } }, 'bus: listening connection failed');
      this.retry(client);
    });
    client.on('end', () => this.retry(client));
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${PG_CHANNEL}`);
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, 'bus: cannot listen yet; retrying');
      this.retry(client);
      return;
    }
    this.delay = RECONNECT_MIN_MS;
    if (this.everConnected) this.reconnected();
    this.everConnected = true;
  }

  private retry(client: Client): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.timer = setTimeout(() => void this.connect(), this.delay);
    this.timer.unref();
    this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
  }

  publish(topic: string, data: unknown, em?: EntityManager): Promise<void> {
    return notify(this.orm, encode(topic, data), em);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }
}

/** The embedded PGlite: one in-process connection, whose own listen API hears every NOTIFY. */
interface PgliteLike {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

class PgliteBus extends BaseBus {
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly orm: MikroORM,
    logger: Logger,
  ) {
    super(logger);
  }

  async start(): Promise<void> {
    const connection = this.orm.em.getConnection() as unknown as { getNativeClient(): Promise<PgliteLike> };
    const pglite = await connection.getNativeClient();
    this.unlisten = await pglite.listen(PG_CHANNEL, (payload) => this.dispatch(payload));
  }

  publish(topic: string, data: unknown, em?: EntityManager): Promise<void> {
    return notify(this.orm, encode(topic, data), em);
  }

  async close(): Promise<void> {
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.().catch(() => undefined);
  }
}

/**
 * Redis pub/sub: a subscriber connection and a publisher, neither prefixed (the channel carries
 * the key prefix). A message published inside a transaction waits for its commit (MikroORM's
 * transaction events) and is dropped on rollback.
 */
class RedisBus extends BaseBus {
  private readonly sub: Redis;
  private readonly pub: Redis;
  private readonly channel: string;
  /** Messages waiting for their transaction (keyed by MikroORM's transaction context). */
  private readonly pending = new WeakMap<object, string[]>();
  private everReady = false;
  private closed = false;

  constructor(orm: MikroORM, url: string, keyPrefix: string, logger: Logger) {
    super(logger);
    this.channel = `${keyPrefix}bus`;
    const options = { retryStrategy: (times: number) => Math.min(times * 200, 2000), connectTimeout: 2000, lazyConnect: false };
    // Loaded only when REDIS_URL is set (as in store.ts).
    const { Redis } = require('ioredis') as typeof import('ioredis');
    this.sub = new Redis(url, options);
    this.pub = new Redis(url, { ...options, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1000 });
    let lastError = '';
    for (const conn of [this.sub, this.pub]) {
      conn.on('error', (err) => {
        if (err.message !== lastError) logger.warn({ err: { message: err.message } }, 'bus: redis connection error');
        lastError = err.message;
      });
    }
    this.sub.on('message', (channel: string, message: string) => {
      if (channel === this.channel) this.dispatch(message);
    });
    // ioredis subscribes again by itself after a reconnection.
    this.sub.on('ready', () => {
      if (this.everReady && !this.closed) this.reconnected();
      this.everReady = true;
    });
    void this.sub.subscribe(this.channel).catch((err) => logger.warn({ err: { message: err.message } }, 'bus: cannot subscribe yet'));
    orm.em.getEventManager().registerSubscriber({
      afterTransactionCommit: (args: TransactionEventArgs) => this.settle(args, true),
      afterTransactionRollback: (args: TransactionEventArgs) => this.settle(args, false),
    });
  }

  private settle({ transaction }: TransactionEventArgs, committed: boolean): void {
    if (!transaction) return;
    const messages = this.pending.get(transaction);
    if (!messages) return;
    this.pending.delete(transaction);
    if (committed) for (const text of messages) void this.send(text);
  }

  private async send(text: string): Promise<void> {
    try {
      await this.pub.publish(this.channel, text);
    } catch (err) {
      this.logger.warn({ err: { message: (err as Error).message } }, 'bus: a message could not be published');
    }
  }

  async publish(topic: string, data: unknown, em?: EntityManager): Promise<void> {
    const text = encode(topic, data);
    const transaction = em?.isInTransaction() ? em.getTransactionContext<object>() : undefined;
    if (!transaction) return this.pub.publish(this.channel, text).then(() => undefined);
    const list = this.pending.get(transaction);
    if (list) list.push(text);
    else this.pending.set(transaction, [text]);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.sub.disconnect();
    this.pub.disconnect();
  }
}

export interface BusOptions {
  orm: MikroORM;
  logger: Logger;
  /** Redis pub/sub when set; else the database's LISTEN/NOTIFY. */
  redisUrl: string | null;
  keyPrefix: string;
  /** How the ORM's connections are pooled (DATABASE_POOLING); 'transaction' cannot carry LISTEN. */
  pooling?: Pooling;
  /** A session connection to the same database (DATABASE_DIRECT_URL): where LISTEN goes when set. */
  directUrl?: string | null;
}

/** Opens the bus the configuration calls for; start-up does not wait for a database or Redis that is down. */
export async function openBus({ orm, logger, redisUrl, keyPrefix, pooling = 'session', directUrl = null }: BusOptions): Promise<Bus> {
  if (redisUrl) return new RedisBus(orm, redisUrl, keyPrefix, logger);
  const clientUrl = orm.config.get('clientUrl');
  if (orm.config.get('driver')?.name === 'PostgreSqlDriver' && clientUrl) {
    if (pooling === 'transaction' && !directUrl)
      throw new Error(
        'DATABASE_POOLING=transaction: the bus between instances needs DATABASE_DIRECT_URL (LISTEN needs a session connection) or REDIS_URL',
      );
    const bus = new PostgresBus(orm, directUrl ?? clientUrl, logger);
    bus.start();
    return bus;
  }
  const bus = new PgliteBus(orm, logger);
  await bus.start();
  return bus;
}
