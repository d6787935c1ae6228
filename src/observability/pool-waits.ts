// How long each statement or transaction waited for a connection of the database pool
// (db_pool_acquire_seconds): pg's Pool tells how many wait (db_pool_connections), not for how
// long, and a wait is what a pool too small for the load costs a request. Process-wide, as
// statements.ts: the pools open with the ORM, before an app's registry exists, and each app
// registers this one histogram.
import type { Pool } from 'pg';
import { Histogram } from 'prom-client';

export const poolAcquireSeconds = new Histogram({
  name: 'db_pool_acquire_seconds',
  help: 'Time from asking the database pool for a connection until one is handed over (pg Pool.connect).',
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  registers: [],
});

/** Times each connect() of `pool` that answers a promise (Kysely's); one with a callback goes through untimed. */
export function timeAcquires(pool: Pool): void {
  const connect = pool.connect.bind(pool) as (...args: unknown[]) => unknown;
  pool.connect = ((...args: unknown[]) => {
    if (args.length) return connect(...args);
    const started = performance.now();
    const got = connect() as Promise<unknown>;
    const done = () => poolAcquireSeconds.observe((performance.now() - started) / 1000);
    got.then(done, done);
    return got;
  }) as Pool['connect'];
}
