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
  /** Identity: token endpoint, keys, token cache, inbound federation (see loadAuthConfig). */
  auth: AuthConfig;
  /** Largest file uploadSmartFile accepts (UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** Largest tile image uploadTileImage accepts (UPLOAD_TILE_MAX_BYTES). */
  tileMaxBytes: number;
  /** MIME types, detected from the content's magic bytes, that uploadSmartFile accepts (UPLOAD_ALLOWED_TYPES). */
  uploadAllowedTypes: string[];
  /** SMTP server for notification e-mails (smtp:// or smtps://); null: log-only transport. */
  smtpUrl: string | null;
  /** From address of notification e-mails. */
  mailFrom: string;
  /** How often the scheduler looks for due notifications; 0 turns it off. */
  schedulerIntervalMs: number;
  /** OTLP/HTTP collector base URL (OTEL_EXPORTER_OTLP_ENDPOINT); null: tracing off, no SDK started. */
  otlpEndpoint: string | null;
  /** service.name on exported spans (OTEL_SERVICE_NAME). */
  otelServiceName: string;
  /** Requests per minute per user and per client address (RATE_LIMIT_*). */
  rateLimits: RateLimitConfig;
}

export interface RateLimitConfig {
  login: { perUser: number; perAddress: number };
  recommended: { perUser: number; perAddress: number };
  upload: { perUser: number; perAddress: number };
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

function parseBytes(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  // Sizes are stored as 32-bit integers (smartFileBytes is a GraphQL Int).
  if (!Number.isSafeInteger(n) || n <= 0 || n > 2_147_483_647) throw new ConfigError(`${name} must be a whole number of bytes from 1 to 2147483647, got "${raw}"`);
  return n;
}

/** Office documents, PDF, common images, MP4 video and MP3 audio. */
export const DEFAULT_UPLOAD_TYPES = [
  'application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'video/mp4', 'audio/mpeg',
];

function parseTypes(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return DEFAULT_UPLOAD_TYPES;
  const types = raw.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean);
  const bad = types.find((t) => !/^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(t));
  if (bad) throw new ConfigError(`UPLOAD_ALLOWED_TYPES must be comma-separated MIME types, got "${bad}"`);
  return types;
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
  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\/\S+$/.test(smtpUrl)) throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  const schedulerIntervalMs = Number(env.SCHEDULER_INTERVAL_MS || 10000);
  if (!Number.isInteger(schedulerIntervalMs) || schedulerIntervalMs < 0) throw new ConfigError('SCHEDULER_INTERVAL_MS must be a non-negative integer');
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
    auth: loadAuthConfig(env, { nodeEnv, authBaseUrl, publicBaseUrl, seedDemo }),
    uploadMaxBytes: parseBytes('UPLOAD_MAX_BYTES', env.UPLOAD_MAX_BYTES, 25 * 1024 * 1024),
    tileMaxBytes: parseBytes('UPLOAD_TILE_MAX_BYTES', env.UPLOAD_TILE_MAX_BYTES, 5 * 1024 * 1024),
    uploadAllowedTypes: parseTypes(env.UPLOAD_ALLOWED_TYPES),
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Pronet <no-reply@localhost>',
    schedulerIntervalMs,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT ? parseUrl('OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT) : null,
    otelServiceName: env.OTEL_SERVICE_NAME || 'pronet-service',
    rateLimits: loadRateLimits(env),
  };
}

// An address may be a NAT shared by a whole office, hence its larger share.
function loadRateLimits(env: NodeJS.ProcessEnv): RateLimitConfig {
  const pair = (name: string, perUser: number, perAddress: number) => ({
    perUser: parseIntIn(`RATE_LIMIT_${name}_PER_MINUTE`, env[`RATE_LIMIT_${name}_PER_MINUTE`], perUser, 1, 1_000_000),
    perAddress: parseIntIn(`RATE_LIMIT_${name}_PER_ADDRESS_PER_MINUTE`, env[`RATE_LIMIT_${name}_PER_ADDRESS_PER_MINUTE`], perAddress, 1, 1_000_000),
  });
  return { login: pair('LOGIN', 30, 300), recommended: pair('RECOMMENDED', 120, 1200), upload: pair('UPLOADS', 60, 600) };
}

// Identity settings. Demo defaults exist only outside production; production refuses to
// start without its own keys and secrets.

export interface InboundProviderConfig {
  /** Stable name, stored with each pending authorization. */
  id: string;
  /** OpenID Connect issuer; its metadata is discovered from /.well-known/openid-configuration. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The organisation's e-mail domains; empty: the provider for every other address. */
  emailDomains: string[];
}

