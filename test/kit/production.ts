// Settings production insists on that tests of production start-up have to supply, and empty
// databases for tests of the compiled service's own start-up (migrations included).
import crypto from 'node:crypto';
import { Client } from 'pg';
import { generateVAPIDKeys } from 'web-push';
import { admin } from './db';

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
