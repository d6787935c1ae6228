// A fresh database for each test file: a new PostgreSQL database on the server named by
// DATABASE_URL (CI), or a throwaway in-memory PGlite otherwise. Real SQL either way.
import crypto from 'node:crypto';
import { Client } from 'pg';
import type { MikroORM } from '@mikro-orm/core';
import { createOrm, migrate } from '../../src/db/orm';

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

export async function createTestDb(): Promise<TestDb> {
  const statements: string[] = [];
  const onQuery = (sql: string) => {
    statements.push(sql);
  };
  const base = process.env.DATABASE_URL;
  if (!base) {
    const orm = await createOrm({ databaseUrl: null, embeddedDir: 'memory://', onQuery });
    await migrate(orm);
    statements.length = 0;
    return { orm, statements, databaseUrl: null, close: () => orm.close(true) };
  }
  const name = `t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const databaseUrl = u.toString();
  const orm = await createOrm({ databaseUrl, embeddedDir: 'memory://', onQuery, poolMax: 20 });
  await migrate(orm);
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
