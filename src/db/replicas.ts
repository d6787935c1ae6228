// Reads on streaming replicas (DATABASE_REPLICA_URLS), writes on the primary, and never a caller's
// own write missing from what it reads next.
//
// MikroORM opens the replicas (its `replicas` option) and asks its driver for a connection of type
// 'read' for every read outside a transaction (a find, a count, `send` in sql.ts for a SELECT);
// 'write' for everything else. That one question is answered here, from the request's scope (an
// AsyncLocalStorage, so DataLoader batches and lazy principals follow their request): a request
// reads on the primary until it is routed. A GraphQL query or a REST GET is routed (routeReads) to a
// replica that answers, lags at most DATABASE_REPLICA_MAX_LAG_MS, and has replayed the caller's last
// write; a mutation never is (markWrite), and every read inside it runs on the primary. Background
// work has no scope and runs on the primary.
//
// A caller's last write is the primary's WAL position after its mutation committed
// (`pg_current_wal_lsn()`), kept in the shared store (Redis, or the replica_read_floor table) under
// the digest of the credential it sent, for FLOOR_TTL_MS. A replica qualifies when the replay
// position it showed at its last check (`pg_last_wal_replay_lsn()`, polled every POLL_MS) has
// passed it: the check is a number comparison, no statement per request.
//
// A replica that stops answering is taken out at the first failed statement or check, and a read
// that failed on it is run again on the primary (it was outside a transaction, so nothing is lost);
// a replica that answers again and has caught up takes reads again at the next check. One that
// hangs (it accepts connections and never answers: a stopped server, a path that stops forwarding)
// fails a statement or a connection attempt after DATABASE_REPLICA_TIMEOUT_MS (replicaPoolOptions).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { MikroORM } from '@mikro-orm/core';
import type { Redis } from 'ioredis';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from '../logger';

/** How often each replica's replay position and the primary's WAL position are read. */
export const POLL_MS = 200;
/** A check not answered within this counts as a replica that does not answer. */
const CHECK_TIMEOUT_MS = 500;
/** How long a caller's last write keeps its reads off replicas that have not replayed it. */
export const FLOOR_TTL_MS = 60_000;

/** pg's error for a statement with no answer within query_timeout. */
const NO_ANSWER = 'Query read timeout';

/**
 * The pg pool options of each replica (MikroORM's per-replica driverOptions): a statement or a
 * connection attempt with no answer within `timeoutMs` fails, which takes the replica out and runs
 * the read again on the primary (fallbackFor). pg leaves a connection whose statement timed out in
 * the pool, still waiting for that answer, which may never come: it is closed instead, so the
 * replica is asked on fresh connections once it answers again. `onPoolCreated`: what else each
 * replica's pool is given when it is made (db_pool_acquire_seconds times its waits).
 */
export function replicaPoolOptions(timeoutMs: number, onPoolCreated?: (pool: Pool) => void): Record<string, unknown> {
  const closeWhenUnanswered = (client: PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise)
        void result.catch((err: unknown) => {
          if ((err as Error | null)?.message === NO_ANSWER) client.connection.stream.destroy();
        });
      return result;
    }) as PoolClient['query'];
  };
  return {
    query_timeout: timeoutMs,
    connectionTimeoutMillis: timeoutMs,
    onPoolCreated: (pool: Pool) => {
      pool.on('connect', closeWhenUnanswered);
      onPoolCreated?.(pool);
    },
  };
}

/** A connection as the driver hands it out (MikroORM's AbstractSqlConnection, the part used here). */
interface Connection {
  execute(query: string, params?: unknown[], method?: 'all' | 'get' | 'run', ctx?: unknown, loggerContext?: unknown): Promise<unknown>;
}

interface Replica {
  name: string;
  connection: Connection;
  /** The connection's own execute, without the fall-back to the primary: what the checks use. */
  check: Connection['execute'];
  up: boolean;
  /** Replay position at the last check that answered. */
  replayed: bigint;
  lagMs: number;
  checking: boolean;
}

/** Where a request's reads go. */
interface Scope {
  routing: ReadRouting;
  /** A replica, or null: the primary. */
  replica: Replica | null;
  wrote: boolean;
}

