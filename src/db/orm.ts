// ORM start-up: a real PostgreSQL server when DATABASE_URL is set, embedded PGlite otherwise.
import 'reflect-metadata';
// Both share MikroORM's PostgreSQL platform, so the same migrations and SQL run on each.
import fs from 'node:fs';
import path from 'node:path';
import { MikroORM, type Options } from '@mikro-orm/core';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { PgliteDriver } from '@mikro-orm/pglite';
import { Migrator } from '@mikro-orm/migrations';
import { SeedManager } from '@mikro-orm/seeder';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import type { Logger } from '../logger';

export type Orm = MikroORM;

export interface DbOptions {
  databaseUrl: string | null;
  /** Embedded database directory, or 'memory://' for a throwaway one. */
  embeddedDir: string;
  logger?: Logger;
  /** Called for every SQL statement (statement counting in tests and benchmarks). */
  onQuery?: (sql: string, params: readonly unknown[]) => void;
  poolMax?: number;
}

export function ormOptions(db: DbOptions): Partial<Options> {
  const common: Partial<Options> = {
    entities: ENTITIES,
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
    onQuery: (sql: string, params: readonly unknown[]) => {
      db.onQuery?.(sql, params);
      return sql;
    },
  };
  if (db.databaseUrl) {
    return { ...common, driver: PostgreSqlDriver, clientUrl: db.databaseUrl, pool: { min: 0, max: db.poolMax ?? 10 } };
  }
  if (!db.embeddedDir.startsWith('memory:')) fs.mkdirSync(db.embeddedDir, { recursive: true });
  return { ...common, driver: PgliteDriver, dbName: db.embeddedDir };
}

export async function createOrm(db: DbOptions): Promise<MikroORM> {
  return MikroORM.init(ormOptions(db));
}

export async function migrate(orm: MikroORM): Promise<void> {
  await orm.migrator.up();
}
