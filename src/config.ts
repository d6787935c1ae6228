// The one place that reads process.env: parsed and validated once, typed for everyone else.
import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Unset: embedded PGlite under dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  publicBaseUrl: string;
  authBaseUrl: string;
  logLevel: LogLevel;
  introspection: boolean;
  /** Seed the demo tenant on an empty database (never in production). */
  seedDemo: boolean;
  shutdownTimeoutMs: number;
  /** Serve /metrics (METRICS_ENABLED); with METRICS_TOKEN set, only to `Authorization: Bearer <token>`. */
  metricsEnabled: boolean;
  metricsToken: string | null;
  /** Origins allowed by CORS (CORS_ORIGINS, comma-separated; empty: no CORS headers). */
  corsOrigins: string[];
}

export class ConfigError extends Error {}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parsePort(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  return n;
}

function parseBool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function parseUrl(name: string, raw: string): string {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
    return raw.replace(/\/+$/, '');
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
}

function parseDatabaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  if (u.pathname.length <= 1) throw new ConfigError('DATABASE_URL must name a database');
  return raw;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnvRaw = env.NODE_ENV ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnvRaw)) {
    throw new ConfigError(`NODE_ENV must be development, production or test, got "${nodeEnvRaw}"`);
  }
  const nodeEnv = nodeEnvRaw as Config['nodeEnv'];
  const port = parsePort(env.PORT, 4000);
  const host = env.HOST || '0.0.0.0';
  const publicBaseUrl = parseUrl('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL || `http://localhost:${port}`);
  const authBaseUrl = parseUrl('AUTH_BASE_URL', env.AUTH_BASE_URL || publicBaseUrl);
  const logLevel = (env.LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info')) as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const seedDemo = parseBool('SEED_DEMO', env.SEED_DEMO, nodeEnv !== 'production');
  if (nodeEnv === 'production' && seedDemo) throw new ConfigError('SEED_DEMO cannot be enabled in production');
  const shutdownTimeoutMs = Number(env.SHUTDOWN_TIMEOUT_MS || 10000);
  if (!Number.isInteger(shutdownTimeoutMs) || shutdownTimeoutMs <= 0) throw new ConfigError('SHUTDOWN_TIMEOUT_MS must be a positive integer');
  return {
    nodeEnv,
    port,
    host,
    databaseUrl: parseDatabaseUrl(env.DATABASE_URL),
    dataDir: path.resolve(env.DATA_DIR || './.data'),
    publicBaseUrl,
    authBaseUrl,
    logLevel,
    introspection: parseBool('GRAPHQL_INTROSPECTION', env.GRAPHQL_INTROSPECTION, true),
    seedDemo,
    shutdownTimeoutMs,
    metricsEnabled: parseBool('METRICS_ENABLED', env.METRICS_ENABLED, true),
    metricsToken: env.METRICS_TOKEN || null,
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean).map((o) => parseUrl('CORS_ORIGINS', o)),
  };
}
