// The store every instance shares for counters and caches: Redis when REDIS_URL is set, else
// the database itself. Opened once at start-up; the token cache, the brute-force guard and the
// request rate limits all take it from here.
import type { Redis } from 'ioredis';
import type { MikroORM } from '@mikro-orm/core';
import { RateLimiterPostgres, RateLimiterRedis, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logger';
import { send } from '../db/sql';
import { onPrimary } from '../db/replicas';

export type SharedStore = { redis: Redis } | { orm: MikroORM };

export interface OpenedStore {
  store: SharedStore;
  /** The Redis connection, or null when the database is the store. */
  redis: Redis | null;
  /** Whether Redis answers a PING within READY_TIMEOUT_MS; null when the database is the store (its own check covers it). */
  answers(): Promise<boolean> | null;
  close(): void;
}

/** How long a readiness check waits for Redis's PONG (a balancer's probe waits about a second in all). */
export const READY_TIMEOUT_MS = 500;

export interface StoreOptions {
  redisUrl: string | null;
  keyPrefix: string;
  orm: MikroORM;
  logger: Logger;
}

export async function openSharedStore({ redisUrl, keyPrefix, orm, logger }: StoreOptions): Promise<OpenedStore> {
  if (!redisUrl) return { store: { orm }, redis: null, answers: () => null, close: () => undefined };
  const redis = connectRedis(redisUrl, keyPrefix, logger);
  // Start serving even when Redis is down: credentialed requests answer 503 until it is back.
  if (!(await waitReady(redis, 3000))) logger.warn('redis is not reachable yet: token lookups answer WSCacheServiceException until it is');
  return { store: { redis }, redis, answers: () => pings(redis, READY_TIMEOUT_MS), close: () => redis.disconnect() };
}

/** A PING answered within `ms`. Without a connection it fails at once (no offline queue). */
async function pings(redis: Redis, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    const answered = redis
      .ping()
      .then(() => true)
      .catch(() => false);
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A Redis connection that fails fast while down and logs each distinct failure once (also for the persisted query store). */
export function connectRedis(url: string, keyPrefix: string, logger: Logger): Redis {
  // Loaded only when REDIS_URL is set: without it the client's 1.2 MB of heap stays out.
  const { Redis } = require('ioredis') as typeof import('ioredis');
  const redis = new Redis(url, {
    keyPrefix,
    // Fail fast instead of queueing: a request must learn at once that the cache is down.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let lastError = '';
  redis.on('error', (err) => {
    // One line per distinct failure, not one per reconnection attempt.
    if (err.message !== lastError)
      logger.error({ err: { message: err.message, code: (err as NodeJS.ErrnoException).code } }, 'redis connection error');
    lastError = err.message;
  });
  redis.on('ready', () => {
    if (lastError) logger.info('redis connection restored');
    lastError = '';
  });
  return redis;
}

async function waitReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

export interface LimiterOptions {
  keyPrefix: string;
  points: number;
  /** Window, seconds. */
  duration: number;
  /** Redis only: answer at once (and let the caller fail open) rather than queue the command. */
  rejectIfRedisNotReady?: boolean;
}

/**
 * A rate-limiter-flexible counter on the shared store: Redis, or the auth_rate_limit table
 * (each limiter under its own key prefix; expired rows are swept by the identity runtime).
 */
export function limiterOn(store: SharedStore, { rejectIfRedisNotReady, ...common }: LimiterOptions): RateLimiterStoreAbstract {
  if ('redis' in store) return new RateLimiterRedis({ ...common, storeClient: store.redis, useRedisPackage: false, rejectIfRedisNotReady });
  return new RateLimiterPostgres({
    ...common,
    storeClient: mikroOrmStoreClient(store.orm),
    storeType: 'client',
    tableName: 'auth_rate_limit',
    tableCreated: true,
    clearExpiredByTimeout: false,
  });
}

/**
 * rate-limiter-flexible's PostgreSQL store speaks node-postgres: a fixed text with $1 parameters.
 * Its upserts run as prepared statements (src/db/sql.ts `send`: planned once per connection; unnamed behind
 * a transaction pooler), its sweep of expired rows through MikroORM, which takes ? placeholders.
 * The statement names rate-limiter-flexible gives its queries are not used: `send` names its prepared statements by text.
 */
function mikroOrmStoreClient(orm: MikroORM) {
  return {
    async query({ text, values }: { text: string; values?: unknown[] }) {
      if (!/^\s*delete/i.test(text)) {
        // The counters' table is unlogged: a standby cannot read it.
        const rows = await onPrimary(() => send(orm.em.fork(), text, values ?? [], true));
        return { rows, rowCount: rows.length };
      }
      const params: unknown[] = [];
      const sql = text.replace(/\$(\d+)/g, (_m, n: string) => {
        params.push(values?.[Number(n) - 1]);
        return '?';
      });
      const res = (await orm.em.fork().getConnection().execute(sql, params, 'run')) as { affectedRows?: number };
      return { rows: [], rowCount: res.affectedRows ?? 0 };
    },
  };
}
