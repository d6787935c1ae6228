// One instance at a time changes the schema. Migrations and the demo seed run under a PostgreSQL
// session advisory lock, so replicas started together on an empty database queue on it: the first
// migrates (and seeds), the others then find nothing to do and go on. Unlocked, two instances
// created the same tables at once and one failed ("duplicate key value violates unique constraint
// pg_type_typname_nsp_index").
//
// The lock is held on a connection of its own to DATABASE_DIRECT_URL (else DATABASE_URL): behind a
// transaction pooler a session lock taken on one server connection would be "held" by a session
// the pooler hands to someone else. An advisory lock's key is local to its database, and the
// server releases it when the holding session ends, so an instance killed while migrating frees
// the others (its migration transaction is rolled back). The embedded database (PGlite) belongs
// to one process: no lock.
import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/core';
import type { Logger } from '../logger';
import { migrate, pendingMigrations } from './orm';

/** pg_advisory_lock's key: "pronet" in ASCII, the same for every instance and `npm run migrate`. */
export const MIGRATION_LOCK_KEY = 0x70726f6e6574n;

/** How the lock's session shows in pg_stat_activity. */
const APPLICATION_NAME = 'pronet-migration-lock';

/**
 * Runs `work` while this process holds the migration lock on the database at `url` (null: the
 * embedded database, no lock). Waits as long as another holder keeps it, saying so once.
 */
export async function withMigrationLock<T>(url: string | null, logger: Logger, work: () => Promise<T>): Promise<T> {
  if (!url) return work();
  const client = new Client({ connectionString: url, application_name: APPLICATION_NAME });
  // A connection lost while idle is reported as an event; the next statement on it fails anyway.
  client.on('error', (err) => logger.warn({ err }, 'migration lock: connection lost'));
  await client.connect();
  try {
    const key = String(MIGRATION_LOCK_KEY);
    const tried = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1::bigint) as locked', [key]);
    if (!tried.rows[0].locked) {
      logger.info('migration lock: another instance is migrating; waiting for it');
      await client.query('select pg_advisory_lock($1::bigint)', [key]);
    }
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock($1::bigint)', [key]).catch(() => undefined);
    }
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface PrepareOptions {
  /** The session connection the lock is held on; null: the embedded database. */
  lockUrl: string | null;
  /** Seeds the demo tenant when the database is empty, saying whether it did (config.seedDemo: src/modules/demo-seed.ts); null: no demo. */
  seedDemo: ((orm: MikroORM, logger: Logger) => Promise<boolean>) | null;
  logger: Logger;
}

/** Pending migrations, then the demo seed when asked, under the migration lock: what start-up and `npm run migrate` do. */
export async function migrateAndSeed(
  orm: MikroORM,
  { lockUrl, seedDemo, logger }: PrepareOptions,
): Promise<{ applied: string[]; seeded: boolean }> {
  return withMigrationLock(lockUrl, logger, async () => {
    const applied = await migrate(orm);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    const seeded = seedDemo ? await seedDemo(orm, logger) : false;
    return { applied, seeded };
  });
}

/**
 * The migrations this build has that the database has not run, read under the lock (an instance
 * started while `npm run migrate` runs waits for it). Creates nothing.
 */
export function pendingUnderLock(orm: MikroORM, lockUrl: string | null, logger: Logger): Promise<string[]> {
  return withMigrationLock(lockUrl, logger, () => pendingMigrations(orm));
}
