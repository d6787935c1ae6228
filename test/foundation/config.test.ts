import crypto from 'node:crypto';
import { loadConfig, ConfigError } from '../../src/config';
import { vapidSettings } from '../kit/production';

/** The settings production insists on (no demo keys or secrets). */
function productionEnv(): Record<string, string> {
  const jwk = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://h/db',
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ ...jwk, kid: 'k1' }] }),
    LOGIN_CLIENT_ID: 'mobile',
    LOGIN_CLIENT_SECRET: 'x'.repeat(40),
    LOGIN_CLIENT_REDIRECT_URIS: 'com.example.app:/oauth/ssosignedin',
    ...vapidSettings(),
  };
}

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 4000,
      databaseUrl: null,
      publicBaseUrl: 'http://localhost:4000',
      authBaseUrl: 'http://localhost:4000',
      logLevel: 'info',
      introspection: true,
      seedDemo: true,
      nodeEnv: 'development',
    });
    expect(c.dataDir).toMatch(/\.data$/);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ DATABASE_URL: 'postgres://localhost' }, 'DATABASE_URL must name a database'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL must be an http(s) URL, got "ftp://x"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV must be development, production or test, got "staging"'],
    [{ GRAPHQL_INTROSPECTION: 'maybe' }, 'GRAPHQL_INTROSPECTION must be true or false, got "maybe"'],
  ])('refuses %p with a clear message', (env, message) => {
    expect(() => loadConfig(env as any)).toThrow(new ConfigError(message));
  });

  it('reads on the replicas of DATABASE_REPLICA_URLS, which need DATABASE_URL (the primary); none by default', () => {
    expect(loadConfig({})).toMatchObject({ databaseReplicaUrls: [], databaseReplicaMaxLagMs: 1000, databaseReplicaTimeoutMs: 1000 });
    const env = {
      DATABASE_URL: 'postgres://p/db',
      DATABASE_REPLICA_URLS: 'postgres://r1/db, postgres://r2/db',
      DATABASE_REPLICA_MAX_LAG_MS: '250',
      DATABASE_REPLICA_TIMEOUT_MS: '400',
    };
    expect(loadConfig(env)).toMatchObject({
      databaseReplicaUrls: ['postgres://r1/db', 'postgres://r2/db'],
      databaseReplicaMaxLagMs: 250,
      databaseReplicaTimeoutMs: 400,
    });
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://r1/db' })).toThrow(
      new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL (the primary)'),
    );
  });

  it.each([
    [
      'several variables are bad',
      'one error names every one of them, a line each',
      { PORT: 'abc', LOG_LEVEL: 'loud', GRAPHQL_INTROSPECTION: 'maybe' },
      [
        'PORT must be an integer from 0 to 65535, got "abc"',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
        'GRAPHQL_INTROSPECTION must be true or false, got "maybe"',
      ],
    ],
    [
      'bad values and a broken rule across variables meet',
      'both are reported',
      { PORT: '-1', GRAPHQL_INTROSPECTION: 'false', GRAPHQL_EXPLORER: 'true' },
      [
        'PORT must be an integer from 0 to 65535, got "-1"',
        'GRAPHQL_EXPLORER=true needs GRAPHQL_INTROSPECTION=true (it reads the schema by introspection)',
      ],
    ],
    // VAPID_PUBLIC_KEY refused stands at its default (unset): "must be set together" would be noise.
    [
      'a variable of a rule across variables is bad',
      'only its own error is reported, not the rule broken by its default',
      { ...productionEnv(), VAPID_PUBLIC_KEY: 'abc', SEED_DEMO: 'true' },
      ['SEED_DEMO cannot be enabled in production', 'VAPID_PUBLIC_KEY must be a base64url uncompressed P-256 public key (65 bytes)'],
    ],
  ])('when %s, then %s', (_when, _then, env: Record<string, string>, lines) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(lines.join('\n')));
  });

  it('never seeds demo data in production', () => {
    expect(loadConfig(productionEnv()).seedDemo).toBe(false);
    expect(() => loadConfig({ ...productionEnv(), SEED_DEMO: 'true' })).toThrow(
      new ConfigError('SEED_DEMO cannot be enabled in production'),
    );
  });

  it('refuses production without its own keys and secrets', () => {
    const { AUTH_SIGNING_KEYS: _k, ...noKeys } = productionEnv();
    expect(() => loadConfig(noKeys)).toThrow(new ConfigError('AUTH_SIGNING_KEYS is required in production'));
    expect(() => loadConfig({ ...productionEnv(), LOGIN_CLIENT_SECRET: 'demo-mobile-secret' })).toThrow(
      new ConfigError('LOGIN_CLIENT_SECRET must be at least 32 characters and not the demo secret in production'),
    );
  });
});
