// The brute-force guard's counters on the shared store: Redis with REDIS_URL, else the
// auth_rate_limit table (the layout rate-limiter-flexible's PostgreSQL store uses: key, points,
// expire in epoch ms, so the one sweep of expired rows covers both). Every change is one atomic
// step on the store (a Lua script, one statement), so instances and concurrent requests never
// read a count and write it back.
import type { Redis } from 'ioredis';
import type { MikroORM } from '@mikro-orm/core';
import type { SharedStore } from '../../core/store';
import { send } from '../../db/sql';

/** take(): a slot was taken (the count with it), or the counter is full (ms until it ends). */
export type Taken = { taken: true; count: number } | { taken: false; msLeft: number };

export interface LockoutCounters {
  /** Adds one to the key's count unless it already holds `limit`; a new count lives `windowMs`. */
  take(key: string, limit: number, windowMs: number): Promise<Taken>;
  /** The key's count and ms left, or null when it holds none. */
  peek(key: string): Promise<{ count: number; msLeft: number } | null>;
  /** When the key holds `limit` or more, it lives `lockMs` from now. */
  lockIfFull(key: string, limit: number, lockMs: number): Promise<void>;
  /** Takes one off the key's count (not below zero; Redis drops a key that reaches it, the sweep a row). */
  giveBack(key: string): Promise<void>;
  clear(key: string): Promise<void>;
  /** Deletes every counter of the table that expired before `before` (the database store keeps them otherwise). */
  sweep(before: number): Promise<void>;
}

export function lockoutCountersOn(store: SharedStore): LockoutCounters {
  return 'redis' in store ? new RedisCounters(store.redis) : new TableCounters(store.orm);
}

const SCRIPTS = {
  lockoutTake: `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n >= tonumber(ARGV[1]) then return {0, redis.call('PTTL', KEYS[1])} end
n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {n, ttl}`,
  lockoutPeek: `return {tonumber(redis.call('GET', KEYS[1]) or '0'), redis.call('PTTL', KEYS[1])}`,
  lockoutLock: `
if tonumber(redis.call('GET', KEYS[1]) or '0') >= tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`,
  lockoutGiveBack: `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 1 then return redis.call('DECR', KEYS[1]) end
if n == 1 then redis.call('DEL', KEYS[1]) end
return 0`,
} as const;

type Scripted = Redis & { [K in keyof typeof SCRIPTS]: (key: string, ...args: (string | number)[]) => Promise<[number, number] | number> };

class RedisCounters implements LockoutCounters {
  private readonly redis: Scripted;

  constructor(redis: Redis) {
    // Defined once on the shared connection (EVALSHA, sent in full again after a Redis restart).
    for (const [name, lua] of Object.entries(SCRIPTS))
      if (!(name in redis)) redis.defineCommand(name, { numberOfKeys: 1, lua: lua.trim() });
    this.redis = redis as Scripted;
  }

  async take(key: string, limit: number, windowMs: number): Promise<Taken> {
    const [count, ttl] = (await this.redis.lockoutTake(key, limit, windowMs)) as [number, number];
    return count > 0 ? { taken: true, count } : { taken: false, msLeft: Math.max(0, ttl) };
  }

  async peek(key: string) {
    const [count, ttl] = (await this.redis.lockoutPeek(key)) as [number, number];
    return count > 0 && ttl > 0 ? { count, msLeft: ttl } : null;
  }

  async lockIfFull(key: string, limit: number, lockMs: number): Promise<void> {
    await this.redis.lockoutLock(key, limit, lockMs);
  }

  async giveBack(key: string): Promise<void> {
    await this.redis.lockoutGiveBack(key);
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(key);
  }

  async sweep(): Promise<void> {
    // Redis expires its keys itself.
  }
}

interface Row {
  points: number;
  expire: string;
}

/** A row whose expire has passed (or that has none) counts as absent: the next take starts it again. */
const TAKE = `insert into auth_rate_limit as c (key, points, expire) values ($1, 1, $3)
  on conflict (key) do update set
    points = case when coalesce(c.expire, 0) <= $2 then 1 else c.points + 1 end,
    expire = case when coalesce(c.expire, 0) <= $2 then excluded.expire else c.expire end
  where c.points < $4 or coalesce(c.expire, 0) <= $2
  returning points, expire`;
const PEEK = `select points, expire from auth_rate_limit where key = $1 and expire > $2`;
const LOCK = `update auth_rate_limit set expire = $3 where key = $1 and points >= $2 and expire > $4`;
const GIVE_BACK = `update auth_rate_limit set points = points - 1 where key = $1 and points > 0 and expire > $2`;
const CLEAR = `delete from auth_rate_limit where key = $1`;
const SWEEP = `delete from auth_rate_limit where expire < $1`;

class TableCounters implements LockoutCounters {
  constructor(private readonly orm: MikroORM) {}

  private run(sql: string, params: unknown[]): Promise<Row[]> {
    return send<Row>(this.orm.em.fork(), sql, params, true);
  }

  async take(key: string, limit: number, windowMs: number): Promise<Taken> {
    const now = Date.now();
    // ON CONFLICT DO UPDATE locks the row and tests the WHERE against its latest version: no row
    // comes back when the counter was full, so two takes can never both have the last slot.
    const [row] = await this.run(TAKE, [key, now, now + windowMs, limit]);
    if (row) return { taken: true, count: Number(row.points) };
    const held = await this.peek(key);
    return { taken: false, msLeft: held?.msLeft ?? 0 };
  }

  async peek(key: string) {
    const [row] = await this.run(PEEK, [key, Date.now()]);
    // Measured after the read: a row written meanwhile may expire later than the read began.
    return row && Number(row.points) > 0 ? { count: Number(row.points), msLeft: Math.max(0, Number(row.expire) - Date.now()) } : null;
  }

  async lockIfFull(key: string, limit: number, lockMs: number): Promise<void> {
    const now = Date.now();
    await this.run(LOCK, [key, limit, now + lockMs, now]);
  }

  async giveBack(key: string): Promise<void> {
    await this.run(GIVE_BACK, [key, Date.now()]);
  }

  async clear(key: string): Promise<void> {
    await this.run(CLEAR, [key]);
  }

  async sweep(before: number): Promise<void> {
    await this.run(SWEEP, [before]);
  }
}
