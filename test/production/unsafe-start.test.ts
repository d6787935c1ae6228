// Production refuses what it cannot run safely (issue 52). Without DATABASE_URL neither the service
// nor the migration job starts on the embedded database, unless DATABASE_EMBEDDED=true asks for it by
// name; the placeholders of deploy/compose/.env.example are refused, each naming its variable (a
// password inside a connection URL too); and the compose file's migration job is given only what
// migrations need (no key, no secret, no Redis) and migrates with just that.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, loadMigrationConfig, MIGRATION_VARIABLES } from '../../src/config';
import { composeEnvironment, exampleValues } from '../deploy/compose-env';
import { emptyDeployment, productionEnv } from '../kit/production';
import { MIGRATE_ENTRY, runToExit, SERVER_ENTRY, spawnService, type SpawnedService } from '../kit/spawn';

const NO_DATABASE =
  'Configuration error: DATABASE_URL is required in production (DATABASE_EMBEDDED=true runs the embedded database under DATA_DIR instead)\n';

const dataDirs: string[] = [];
const newDataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-unsafe-'));
  dataDirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** The problems a ConfigError lists, a line each, sorted. */
function problemsOf(load: () => unknown): string[] {
  try {
    load();
  } catch (err) {
    if (err instanceof ConfigError) return err.message.split('\n').sort();
    throw err;
  }
  return [];
}

describe('production without DATABASE_URL', () => {
  beforeAll(() => expect(fs.existsSync(SERVER_ENTRY)).toBe(true)); // npm test builds before running jest

  it('when it is unset, then the service and the migration job exit 2 naming it, and write nothing under DATA_DIR', async () => {
    const dataDir = newDataDir();
    const env = { ...productionEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    // Today's service would start on the embedded database and keep running: cut it short.
    const [service, job] = await Promise.all([runToExit(SERVER_ENTRY, env, 30_000), runToExit(MIGRATE_ENTRY, env, 30_000)]);
    for (const exited of [service, job])
      expect({ code: exited.code, stderr: exited.stderr, stdout: exited.lines }).toEqual({ code: 2, stderr: NO_DATABASE, stdout: [] });
    expect(fs.readdirSync(dataDir)).toEqual([]);
  }, 60_000);

  it('when DATABASE_EMBEDDED=true asks for the embedded database, then the service starts on it', async () => {
    const dataDir = newDataDir();
    let service: SpawnedService | undefined;
    try {
      service = await spawnService({ ...productionEnv(), DATA_DIR: dataDir, LOG_LEVEL: 'info', DATABASE_EMBEDDED: 'true' });
      const listening = service.lines.find((l) => l?.msg === 'listening');
      expect(listening.database).toBe(`embedded (${dataDir})`);
      const ready = await fetch(`${service.baseUrl}/readyz`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ready', database: 'up' } });
      expect(await service.stop()).toBe(0);
      expect(service.stderr()).toBe('');
    } finally {
      if (service?.child.exitCode === null) service.child.kill('SIGKILL');
    }
  }, 120_000);

  it('when DATABASE_EMBEDDED=true is set beside DATABASE_URL, then either reading refuses the pair', () => {
    const env = { ...productionEnv(), DATABASE_URL: 'postgres://pronet:s3cret@postgres:5432/pronet', DATABASE_EMBEDDED: 'true' };
    const pair = 'DATABASE_EMBEDDED=true and DATABASE_URL exclude each other: set one';
    expect(problemsOf(() => loadConfig(env))).toEqual([pair]);
    expect(problemsOf(() => loadMigrationConfig(env))).toEqual([pair]);
  });
});

describe('the placeholders of deploy/compose/.env.example, in production', () => {
  const placeholder = (name: string, value: string) => `${name} is "${value}", a placeholder of deploy/compose/.env.example: replace it`;
  const placeholderPassword = (name: string) =>
    `${name} has the password "replace-with-openssl-rand-hex-24", a placeholder of deploy/compose/.env.example: replace it`;

  it("when a replica is given the example's values, then start-up refuses each placeholder, naming its variable", () => {
    const env = composeEnvironment('pronet-1');
    expect(problemsOf(() => loadConfig(env, { ownDatabase: true }))).toEqual(
      [
        placeholderPassword('DATABASE_URL'),
        placeholderPassword('DATABASE_DIRECT_URL'),
        placeholderPassword('DATABASE_REPLICA_URLS'),
        placeholderPassword('REDIS_URL'),
        placeholder('AUTH_SIGNING_KEYS', 'replace-with-a-jwk-set'),
        placeholder('LOGIN_CLIENT_ID', 'replace-with-client-id'),
        placeholder('LOGIN_CLIENT_SECRET', 'replace-with-a-secret-of-32-or-more-characters'),
        placeholder('VAPID_PUBLIC_KEY', 'replace-with-vapid-public-key'),
        placeholder('VAPID_PRIVATE_KEY', 'replace-with-vapid-private-key'),
      ].sort(),
    );
  });

  it("when the migration job is given the example's password, then it refuses it", () => {
    expect(problemsOf(() => loadMigrationConfig(composeEnvironment('migrate')))).toEqual([placeholderPassword('DATABASE_URL')]);
  });

  it('when every placeholder is replaced, then the replica and the migration job take the file', () => {
    const own = productionEnv();
    const values = exampleValues();
    for (const [name, value] of Object.entries({
      POSTGRES_PASSWORD: crypto.randomBytes(24).toString('hex'),
      REDIS_PASSWORD: crypto.randomBytes(24).toString('hex'),
      AUTH_SIGNING_KEYS: own.AUTH_SIGNING_KEYS,
      LOGIN_CLIENT_ID: own.LOGIN_CLIENT_ID,
      LOGIN_CLIENT_SECRET: crypto.randomBytes(32).toString('base64url'),
      VAPID_PUBLIC_KEY: own.VAPID_PUBLIC_KEY,
      VAPID_PRIVATE_KEY: own.VAPID_PRIVATE_KEY,
    }))
      values.set(name, value);
    expect(loadConfig(composeEnvironment('pronet-1', values), { ownDatabase: true }).auth.loginClient.clientId).toBe('mobile');
    expect(loadMigrationConfig(composeEnvironment('migrate', values)).nodeEnv).toBe('production');
  });
});

const server = Boolean(process.env.DATABASE_URL);

describe("the compose file's migration job", () => {
  it('is given only variables migrations read: no key, secret, client or Redis setting', () => {
    expect(Object.keys(composeEnvironment('migrate')).sort()).toEqual(['DATABASE_POOLING', 'DATABASE_URL', 'LOG_LEVEL', 'NODE_ENV']);
    for (const name of Object.keys(composeEnvironment('migrate'))) expect(MIGRATION_VARIABLES).toContain(name);
  });

  (server ? it : it.skip)(
    'when run with just that environment on an empty database, then it migrates it',
    async () => {
      const deployment = await emptyDeployment();
      try {
        // The compose network's PostgreSQL stands for the test's server.
        const env = { ...composeEnvironment('migrate'), ...deployment.env };
        const job = await runToExit(MIGRATE_ENTRY, env, 60_000);
        expect({ code: job.code, stderr: job.stderr }).toEqual({ code: 0, stderr: '' });
        expect(job.lines.map((l) => l?.msg)).toContain('migrations applied');
        expect(await deployment.db!.query("select to_regclass('public.app_user') is not null as migrated")).toEqual([{ migrated: true }]);
      } finally {
        await deployment.remove();
      }
    },
    90_000,
  );
});
