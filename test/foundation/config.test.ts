import { loadConfig, ConfigError } from '../../src/config';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 4000, databaseUrl: null, publicBaseUrl: 'http://localhost:4000', authBaseUrl: 'http://localhost:4000', logLevel: 'info', introspection: true, seedDemo: true, nodeEnv: 'development' });
    expect(c.dataDir).toMatch(/\.data$/);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be an integer from 0 to 65535, got "abc"'],
    [{ DATABASE_URL: 'mysql://x/y' }, 'DATABASE_URL must be a postgres:// or postgresql:// URL'],
    [{ DATABASE_URL: 'postgres://localhost' }, 'DATABASE_URL must name a database'],
    [{ PUBLIC_BASE_URL: 'ftp://x' }, 'PUBLIC_BASE_URL must be an http(s) URL, got "ftp://x"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV must be development, production or test, got "staging"'],
    [{ NODE_ENV: 'production', SEED_DEMO: 'true' }, 'SEED_DEMO cannot be enabled in production'],
    [{ GRAPHQL_INTROSPECTION: 'maybe' }, 'GRAPHQL_INTROSPECTION must be true or false, got "maybe"'],
  ])('refuses %p with a clear message', (env, message) => {
    expect(() => loadConfig(env as any)).toThrow(new ConfigError(message));
  });

  it('never seeds demo data in production by default', () => {
    expect(loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://h/db' }).seedDemo).toBe(false);
  });
});