const scopes = new AsyncLocalStorage<Scope>();

/** A WAL position ('16/B374D848') as a number. */
export function lsnOf(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** Where the callers' last writes are kept: Redis, or the primary's replica_read_floor table. */
export interface WriteFloors {
  get(key: string): Promise<bigint | null>;
  set(key: string, lsn: bigint): Promise<void>;
  /** Removes expired floors (the table; Redis expires its own). */
  sweep(): Promise<void>;
}

const lsnText = (lsn: bigint) => `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;

export function writeFloorsOn(store: { redis: Redis } | { orm: MikroORM }): WriteFloors {
  if ('redis' in store) {
    const { redis } = store;
    return {
      get: async (key) => {
        const value = await redis.get(`read-floor:${key}`);
        return value === null ? null : BigInt(value);
      },
      set: async (key, lsn) => void (await redis.set(`read-floor:${key}`, lsn.toString(), 'PX', FLOOR_TTL_MS)),
      sweep: async () => undefined,
    };
  }
  const primary = () => store.orm.em.getDriver().getConnection('write') as unknown as Connection;
  return {
    get: async (key) => {
      const rows = (await primary().execute('select lsn::text as lsn from replica_read_floor where key = ? and expires_at > now()', [
        key,
      ])) as { lsn: string }[];
      return rows.length ? lsnOf(rows[0].lsn) : null;
    },
    set: async (key, lsn) =>
      void (await primary().execute(
        `insert into replica_read_floor (key, lsn, expires_at) values (?, ?::pg_lsn, now() + interval '${FLOOR_TTL_MS} milliseconds')
         on conflict (key) do update set lsn = greatest(replica_read_floor.lsn, excluded.lsn), expires_at = excluded.expires_at`,
        [key, lsnText(lsn)],
        'run',
      )),
    sweep: async () => void (await primary().execute('delete from replica_read_floor where expires_at < now()', [], 'run')),
  };
}

/** Errors after which a read outside a transaction is run again on the primary. */
function worthRetrying(err: unknown): boolean {
  const code = sqlState(err);
  // 53: too many connections; 40001: a standby cancelling a read that conflicts with recovery;
  // 25006: a SELECT that writes after all (a function's doing); 0A000: an unlogged table, which a
  // standby cannot read.
  return connectionLost(err) || code.startsWith('53') || ['40001', '25006', '0A000'].includes(code);
}

/** The error's SQLSTATE, or '' when it has none (a socket's: ECONNREFUSED, ECONNRESET, a closed connection). */
function sqlState(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code) ? code : '';
}

/** A statement that failed on a replica because the replica is gone (08: connection; 57P: shut down or restarting; or the socket). */
function connectionLost(err: unknown): boolean {
  const code = sqlState(err);
  return code === '' || /^(08|57P)/.test(code);
}

const replicaOf = new WeakMap<object, Replica & { routing: ReadRouting }>();

/**
 * A read that failed on a replica: the primary's connection to run it again on (and the replica is
 * taken out when it is gone), or null when the failure is the statement's own or `connection` is not
 * a replica.
 */
export function fallbackFor(connection: object, err: unknown): Connection | null {
  const replica = replicaOf.get(connection);
  if (!replica || !worthRetrying(err)) return null;
  return replica.routing.failed(replica, err);
}

export interface ReadRoutingOptions {
  maxLagMs: number;
  floors: WriteFloors;
  logger: Logger;
}

/** Counts of reads by target, and each replica's state: what /metrics shows. */
export interface ReadReport {
  reads: Record<string, number>;
  replicas: { name: string; up: boolean; lagMs: number }[];
}

/**
 * How far behind the primary a replay position is, in time, from the primary's WAL positions at
 * past checks (oldest first): 0 when it has replayed the last one, else the time since the last
 * check that saw the primary not yet past it. The primary went past it somewhere between that check
 * and the next, so this is never less than the real lag and at most one check interval more: a
 * replica within DATABASE_REPLICA_MAX_LAG_MS by this measure is within it in fact.
 */
export function lagBehind(history: readonly { at: number; lsn: bigint }[], replayed: bigint, now: number): number {
  const beyond = history.findIndex((h) => h.lsn > replayed);
  if (beyond < 0) return 0;
  return now - history[Math.max(beyond - 1, 0)].at;
}

export class ReadRouting {
  private readonly replicas: Replica[];
  private readonly primary: Connection;
  /** The primary's WAL position over the last checks, oldest first: how far behind a replay position is, in time. */
  private readonly history: { at: number; lsn: bigint }[] = [];
  private readonly reads = new Map<string, number>();
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private sweeps = 0;

  constructor(
    orm: MikroORM,
    private readonly options: ReadRoutingOptions,
  ) {
    const driver = orm.em.getDriver() as unknown as {
      replicas: Connection[];
      getConnection(type?: 'read' | 'write'): Connection;
    };
    this.primary = driver.getConnection('write');
    this.replicas = driver.replicas.map((connection, i) => {
      const check = connection.execute.bind(connection);
      const replica: Replica = { name: `replica${i + 1}`, connection, check, up: false, replayed: 0n, lagMs: Infinity, checking: false };
      replicaOf.set(connection, Object.assign(replica, { routing: this }));
      // MikroORM's own reads (find, count, populate) go through execute: one that fails because
      // the replica went away runs again on the primary.
      connection.execute = async (...args) => {
        try {
          return await check(...args);
        } catch (err) {
          const fallback = args[3] ? null : fallbackFor(connection, err);
          if (!fallback) throw err;
          return fallback.execute(...args);
        }
      };
      return replica;
    });
  }

  /** Starts the checks; the first runs at once, so a replica can take reads within POLL_MS of start-up. */
  start(): this {
    void this.poll();
    this.timer = setInterval(() => void this.poll(), POLL_MS);
    this.timer.unref();
    return this;
  }

  close(): void {
    clearInterval(this.timer);
  }

  /** Runs `fn` (a request) in a scope of its own, reading on the primary until routeReads. */
  request<T>(fn: () => T): T {
    return scopes.run({ routing: this, replica: null, wrote: false }, fn);
  }

  report(): ReadReport {
    return {
      reads: Object.fromEntries(this.reads),
      replicas: this.replicas.map((r) => ({ name: r.name, up: r.up, lagMs: r.lagMs })),
    };
  }

  readConnection(): Connection {
    const replica = scopes.getStore()?.replica;
    const target = replica?.up ? replica : null;
    const name = target ? target.name : 'primary';
    this.reads.set(name, (this.reads.get(name) ?? 0) + 1);
    return target ? target.connection : this.primary;
  }

  /** Routes the current request's reads: a replica that has replayed `floor`, or the primary. */
  choose(scope: Scope, floor: bigint | null): void {
    const fit = this.replicas.filter((r) => r.up && r.lagMs <= this.options.maxLagMs && (floor === null || r.replayed >= floor));
    scope.replica = fit.length ? fit[this.next++ % fit.length] : null;
  }

  async floorOf(key: string | undefined): Promise<bigint | null> {
    if (!key) return null;
    return this.options.floors.get(key);
  }

  /** After a request that wrote: the primary's WAL position, kept as the caller's floor. */
  async recordWrite(key: string): Promise<void> {
    const [row] = (await this.primary.execute('select pg_current_wal_lsn()::text as lsn')) as { lsn: string }[];
    await this.options.floors.set(key, lsnOf(row.lsn));
  }

  /** A statement failed on `replica`: out until a check answers again when it is gone; the primary takes the read. */
  failed(replica: Replica, err: unknown): Connection {
    if (connectionLost(err) && replica.up) {
      replica.up = false;
      this.options.logger.warn(
        { replica: replica.name, err: { message: (err as Error).message } },
        'read replica lost: reads go to the primary',
      );
    }
    this.reads.set('primary', (this.reads.get('primary') ?? 0) + 1);
    return this.primary;
  }

  private async poll(): Promise<void> {
    const at = Date.now();
    try {
      const [row] = (await this.primary.execute('select pg_current_wal_lsn()::text as lsn')) as { lsn: string }[];
      this.history.push({ at, lsn: lsnOf(row.lsn) });
    } catch {
      // The primary not answering is /readyz's to say; the replicas' lag cannot be known meanwhile.
    }
    // Long enough to measure any lag up to the bound, and a little past it.
    while (this.history.length > 2 && this.history[1].at < at - this.options.maxLagMs - 2 * POLL_MS) this.history.shift();
    await Promise.all(this.replicas.map((r) => this.checkReplica(r, at)));
    if (++this.sweeps % 300 === 0) await this.options.floors.sweep().catch(() => undefined);
  }

  private async checkReplica(replica: Replica, at: number): Promise<void> {
    if (replica.checking) return this.setUp(replica, false, 'does not answer');
    replica.checking = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), CHECK_TIMEOUT_MS)));
    const asked = replica
      .check('select pg_last_wal_replay_lsn()::text as lsn')
      .then((rows) => rows as { lsn: string | null }[])
      .finally(() => (replica.checking = false));
    try {
      const answer = await Promise.race([asked, late]);
      if (answer === 'late') return this.setUp(replica, false, 'does not answer');
      const lsn = answer[0]?.lsn;
      if (!lsn) return this.setUp(replica, false, 'is not a standby (pg_last_wal_replay_lsn() is null)');
      replica.replayed = lsnOf(lsn);
      replica.lagMs = lagBehind(this.history, replica.replayed, at);
      this.setUp(replica, true);
    } catch (err) {
      this.setUp(replica, false, (err as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  private setUp(replica: Replica, up: boolean, why?: string): void {
    if (replica.up === up) return;
    replica.up = up;
    if (up) this.options.logger.info({ replica: replica.name }, 'read replica answers: it takes reads again');
    else this.options.logger.warn({ replica: replica.name, reason: why }, 'read replica out: reads go to the primary');
  }
}

/**
 * The one place a connection is chosen, installed as the ORM starts with replicas: 'write' (writes,
 * transactions) is the primary; 'read' is what the current request's scope chose, and the primary
 * outside a request (start-up, migrations, background work): never MikroORM's own pick of a random
 * replica, which may not have replayed the migrations yet.
 */
export function chooseConnectionsByScope(orm: MikroORM): void {
  const driver = orm.em.getDriver() as unknown as { getConnection(type?: 'read' | 'write'): Connection };
  const primary = driver.getConnection('write');
  driver.getConnection = (type = 'write') => (type === 'write' ? primary : (scopes.getStore()?.routing.readConnection() ?? primary));
}

/** Whether the current code runs inside a routed request (replicas configured). */
export const inRoutedRequest = (): boolean => scopes.getStore() !== undefined;

/**
 * Routes the current request's reads (a GraphQL query, a REST GET) for the caller whose credential
 * digest is `key` (undefined: no credential, no write of its own). No-op without replicas, or once
 * the request has written.
 */
export async function routeReads(key: string | undefined): Promise<void> {
  const scope = scopes.getStore();
  if (!scope || scope.wrote) return;
  let floor: bigint | null;
  try {
    floor = await scope.routing.floorOf(key);
  } catch {
    // The store not answering: the primary, which has every write.
    return;
  }
  scope.routing.choose(scope, floor);
}

/** The current request writes (a mutation): every read on the primary, and its WAL position kept after it. */
export function markWrite(): void {
  const scope = scopes.getStore();
  if (!scope) return;
  scope.wrote = true;
  scope.replica = null;
}

/** Runs `fn` with its reads on the primary (the principal's lookup: a credential issued a moment ago is known there). */
export function onPrimary<T>(fn: () => T): T {
  const scope = scopes.getStore();
  if (!scope) return fn();
  return scopes.run({ routing: scope.routing, replica: null, wrote: scope.wrote }, fn);
}

/** After a request: when it wrote, the caller's floor (its key: the credential digest). */
export async function afterRequest(key: string | undefined): Promise<void> {
  const scope = scopes.getStore();
  if (!scope?.wrote || !key) return;
  await scope.routing.recordWrite(key);
}
