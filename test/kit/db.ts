// A fresh database for each test file: a new PostgreSQL database on the server named by
// DATABASE_URL (CI), or a throwaway in-memory PGlite otherwise. Real SQL either way.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/core';
import { createOrm, migrate } from '../../src/db/orm';
import { ENTITIES } from '../../src/modules';

export interface TestDb {
  orm: MikroORM;
  /** Statements run since the last reset (statement-count tests). */
  statements: string[];
  databaseUrl: string | null;
  close(): Promise<void>;
}

/** Runs one statement on the `postgres` database of `url`'s server (CREATE and DROP DATABASE). */
export async function admin(url: string, sql: string): Promise<void> {
  const u = new URL(url);
  u.pathname = '/postgres';
  const client = new Client({ connectionString: u.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const MIGRATIONS_DIR = path.join(__dirname, '../../src/db/migrations');
const PGLITE_PACKAGE = path.join(__dirname, '../../node_modules/@electric-sql/pglite/package.json');

/** What names a migrated template: the migrations (names and contents), and what else it depends on. */
function migrationsHash(...more: Buffer[]): string {
  const hash = crypto.createHash('sha256');
  for (const b of more) hash.update(b);
  for (const file of fs.readdirSync(MIGRATIONS_DIR).sort()) hash.update(file).update(fs.readFileSync(path.join(MIGRATIONS_DIR, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * A migrated, empty embedded database as a PGlite data-directory tarball, made once per set of
 * migrations (and PGlite version) and kept in the system's temporary folder: each test file's
 * in-memory database starts from it in about 0.3 s, where migrating one takes about 3 s. Jest's
 * workers share it; the first to need it writes it (to a temporary name, then renamed, so a
 * worker never reads half a file).
 */
async function embeddedTemplate(): Promise<Uint8Array> {
  const file = path.join(os.tmpdir(), `pronet-test-db-${migrationsHash(fs.readFileSync(PGLITE_PACKAGE))}.tar`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  const orm = await createOrm({ entities: ENTITIES, databaseUrl: null, embeddedDir: 'memory://' });
  try {
    await migrate(orm);
    const pglite = (await orm.em.getConnection().getNativeClient()) as { dumpDataDir(compression: 'none'): Promise<Blob> };
    const bytes = new Uint8Array(await (await pglite.dumpDataDir('none')).arrayBuffer());
    const partial = `${file}.${process.pid}`;
    fs.writeFileSync(partial, bytes);
    fs.renameSync(partial, file);
    return bytes;
  } finally {
    await orm.close(true);
  }
}

/** `url` naming another database of the same server. */
function onServer(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/**
 * The same on a PostgreSQL server: a migrated, empty database per set of migrations that each test
 * file's database is copied from (CREATE DATABASE ... TEMPLATE: about 0.5 s, where migrating one
 * takes 3-5 s). The first worker to need it migrates a database of its own name, then renames it
 * (a rename needs no one connected, so no worker ever copies half a migration); a worker that
 * loses the race drops its own. A template left by older migrations stays on the server until
 * dropped by hand (`pronet_tpl_*`).
 */
async function serverTemplate(base: string): Promise<string> {
  const name = `pronet_tpl_${migrationsHash()}`;
  const exists = async () => {
    const client = new Client({ connectionString: onServer(base, 'postgres') });
    await client.connect();
    try {
      return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    } finally {
      await client.end();
    }
  };
  if (await exists()) return name;
  const building = `${name}_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${building}"`);
  const orm = await createOrm({ entities: ENTITIES, databaseUrl: onServer(base, building), embeddedDir: 'memory://' });
  try {
    await migrate(orm);
  } finally {
    await orm.close(true);
  }
  try {
    await admin(base, `ALTER DATABASE "${building}" RENAME TO "${name}"`);
  } catch (err) {
    await admin(base, `DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
    if (!(await exists())) throw err;
  }
  return name;
}

export async function createTestDb(): Promise<TestDb> {
  const statements: string[] = [];
  const onQuery = (sql: string) => {
    statements.push(sql);
  };
  const base = process.env.DATABASE_URL;
  if (!base) {
    const orm = await createOrm({
      entities: ENTITIES,
      databaseUrl: null,
      embeddedDir: 'memory://',
      onQuery,
      embeddedTemplate: await embeddedTemplate(),
    });
    await migrate(orm); // nothing left to run when the template is current
    statements.length = 0;
    return { orm, statements, databaseUrl: null, close: () => orm.close(true) };
  }
  const name = `t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${name}" TEMPLATE "${await serverTemplate(base)}"`);
  const databaseUrl = onServer(base, name);
  const orm = await createOrm({ entities: ENTITIES, databaseUrl, embeddedDir: 'memory://', onQuery, poolMax: 20 });
  await migrate(orm); // nothing left to run when the template is current
  statements.length = 0;
  return {
    orm,
    statements,
    databaseUrl,
    async close() {
      await orm.close(true);
      await admin(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