export interface AuthConfig {
  /** Private EC P-256 JWK set from AUTH_SIGNING_KEYS (the first key signs); null: generated. */
  signingKeys: { keys: Record<string, unknown>[] } | null;
  /** `aud` of access tokens. */
  audience: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  ssoTokenTtlSeconds: number;
  /** Partner audiences an outbound SSO token may be issued for; the first is the default. */
  ssoAudiences: string[];
  /** The client the login-scheme operation hands out; kept in the oauth_client table at start-up. */
  loginClient: { clientId: string; clientSecret: string; redirectUris: string[] };
  redisUrl: string | null;
  redisKeyPrefix: string;
  inboundProviders: InboundProviderConfig[];
  /** Mount the development OpenID provider under /dev-idp (demo mode only). */
  devIdp: boolean;
  bruteForce: {
    maxFailuresPerAccount: number;
    maxFailuresPerAddress: number;
    windowSeconds: number;
    lockoutSeconds: number;
    /** Each failure after the first answers this much later (capped at 3 s). */
    delayStepMs: number;
  };
}

export const DEMO_LOGIN_CLIENT = { clientId: 'demo-mobile', clientSecret: 'demo-mobile-secret', redirectUri: 'com.demo.mobile:/oauth/ssosignedin' };
export const DEV_IDP_CLIENT = { clientId: 'pronet-dev-idp', clientSecret: 'dev-idp-secret' };

function parseIntIn(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  return n;
}

function parseList(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

function parseRedirectUri(name: string, raw: string): string {
  try {
    new URL(raw);
  } catch {
    throw new ConfigError(`${name}: "${raw}" is not a URI`);
  }
  if (!raw.endsWith('ssosignedin')) throw new ConfigError(`${name}: redirect URIs must end with ssosignedin, got "${raw}"`);
  return raw;
}

function parseSigningKeys(raw: string | undefined): AuthConfig['signingKeys'] {
  if (raw === undefined || raw === '') return null;
  let parsed: any;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError('AUTH_SIGNING_KEYS must be a JSON Web Key Set');
  }
  const keys = Array.isArray(parsed?.keys) ? parsed.keys : parsed && typeof parsed === 'object' && parsed.kty ? [parsed] : null;
  if (!keys?.length) throw new ConfigError('AUTH_SIGNING_KEYS must hold at least one key');
  for (const k of keys) {
    if (k?.kty !== 'EC' || k.crv !== 'P-256' || typeof k.d !== 'string' || typeof k.kid !== 'string' || !k.kid) {
      throw new ConfigError('AUTH_SIGNING_KEYS: every key must be a private EC P-256 JWK with a kid (ES256)');
    }
  }
  return { keys };
}

function parseProviders(env: NodeJS.ProcessEnv, nodeEnv: Config['nodeEnv'], devIdp: boolean, authBaseUrl: string): InboundProviderConfig[] {
  let list: InboundProviderConfig[];
  if (env.OIDC_PROVIDERS) {
    let parsed: any;
    try {
      parsed = JSON.parse(env.OIDC_PROVIDERS);
    } catch {
      throw new ConfigError('OIDC_PROVIDERS must be a JSON array of {id, issuer, clientId, clientSecret, emailDomains}');
    }
    if (!Array.isArray(parsed)) throw new ConfigError('OIDC_PROVIDERS must be a JSON array');
    list = parsed.map((p: any, i: number) => {
      if (!p || typeof p.issuer !== 'string' || typeof p.clientId !== 'string' || typeof p.clientSecret !== 'string') {
        throw new ConfigError(`OIDC_PROVIDERS[${i}] needs issuer, clientId and clientSecret`);
      }
      const id = typeof p.id === 'string' && /^[\w.-]{1,50}$/.test(p.id) ? p.id : `provider-${i + 1}`;
      const domains = Array.isArray(p.emailDomains) ? p.emailDomains.map((d: unknown) => String(d).toLowerCase()) : [];
      return { id, issuer: parseUrl(`OIDC_PROVIDERS[${i}].issuer`, p.issuer), clientId: p.clientId, clientSecret: p.clientSecret, emailDomains: domains };
    });
  } else if (env.OIDC_ISSUER) {
    if (!env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) throw new ConfigError('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    list = [{
      id: 'default',
      issuer: parseUrl('OIDC_ISSUER', env.OIDC_ISSUER),
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      emailDomains: parseList(env.OIDC_EMAIL_DOMAINS).map((d) => d.toLowerCase()),
    }];
  } else if (devIdp) {
    list = [{ id: 'dev-idp', issuer: `${authBaseUrl}/dev-idp`, ...DEV_IDP_CLIENT, emailDomains: [] }];
  } else {
    list = [];
  }
  if (nodeEnv === 'production') {
    for (const p of list) {
      if (!p.issuer.startsWith('https://')) throw new ConfigError(`OIDC issuer ${p.issuer} must use https in production`);
      if (p.clientSecret === DEV_IDP_CLIENT.clientSecret) throw new ConfigError('The development identity provider secret cannot be used in production');
    }
  }
  return list;
}

