// Settings production insists on that tests of production start-up have to supply, and empty
// databases for tests of the compiled service's own start-up (migrations included): alone, with a
// data folder (emptyDeployment), or with the compiled service started on both (compiledService).
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { generateVAPIDKeys } from 'web-push';
import { admin } from './db';
import { spawnService, type SpawnedService } from './spawn';

/** A fresh VAPID key pair and subject (Web Push), as production requires them. */
export function vapidSettings(): Record<'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT', string> {
  // web-push pads a private key with leading zero bytes to 32 (ECDH's getPrivateKey() drops them,
  // which production start-up refuses, about once in 256 pairs).
  const vapid = generateVAPIDKeys();
  return {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.org',
  };
}

/** `NODE_ENV=production` with only the variables it requires (fresh keys and secrets, none of the demo's). */
export function productionEnv(): Record<string, string> {
  const jwk = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return {
    NODE_ENV: 'production',
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ ...jwk, kid: 'k1' }] }),
    LOGIN_CLIENT_ID: 'mobile',
    LOGIN_CLIENT_SECRET: crypto.randomBytes(24).toString('base64url'),
    LOGIN_CLIENT_REDIRECT_URIS: 'com.example.app:/oauth/ssosignedin',
    ...vapidSettings(),
  };
}

export interface EmptyDatabase {
  url: string;
  /** Runs one statement on it (a fresh connection each time). */
  query<T = any>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A new database with nothing in it (not even the migrations) on DATABASE_URL's server. */
export async function emptyDatabase(): Promise<EmptyDatabase> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('emptyDatabase needs DATABASE_URL (a real PostgreSQL server)');
  const name = `t_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  await admin(base, `CREATE DATABASE "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const url = u.toString();
  return {
    url,
    async query(sql, params) {
      const client = new Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows;
      } finally {
        await client.end();
      }
    },
    drop: () => admin(base, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** What the compiled service starts on in a test of its own start-up: a data folder and a database, both empty. */
export interface EmptyDeployment {
  dataDir: string;
  /** An empty database on DATABASE_URL's server; null without one (the service then runs the embedded database under dataDir). */
  db: EmptyDatabase | null;
  /** DATA_DIR, and DATABASE_URL when there is a server: to spread into the service's environment. */
  env: { DATA_DIR: string; DATABASE_URL?: string };
  /** Drops the database and removes the folder. */
  remove(): Promise<void>;
}

export async function emptyDeployment(): Promise<EmptyDeployment> {
  const db = process.env.DATABASE_URL ? await emptyDatabase() : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-'));
  return {
    dataDir,
    db,
    env: { DATA_DIR: dataDir, ...(db ? { DATABASE_URL: db.url } : {}) },
    async remove() {
      await db?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface CompiledService extends EmptyDeployment {
  service: SpawnedService;
  /** Kills the service if the test left it running (a test that wants a clean stop asserts service.stop()), then remove(). */
  close(): Promise<void>;
}

/** The compiled service started with `env` on an emptyDeployment(); if it does not start, the deployment is removed. */
export async function compiledService(env: NodeJS.ProcessEnv): Promise<CompiledService> {
  const deployment = await emptyDeployment();
  let service: SpawnedService;
  try {
    service = await spawnService({ ...env, ...deployment.env });
  } catch (err) {
    await deployment.remove();
    throw err;
  }
  return {
    ...deployment,
    service,
    async close() {
      const { child } = service;
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      await deployment.remove();
    },
  };
}
