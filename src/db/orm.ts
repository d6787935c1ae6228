// ORM start-up: a real PostgreSQL server when DATABASE_URL is set, embedded PGlite otherwise.
import 'reflect-metadata';
// Both share MikroORM's PostgreSQL platform, so the same migrations and SQL run on each.
import fs from 'node:fs';
import path from 'node:path';
import { DefaultLogger, MikroORM, type LoggerOptions, type Options } from '@mikro-orm/core';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { SeedManager } from '@mikro-orm/seeder';
import type { DecoratedClass } from '../core/module';
import { MIGRATIONS } from './migrations';
import { ReplicaReadFloor } from './read-floor.entity';
import { chooseConnectionsByScope, replicaPoolOptions } from './replicas';
import type { Pool } from 'pg';
import type { Logger } from '../logger';
import { recordStatement } from '../observability/tracing';
import { timeAcquires } from '../observability/pool-waits';

// The query logger is the one hook MikroORM calls after a statement, with its duration: each
// becomes a span (a no-op unless a request is being traced); logging itself is unchanged.
class TracingLogger extends DefaultLogger {
  override logQuery(context: Parameters<DefaultLogger['logQuery']>[0]): void {
    recordStatement(context.query, context.took, context.level === 'error');
    super.logQuery(context);
  }
}

export type Orm = MikroORM;

export interface DbOptions {
  databaseUrl: string | null;
  /** Every entity the ORM maps: the modules' (ENTITIES of src/modules/index.ts). */
  entities: readonly DecoratedClass[];
  /** Embedded database directory, or 'memory://' for a throwaway one. */
  embeddedDir: string;
  logger?: Logger;
  /** Called for every SQL statement (statement counting in tests and benchmarks). */
  onQuery?: (sql: string, params: readonly unknown[]) => void;
  poolMax?: number;
  /** Streaming replicas of databaseUrl (DATABASE_REPLICA_URLS): MikroORM opens them; src/db/replicas.ts routes reads to them. */
  replicaUrls?: readonly string[];
  /** A statement or connection attempt on a replica with no answer after this fails (DATABASE_REPLICA_TIMEOUT_MS). */
  replicaTimeoutMs?: number;
  /**
   * An embedded database's starting contents, as PGlite's `dumpDataDir()` gave them (a tarball):
   * the tests start each file's in-memory database from one migrated copy instead of migrating it
   * again (about 3 s each). Only for `memory://`.
   */
  embeddedTemplate?: Uint8Array;
}

export function ormOptions(db: DbOptions): Partial<Options> {
  const common: Partial<Options> = {
    entities: [...db.entities, ReplicaReadFloor],
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator, SeedManager],
    migrations: {
      migrationsList: MIGRATIONS,
      path: path.join(__dirname, 'migrations'),
      pathTs: path.join(__dirname, 'migrations'),
      snapshot: false,
      silent: true,
    },
    // The schema comes from migrations only; never diffed or altered at run time.
    ensureDatabase: false,
    allowGlobalContext: false,
    loggerFactory: (options: LoggerOptions) => new TracingLogger(options),
    onQuery: (sql: string, params: readonly unknown[]) => {
      db.onQuery?.(sql, params);
      return sql;
    },
  };
  if (db.databaseUrl) {
    // Each pool (the primary's and every replica's) times its connects: db_pool_acquire_seconds.
    const driverOptions = { onPoolCreated: timeAcquires };
    const replicaOptions = replicaPoolOptions(db.replicaTimeoutMs ?? 1000, timeAcquires);
    const replicas = db.replicaUrls?.map((clientUrl, i) => ({ name: `replica${i + 1}`, clientUrl, driverOptions: replicaOptions })) ?? [];
    const pool = { min: 0, max: db.poolMax ?? 10 };
    return {
      ...common,
      driver: PostgreSqlDriver,
      clientUrl: db.databaseUrl,
      pool,
      driverOptions,
      ...(replicas.length ? { replicas } : {}),
    };
  }
  if (!db.embeddedDir.startsWith('memory:')) fs.mkdirSync(db.embeddedDir, { recursive: true });
  // Loaded only for the embedded database: importing the PGlite engine costs ~40 MB of memory.
  const { PgliteDriver } = require('@mikro-orm/pglite') as typeof import('@mikro-orm/pglite');
  const template = db.embeddedTemplate;
  // PGlite reads a Blob's arrayBuffer(); MikroORM copies its options, which a real Blob does not survive.
  const loadDataDir = template && {
    size: template.byteLength,
    type: 'application/x-tar',
    arrayBuffer: async () => template.buffer.slice(template.byteOffset, template.byteOffset + template.byteLength),
  };
  const driverOptions = { ...BYTEA_AS_HEX, ...(loadDataDir ? { loadDataDir } : {}) };
  return { ...common, driver: PgliteDriver, dbName: db.embeddedDir, driverOptions };
}

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;

/**
 * bytea to and from PGlite's text protocol through Node's hex codec. PGlite's own codec goes byte
 * by byte through strings (`Array.from(bytes).map(...)`, `parseInt` per byte): a 25 MiB file took
 * about 2 s to store and 5 s to read back in the tests. A read gives a Buffer, as the server's
 * driver does.
 */
const BYTEA_AS_HEX = {
  parsers: { [BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
  serializers: { [BYTEA]: (bytes: Uint8Array) => `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}` },
};

export async function createOrm(db: DbOptions): Promise<MikroORM> {
  const orm = await MikroORM.init(ormOptions(db));
  if (db.databaseUrl && db.replicaUrls?.length) chooseConnectionsByScope(orm);
  return orm;
}

/**
 * Applies pending migrations (all in one transaction) and returns their names. Unlocked: start-up
 * and `npm run migrate` call it under the migration lock (migration-lock.ts); a test's own fresh
 * database needs none.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  return (await orm.migrator.up()).map((m) => m.name);
}

/**
 * The names of the migrations this build has that the database has not run. Creates nothing (the
 * migrator would create its bookkeeping table on an empty database, which the service's database
 * role may not be allowed to).
 */
export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const table = orm.config.get('migrations').tableName ?? 'mikro_orm_migrations';
  const [found] = await orm.em.getConnection().execute<{ present: boolean }[]>('select to_regclass(?) is not null as present', [table]);
  if (!found.present) return MIGRATIONS.map((m) => m.name);
  return (await orm.migrator.getPending()).map((m) => m.name);
}

/** The connection pool's counts (pg's Pool on a real server); null on PGlite, a single in-process connection and no pool. */
export async function poolStats(orm: MikroORM): Promise<{ total: number; idle: number; waiting: number } | null> {
  const connection = orm.em.getConnection() as unknown as { getNativeClient(): Promise<Partial<Pool> | null> };
  const client = await connection.getNativeClient();
  return typeof client?.totalCount === 'number'
    ? { total: client.totalCount, idle: client.idleCount!, waiting: client.waitingCount! }
    : null;
}