export function loadAuthConfig(
  env: NodeJS.ProcessEnv,
  base: { nodeEnv: Config['nodeEnv']; authBaseUrl: string; publicBaseUrl: string; seedDemo: boolean },
): AuthConfig {
  const production = base.nodeEnv === 'production';
  const signingKeys = parseSigningKeys(env.AUTH_SIGNING_KEYS);
  if (production && !signingKeys) throw new ConfigError('AUTH_SIGNING_KEYS is required in production');

  const clientId = env.LOGIN_CLIENT_ID || (production ? '' : DEMO_LOGIN_CLIENT.clientId);
  const clientSecret = env.LOGIN_CLIENT_SECRET || (production ? '' : DEMO_LOGIN_CLIENT.clientSecret);
  if (!clientId || !clientSecret) throw new ConfigError('LOGIN_CLIENT_ID and LOGIN_CLIENT_SECRET are required in production');
  if (production && (clientSecret === DEMO_LOGIN_CLIENT.clientSecret || clientSecret.length < 32)) {
    throw new ConfigError('LOGIN_CLIENT_SECRET must be at least 32 characters and not the demo secret in production');
  }
  if (clientId.length > 100) throw new ConfigError('LOGIN_CLIENT_ID must be at most 100 characters');
  const redirectRaw = env.LOGIN_CLIENT_REDIRECT_URIS ? parseList(env.LOGIN_CLIENT_REDIRECT_URIS) : production ? [] : [DEMO_LOGIN_CLIENT.redirectUri];
  if (!redirectRaw.length) throw new ConfigError('LOGIN_CLIENT_REDIRECT_URIS is required in production');
  const redirectUris = redirectRaw.map((u) => parseRedirectUri('LOGIN_CLIENT_REDIRECT_URIS', u));

  let redisUrl: string | null = null;
  if (env.REDIS_URL) {
    try {
      const u = new URL(env.REDIS_URL);
      if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new Error('protocol');
    } catch {
      throw new ConfigError('REDIS_URL must be a redis:// or rediss:// URL');
    }
    redisUrl = env.REDIS_URL;
  }

  const devIdp = parseBool('DEV_IDP', env.DEV_IDP, base.seedDemo && base.nodeEnv === 'development');
  if (production && devIdp) throw new ConfigError('DEV_IDP cannot be enabled in production');

  return {
    signingKeys,
    audience: env.AUTH_AUDIENCE || base.publicBaseUrl,
    accessTokenTtlSeconds: parseIntIn('ACCESS_TOKEN_TTL_SECONDS', env.ACCESS_TOKEN_TTL_SECONDS, 3600, 60, 86400),
    refreshTokenTtlSeconds: parseIntIn('REFRESH_TOKEN_TTL_SECONDS', env.REFRESH_TOKEN_TTL_SECONDS, 30 * 86400, 300, 365 * 86400),
    authorizationCodeTtlSeconds: parseIntIn('AUTHORIZATION_CODE_TTL_SECONDS', env.AUTHORIZATION_CODE_TTL_SECONDS, 60, 1, 600),
    ssoTokenTtlSeconds: parseIntIn('SSO_TOKEN_TTL_SECONDS', env.SSO_TOKEN_TTL_SECONDS, 300, 10, 3600),
    ssoAudiences: env.SSO_AUDIENCES !== undefined ? parseList(env.SSO_AUDIENCES) : production ? [] : ['demo-partner'],
    loginClient: { clientId, clientSecret, redirectUris },
    redisUrl,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'pronet:',
    inboundProviders: parseProviders(env, base.nodeEnv, devIdp, base.authBaseUrl),
    devIdp,
    bruteForce: {
      maxFailuresPerAccount: parseIntIn('LOGIN_MAX_FAILURES_PER_ACCOUNT', env.LOGIN_MAX_FAILURES_PER_ACCOUNT, 5, 1, 1000),
      maxFailuresPerAddress: parseIntIn('LOGIN_MAX_FAILURES_PER_ADDRESS', env.LOGIN_MAX_FAILURES_PER_ADDRESS, 30, 1, 100000),
      windowSeconds: parseIntIn('LOGIN_FAILURE_WINDOW_SECONDS', env.LOGIN_FAILURE_WINDOW_SECONDS, 900, 1, 86400),
      lockoutSeconds: parseIntIn('LOGIN_LOCKOUT_SECONDS', env.LOGIN_LOCKOUT_SECONDS, 900, 1, 86400),
      delayStepMs: parseIntIn('LOGIN_FAILURE_DELAY_MS', env.LOGIN_FAILURE_DELAY_MS, 250, 0, 3000),
    },
  };
}
