// The one place that reads process.env. Every variable is declared once, in VARIABLES: its zod
// type, its default, what it does, whether it is a secret and what production insists on.
// loadConfig() parses the environment through those declarations (bad values stop start-up with
// one message naming every one of them, a line each), and scripts/config-docs.ts prints the table
// of docs/configuration.md from the same list.
import crypto from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
const NODE_ENVS = ['development', 'production', 'test'] as const;

export interface Config {
  nodeEnv: (typeof NODE_ENVS)[number];
  port: number;
  host: string;
  /** Unset: embedded PGlite under dataDir. */
  databaseUrl: string | null;
  dataDir: string;
  publicBaseUrl: string;
  authBaseUrl: string;
  logLevel: LogLevel;
  /** LOG_FORMAT: one JSON object a line, or lines a person reads (time, level, message). */
  logFormat: LogFormat;
  /** Schema introspection (GRAPHQL_INTROSPECTION); without it `_service` answers only the router's federation token. */
  introspection: boolean;
  /** "Did you mean ...?" in GraphQL validation errors (GRAPHQL_SUGGESTIONS). */
  suggestions: boolean;
  /** Apollo Sandbox as /graphql's landing page (GRAPHQL_SANDBOX); needs introspection. */
  sandbox: boolean;
  /** The bundled explorer at /graphiql (GRAPHQL_EXPLORER); needs introspection. */
  explorer: boolean;
  /** Apply pending migrations at start-up, under the migration lock (MIGRATE_ON_START). */
  migrateOnStart: boolean;
  /** DATABASE_DIRECT_URL: a session connection to the same database, for what a transaction pooler cannot carry; null: DATABASE_URL. */
  databaseDirectUrl: string | null;
  /** DATABASE_POOLING: how DATABASE_URL's connections are pooled ('transaction': no named prepared statements, no session state). */
  databasePooling: 'session' | 'transaction';
  /** DATABASE_REPLICA_URLS: streaming replicas of DATABASE_URL that take the reads (src/db/replicas.ts); empty: none. */
  databaseReplicaUrls: string[];
  /** DATABASE_REPLICA_MAX_LAG_MS: a replica further behind than this takes no reads until it catches up. */
  databaseReplicaMaxLagMs: number;
  /** DATABASE_REPLICA_TIMEOUT_MS: a statement or connection attempt on a replica fails after this; the read runs on the primary. */
  databaseReplicaTimeoutMs: number;
  /** After SIGTERM, /readyz answers 503 and requests are still served this long before the server closes (SHUTDOWN_DRAIN_MS). */
  shutdownDrainMs: number;
  /** Start even when the database holds the demo tenant's published credentials (ALLOW_DEMO_CREDENTIALS). */
  allowDemoCredentials: boolean;
  /** Seed the demo tenant on an empty database (never in production). */
  seedDemo: boolean;
  shutdownTimeoutMs: number;
  /** Serve /metrics (METRICS_ENABLED); with METRICS_TOKEN set, only to `Authorization: Bearer <token>`. */
  metricsEnabled: boolean;
  metricsToken: string | null;
  /** METRICS_PORT: /metrics on a listener of its own at this port (not on PORT); null: on PORT. */
  metricsPort: number | null;
  /** Origins allowed by CORS (CORS_ORIGINS, comma-separated; empty: no CORS headers). */
  corsOrigins: string[];
  /** Identity: token endpoint, keys, token cache, inbound federation. */
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
  /** Jobs each queue's worker of this instance runs at once (QUEUE_WORKERS); 0: the instance runs no jobs. */
  queueWorkers: number;
  /** How often an idle queue worker looks for jobs (QUEUE_POLL_MS). */
  queuePollMs: number;
  /** OTLP/HTTP collector base URL (OTEL_EXPORTER_OTLP_ENDPOINT); null: tracing off, no SDK started. */
  otlpEndpoint: string | null;
  /** service.name on exported spans (OTEL_SERVICE_NAME). */
  otelServiceName: string;
  /** Requests per minute per user and per client address (RATE_LIMIT_*). */
  rateLimits: RateLimitConfig;
  /** Web Push (VAPID_*). */
  push: PushConfig;
  /** X-Forwarded-For hops to trust for the client's address (TRUST_PROXY_HOPS); 0: the socket's address. */
  trustProxyHops: number;
  /** Bounds of the live transports (LIVE_*): subscriptions over WebSocket and Server-Sent Events. */
  live: LiveLimits;
  /** Bytes the automatic-persisted-query cache may hold (GRAPHQL_APQ_CACHE_BYTES). */
  apqCacheBytes: number;
  /** What /graphql does with a document outside the trusted manifest (GRAPHQL_TRUSTED_DOCUMENTS). */
  trustedDocuments: TrustedDocumentsMode;
  /** A manifest of first-party clients' own documents, trusted too (GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST); null: none. */
  trustedDocumentsManifest: string | null;
}

export const TRUSTED_DOCUMENT_MODES = ['off', 'log', 'enforce'] as const;
export type TrustedDocumentsMode = (typeof TRUSTED_DOCUMENT_MODES)[number];

export interface LiveLimits {
  /** Subscriptions one WebSocket connection may hold at once. */
  maxSubscriptionsPerConnection: number;
  /** Live connections (WebSockets and event streams) one service auth token may hold on this instance. */
  maxConnectionsPerToken: number;
  /** Live connections this instance holds in all. */
  maxConnections: number;
  /** Bytes waiting to be sent to one client before it is closed as too slow a reader. */
  maxBufferedBytes: number;
}

export interface PushConfig {
  /** The VAPID key pair (base64url: the uncompressed P-256 public key, the 32-byte private key); null: generated. */
  vapidKeys: { publicKey: string; privateKey: string } | null;
  /** `sub` of the VAPID token: a mailto: or https: URL where push services can reach the operator. */
  vapidSubject: string;
}

export interface RateLimitConfig {
  login: { perUser: number; perAddress: number };
  recommended: { perUser: number; perAddress: number };
  upload: { perUser: number; perAddress: number };
}

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

export class ConfigError extends Error {}

export const DEMO_LOGIN_CLIENT = {
  clientId: 'demo-mobile',
  clientSecret: 'demo-mobile-secret',
  redirectUri: 'com.demo.mobile:/oauth/ssosignedin',
};
export const DEV_IDP_CLIENT = { clientId: 'pronet-dev-idp', clientSecret: 'dev-idp-secret' };

/**
 * The placeholders of deploy/compose/.env.example, which production refuses as values (and as the
 * password of a connection URL: compose builds DATABASE_URL and REDIS_URL from POSTGRES_PASSWORD and
 * REDIS_PASSWORD). Listed here because the image does not ship the example;
 * test/deploy/compose.test.ts keeps this list equal to the file's `replace-with-` values.
 */
export const ENV_EXAMPLE_PLACEHOLDERS: readonly string[] = [
  'replace-with-openssl-rand-hex-24',
  'replace-with-a-jwk-set',
  'replace-with-client-id',
  'replace-with-a-secret-of-32-or-more-characters',
  'replace-with-vapid-public-key',
  'replace-with-vapid-private-key',
];

/** The placeholder a raw value is, or holds as its URL's password; undefined when none. */
function placeholderIn(raw: string): { placeholder: string; asPassword: boolean } | undefined {
  // An env file read by `docker run --env-file` keeps the example's quotes.
  const value = raw.trim().replace(/^(['"])(.*)\1$/, '$2');
  if (ENV_EXAMPLE_PLACEHOLDERS.includes(value)) return { placeholder: value, asPassword: false };
  const password = URL.parse(value)?.password;
  if (!password) return undefined;
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    /* a malformed escape is the URL check's to refuse */
  }
  return ENV_EXAMPLE_PLACEHOLDERS.includes(decoded) ? { placeholder: decoded, asPassword: true } : undefined;
}

/** Office documents, PDF, common images, MP4 video and MP3 audio. */
export const DEFAULT_UPLOAD_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'video/mp4',
  'audio/mpeg',
];

// ---- Value types: each parses the variable's text and says, for the docs, what it accepts.

/** What the docs table says a type accepts. */
export const FORMAT = z.registry<{ format: string }>();

/**
 * Refuses a value. The message follows the variable's name ("PORT must be ..."; one starting with
 * ":" follows it directly); `got`, the offending text, is appended unless the variable is a secret.
 */
function refuse(ctx: z.RefinementCtx, message: string, got?: string): never {
  ctx.issues.push({ code: 'custom', message, input: got, params: got === undefined ? undefined : { got } });
  return z.NEVER;
}

const str = () => z.string({ error: (iss) => (iss.input === undefined ? 'is missing' : 'must be a string') });
const withoutArticle = (s: string) => s.replace(/^an? /, '');

function text(max?: number) {
  const t = max === undefined ? str() : str().max(max, `must be at most ${max} characters`);
  return t.register(FORMAT, { format: max === undefined ? 'text' : `text, at most ${max} characters` });
}

/** Read with Number(), as the shell would write it; `unit` names what is counted. */
function integer(min: number, max = Infinity, unit?: string) {
  const range =
    max === Infinity
      ? min === 0
        ? 'a non-negative integer'
        : 'a positive integer'
      : unit
        ? `a whole number of ${unit} from ${min} to ${max}`
        : `an integer from ${min} to ${max}`;
  return str()
    .transform((raw, ctx) => {
      const n = Number(raw);
      return Number.isInteger(n) && n >= min && n <= max ? n : refuse(ctx, `must be ${range}`, raw);
    })
    .register(FORMAT, { format: withoutArticle(range) });
}

function flag() {
  return str()
    .transform((raw, ctx) =>
      /^(1|true|yes|on)$/i.test(raw) ? true : /^(0|false|no|off)$/i.test(raw) ? false : refuse(ctx, 'must be true or false', raw),
    )
    .register(FORMAT, { format: '`true` or `false` (also 1/0, yes/no, on/off)' });
}

function oneOf<const T extends string>(values: readonly T[], message: string, { echo = true } = {}) {
  return str()
    .transform((raw, ctx) => ((values as readonly string[]).includes(raw) ? (raw as T) : refuse(ctx, message, echo ? raw : undefined)))
    .register(FORMAT, { format: `one of ${values.map((v) => `\`${v}\``).join(', ')}` });
}

/**
 * The one URL check, for every URL variable: a WHATWG URL whose scheme is one of `schemes` (any
 * when omitted). http(s) URLs are bases that paths are appended to: trailing slashes are dropped.
 */
function url(label: string, schemes?: string[]) {
  return str()
    .transform((raw, ctx) => {
      const parsed = URL.parse(raw);
      if (!parsed || (schemes && !schemes.includes(parsed.protocol))) return refuse(ctx, `must be ${label}`, raw);
      return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? raw.replace(/\/+$/, '') : raw;
    })
    .register(FORMAT, { format: withoutArticle(label) });
}
const httpUrl = () => url('an http(s) URL', ['http:', 'https:']);

/** Comma-separated items, blanks ignored; an item's refusal is the variable's. */
function list<T>(item: z.ZodType<T, string>, items: string) {
  return z
    .string()
    .transform((raw, ctx) => {
      const out: T[] = [];
      for (const part of raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const parsed = item.safeParse(part);
        if (!parsed.success)
          return refuse(
            ctx,
            parsed.error.issues[0].message,
            parsed.error.issues[0].code === 'custom' ? parsed.error.issues[0].params?.got : undefined,
          );
        out.push(parsed.data);
      }
      return out;
    })
    .register(FORMAT, { format: `comma-separated ${items}` });
}

function json<T>(label: string, schema: z.ZodType<T, unknown>) {
  return str()
    .transform((raw, ctx): unknown => {
      try {
        return JSON.parse(raw);
      } catch {
        return refuse(ctx, `must be ${label}`);
      }
    })
    .pipe(schema)
    .register(FORMAT, { format: withoutArticle(label) });
}

/** A key set ({"keys": [...]}) or a single key. */
function keysOf(parsed: unknown): unknown[] {
  if (typeof parsed !== 'object' || parsed === null) return [];
  const { keys, kty } = parsed as { keys?: unknown; kty?: unknown };
  return Array.isArray(keys) ? keys : kty ? [parsed] : [];
}

const ES256_PRIVATE_KEY = z.looseObject({ kty: z.literal('EC'), crv: z.literal('P-256'), d: z.string(), kid: z.string().min(1) });

const signingKeySet = json(
  'a JSON Web Key Set',
  z.unknown().transform((parsed, ctx) => {
    const keys = keysOf(parsed);
    if (!keys.length) return refuse(ctx, 'must hold at least one key');
    if (!keys.every((k) => ES256_PRIVATE_KEY.safeParse(k).success))
      return refuse(ctx, ': every key must be a private EC P-256 JWK with a kid (ES256)');
    return { keys: keys as Record<string, unknown>[] };
  }),
);

const PROVIDERS_SHAPE = 'a JSON array of {id, issuer, clientId, clientSecret, emailDomains}';
const provider = z.object(
  {
    // An id that is not a plain name is replaced by provider-<n>.
    id: z
      .string()
      .regex(/^[\w.-]{1,50}$/)
      .optional()
      .catch(undefined),
    issuer: httpUrl(),
    clientId: str(),
    clientSecret: str(),
    emailDomains: z.array(z.unknown().transform((d) => String(d).toLowerCase())).catch([]),
  },
  { error: 'needs issuer, clientId and clientSecret' },
);
const providerList = json(
  PROVIDERS_SHAPE,
  z
    .array(provider, { error: `must be ${PROVIDERS_SHAPE}` })
    .transform((all): InboundProviderConfig[] => all.map(({ id, ...p }, i) => ({ id: id ?? `provider-${i + 1}`, ...p }))),
);

const redirectUri = url('a URI').transform((uri, ctx) =>
  uri.endsWith('ssosignedin') ? uri : refuse(ctx, ': redirect URIs must end with ssosignedin', uri),
);

/** A base64url value of exactly `bytes` bytes (padding allowed); `first`, when given, is its first byte. */
function base64urlBytes(label: string, bytes: number, first?: number) {
  return str()
    .transform((raw, ctx) => {
      const value = raw.trim();
      const decoded = /^[A-Za-z0-9_-]+={0,2}$/.test(value) ? Buffer.from(value, 'base64url') : null;
      if (!decoded || decoded.length !== bytes || (first !== undefined && decoded[0] !== first)) return refuse(ctx, `must be ${label}`);
      return decoded.toString('base64url');
    })
    .register(FORMAT, { format: withoutArticle(label) });
}

/** Not url(): an https subject is kept as written (url() drops a trailing slash, and the subject is the VAPID token's `sub`). */
const vapidSubject = str()
  .transform((raw, ctx) => {
    const parsed = URL.parse(raw);
    return parsed && (parsed.protocol === 'mailto:' || parsed.protocol === 'https:')
      ? raw
      : refuse(ctx, 'must be a mailto: or https: URL', raw);
  })
  .register(FORMAT, { format: 'mailto: or https: URL' });

const postgresUrl = url('a postgres:// or postgresql:// URL', ['postgres:', 'postgresql:'])
  .transform((u, ctx) => (new URL(u).pathname.length > 1 ? u : refuse(ctx, 'must name a database')))
  .register(FORMAT, { format: 'postgres:// or postgresql:// URL naming a database' });

const mimeType = str().transform((raw, ctx) => {
  const type = raw.toLowerCase();
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : refuse(ctx, 'must be comma-separated MIME types', type);
});

// ---- The declarations.

/** The variables other variables' defaults are computed from (each declared before its users). */
interface Basis {
  NODE_ENV: Config['nodeEnv'];
  PORT: number;
  PUBLIC_BASE_URL: string;
  SEED_DEMO: boolean;
  GRAPHQL_INTROSPECTION: boolean;
}

export interface Variable<T> {
  /** Parses the variable when set (blank counts as unset unless `emptyIsValue`). */
  type: z.ZodType<T, string>;
  /** The value when unset (null: none): a constant, or computed from the variables in Basis. */
  default: NoInfer<T> | ((set: Basis) => NoInfer<T>);
  /** The default as the docs show it, where the value alone would not say it well. */
  shown?: string;
  /** What it does (docs/configuration.md). */
  doc: string;
  /** Never echoed in error messages. */
  secret?: true;
  /** Production refuses to start without it: its default serves development and tests only. */
  requiredInProduction?: true;
  /** Production refuses a value that does not pass this too. */
  production?: z.ZodType<unknown, T>;
  /** An empty value is a value (e.g. no prefix), not "unset". */
  emptyIsValue?: true;
}

function variable<T>(v: Variable<T>): Variable<T> {
  // No secret has a silent fallback in production.
  if (v.secret && v.default !== null && !v.requiredInProduction)
    throw new Error(`a secret's default must not apply in production: ${v.doc}`);
  return v;
}

const rateLimit = (doc: string, perMinute: number) => variable({ type: integer(1, 1_000_000), default: perMinute, doc });
const notInProduction = z.literal(false, 'cannot be enabled in production');

export const VARIABLES = {
  NODE_ENV: variable({
    type: oneOf(NODE_ENVS, 'must be development, production or test'),
    default: 'development',
    doc: '`production` refuses demo data, demo keys and demo secrets',
  }),
  PORT: variable({ type: integer(0, 65535), default: 4000, doc: 'HTTP port' }),
  HOST: variable({ type: text(), default: '0.0.0.0', doc: 'listen address' }),
  PUBLIC_BASE_URL: variable({
    type: httpUrl(),
    default: (set) => `http://localhost:${set.PORT}`,
    shown: '`http://localhost:$PORT`',
    doc: 'how clients reach the service; used in returned URLs',
  }),
  AUTH_BASE_URL: variable({
    type: httpUrl(),
    default: (set) => set.PUBLIC_BASE_URL,
    shown: '`PUBLIC_BASE_URL`',
    doc: 'where `/as/...` (token endpoint, inbound federation) and `/.well-known/jwks.json` are served; the `iss` of every token we sign',
  }),
  DATABASE_URL: variable<string | null>({
    type: postgresUrl,
    default: null,
    doc: 'a real PostgreSQL server (credentials in the URL); unset: embedded PGlite, which production refuses unless `DATABASE_EMBEDDED=true` asks for it',
    secret: true,
  }),
  DATABASE_EMBEDDED: variable({
    type: flag(),
    default: false,
    doc: 'asks for the embedded PGlite database under `DATA_DIR` by name: without `DATABASE_URL`, production starts (and `npm run migrate` runs) only with it (one instance, one process, no pooler). Refused beside `DATABASE_URL`',
  }),
  DATABASE_DIRECT_URL: variable<string | null>({
    type: postgresUrl,
    default: null,
    doc: 'a session connection to the same database, past any transaction pooler: the migration lock, LISTEN for the bus between instances without Redis, and the job queue use it. Unset: `DATABASE_URL`',
    secret: true,
  }),
  DATABASE_POOLING: variable({
    type: oneOf(['session', 'transaction'] as const, 'must be session or transaction'),
    default: 'session',
    doc: "`transaction` when `DATABASE_URL` goes through a pooler in transaction mode (PgBouncer's default elsewhere, most managed poolers): no named prepared statements on its connections; set `DATABASE_DIRECT_URL` too",
  }),
  DATABASE_REPLICA_URLS: variable<string[] | null>({
    type: list(postgresUrl, 'postgres:// URLs'),
    default: null,
    doc: 'streaming replicas of `DATABASE_URL` (comma-separated): GraphQL queries and REST `GET`s read from one of them, mutations and everything inside them run on `DATABASE_URL`; a caller reads its own writes (docs/deployment.md, "Read replicas"). Unset: every statement on `DATABASE_URL`. Needs `DATABASE_URL`',
    secret: true,
  }),
  DATABASE_REPLICA_MAX_LAG_MS: variable({
    type: integer(0, 600000),
    default: 1000,
    doc: 'a replica further behind the primary than this (or not answering) takes no reads until it catches up; checked every 200 ms. Also the bound on how old a read by a caller who has not written may be',
  }),
  DATABASE_REPLICA_TIMEOUT_MS: variable({
    type: integer(100, 60000),
    default: 1000,
    doc: 'a statement, or a connection attempt, on a replica that has no answer after this fails there (its connection closed): the read runs again on `DATABASE_URL` and the replica takes no reads until a check answers. What a replica that accepts connections but hangs costs a read; keep it above the slowest read',
  }),
  MIGRATE_ON_START: variable({
    type: flag(),
    default: true,
    doc: 'apply pending migrations (and the demo seed) at start-up, one instance at a time under a PostgreSQL advisory lock (on `DATABASE_DIRECT_URL` when set); `false` for deployments that run `npm run migrate` as a job of their own: an instance then exits 1, naming them, while migrations are pending',
  }),
  DATA_DIR: variable({ type: text(), default: './.data', doc: 'embedded database (`pgdata/`) and generated keys' }),
  LOG_LEVEL: variable({
    type: oneOf(LOG_LEVELS, `must be one of ${LOG_LEVELS.join(', ')}`, { echo: false }),
    default: (set): LogLevel => (set.NODE_ENV === 'test' ? 'silent' : 'info'),
    shown: '`info` (`silent` under test)',
    doc: 'pino level',
  }),
  LOG_FORMAT: variable({
    type: oneOf(LOG_FORMATS, 'must be json or pretty'),
    // Not read from the environment: whether a person is watching the output.
    default: (set): LogFormat => (set.NODE_ENV === 'development' && process.stdout.isTTY ? 'pretty' : 'json'),
    shown: '`pretty` in development on a terminal, else `json`',
    doc: "`json`: one JSON object a line (`time` in epoch milliseconds), what log collectors read; `pretty`: `HH:MM:SS.mmm LEVEL message key=value`, a line a person scans (an error's stack indented below it)",
  }),
  SEED_DEMO: variable({
    type: flag(),
    default: (set) => set.NODE_ENV !== 'production',
    shown: '`true` outside production',
    doc: 'seed the demo tenant on an empty database; refused in production',
    production: notInProduction,
  }),
  GRAPHQL_INTROSPECTION: variable({
    type: flag(),
    default: (set) => set.NODE_ENV !== 'production',
    shown: '`true` outside production',
    doc: "schema introspection (`__schema`, `__type`; `_service` answers only the router's federation token without it); the two explorers need it",
  }),
  GRAPHQL_SUGGESTIONS: variable({
    type: flag(),
    default: (set) => set.NODE_ENV !== 'production' && set.GRAPHQL_INTROSPECTION,
    shown: '`GRAPHQL_INTROSPECTION` outside production, else `false`',
    doc: '"Did you mean ...?" suggestions in GraphQL errors (they name fields, arguments and enum values of the schema)',
  }),
  GRAPHQL_SANDBOX: variable({
    type: flag(),
    default: (set) => set.NODE_ENV !== 'production' && set.GRAPHQL_INTROSPECTION,
    shown: '`GRAPHQL_INTROSPECTION` outside production, else `false`',
    doc: 'Apollo Sandbox as the landing page of `/graphql` (a browser GET); `true` without `GRAPHQL_INTROSPECTION` is refused (it reads the schema by introspection)',
  }),
  GRAPHQL_EXPLORER: variable({
    type: flag(),
    default: (set) => set.NODE_ENV !== 'production' && set.GRAPHQL_INTROSPECTION,
    shown: '`GRAPHQL_INTROSPECTION` outside production, else `false`',
    doc: 'the bundled schema explorer at `/graphiql` (else 404); `true` without `GRAPHQL_INTROSPECTION` is refused',
  }),
  METRICS_ENABLED: variable({ type: flag(), default: true, doc: 'serve Prometheus metrics at `/metrics`' }),
  METRICS_TOKEN: variable<string | null>({
    type: text(),
    default: null,
    doc: 'when set, `/metrics` answers only `Authorization: Bearer <token>` (else 401)',
    secret: true,
  }),
  METRICS_PORT: variable<number | null>({
    type: integer(1, 65535),
    default: null,
    doc: '`/metrics` is served on a listener of its own at this port (bound to `HOST`) and not on `PORT`. In production `/metrics` is served only with this or `METRICS_TOKEN` set',
  }),
  CORS_ORIGINS: variable({ type: list(httpUrl(), 'http(s) origins'), default: [], doc: 'origins allowed by CORS; unset: no CORS headers' }),
  SHUTDOWN_DRAIN_MS: variable({
    type: integer(0, 600000),
    default: (set) => (set.NODE_ENV === 'production' ? 5000 : 0),
    shown: '`5000` in production, else `0`',
    doc: "after `SIGTERM`, how long `/readyz` answers `503` (`draining`) while every other request is still served (each answer closing its connection), so that a balancer's health checks take the instance out before it closes: more than the balancer's check interval times the failed checks it needs",
  }),
  ALLOW_DEMO_CREDENTIALS: variable({
    type: flag(),
    default: false,
    doc: "production refuses to start on a database that still holds the demo tenant's published credentials (client secret, passwords, tokens, API keys), naming them; `true` starts anyway",
  }),
  SHUTDOWN_TIMEOUT_MS: variable({ type: integer(1), default: 10000, doc: 'how long SIGTERM waits for in-flight requests' }),

  AUTH_SIGNING_KEYS: variable<AuthConfig['signingKeys']>({
    type: signingKeySet,
    default: null,
    shown: 'generated',
    doc:
      'private EC P-256 keys (ES256), each with a `kid`, as a key set (`{"keys": [...]}`) or one key; the first signs, all are published at `/.well-known/jwks.json` ' +
      '(rotation: put the new key first, keep the old one until its tokens expired). Unset outside production: one key is generated and kept in ' +
      '`DATA_DIR/auth/signing-keys.json` (mode 0600); tests use one in-memory key per process',
    secret: true,
    requiredInProduction: true,
  }),
  AUTH_AUDIENCE: variable({
    type: text(),
    default: (set) => set.PUBLIC_BASE_URL,
    shown: '`PUBLIC_BASE_URL`',
    doc: '`aud` of access tokens',
  }),
  ACCESS_TOKEN_TTL_SECONDS: variable({ type: integer(60, 86400), default: 3600, doc: 'access token lifetime (`expires_in`)' }),
  REFRESH_TOKEN_TTL_SECONDS: variable({
    type: integer(300, 365 * 86400),
    default: 30 * 86400,
    shown: '`2592000` (30 days)',
    doc: 'refresh token lifetime; every use rotates it',
  }),
  AUTHORIZATION_CODE_TTL_SECONDS: variable({ type: integer(1, 600), default: 60, doc: 'lifetime of a code issued by the inbound flow' }),
  SSO_TOKEN_TTL_SECONDS: variable({ type: integer(10, 3600), default: 300, doc: 'lifetime of an outbound SSO token' }),
  SSO_AUDIENCES: variable({
    type: list(text(), 'audiences'),
    default: (set) => (set.NODE_ENV === 'production' ? [] : ['demo-partner']),
    shown: '`demo-partner` outside production, empty in production',
    doc: 'partner audiences an SSO token may be issued for; the first is the default. Set but empty: none',
    emptyIsValue: true,
  }),
  LOGIN_CLIENT_ID: variable({
    type: text(100),
    default: DEMO_LOGIN_CLIENT.clientId,
    doc: 'the OAuth client the login-scheme operation hands to the app; written to `oauth_client` at start-up',
    requiredInProduction: true,
  }),
  LOGIN_CLIENT_SECRET: variable({
    type: text(),
    default: DEMO_LOGIN_CLIENT.clientSecret,
    doc: "that client's secret (stored as SHA-256); production: at least 32 characters, never the demo secret",
    secret: true,
    requiredInProduction: true,
    production: z
      .string()
      .refine(
        (s) => s.length >= 32 && s !== DEMO_LOGIN_CLIENT.clientSecret,
        'must be at least 32 characters and not the demo secret in production',
      ),
  }),
  LOGIN_CLIENT_REDIRECT_URIS: variable({
    type: list(redirectUri, 'URIs, each ending in `ssosignedin`'),
    default: [DEMO_LOGIN_CLIENT.redirectUri],
    doc: 'redirect URIs of that client',
    requiredInProduction: true,
  }),
  REDIS_URL: variable<string | null>({
    type: url('a redis:// or rediss:// URL', ['redis:', 'rediss:']),
    default: null,
    doc:
      'the service auth token cache and the brute-force counters live in Redis, shared by every instance, and the bus between ' +
      'instances (live notifications, token revocations) is Redis pub/sub. Unset: an in-process cache (an entry lives at most 30 s; ' +
      'revocations reach every instance at once over the bus), counters in the database, and the bus is PostgreSQL LISTEN/NOTIFY',
    secret: true,
  }),
  REDIS_KEY_PREFIX: variable({
    type: text(),
    default: 'pronet:',
    doc: 'prefix of every Redis key of the service (may be empty)',
    emptyIsValue: true,
  }),
  OIDC_ISSUER: variable<string | null>({
    type: httpUrl(),
    default: null,
    doc: "the organisation's OpenID Connect provider for inbound federation (endpoints from the issuer's discovery document); register `{AUTH_BASE_URL}/as/callback` as its redirect URI. https in production; needs `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`",
  }),
  OIDC_CLIENT_ID: variable<string | null>({ type: text(), default: null, doc: 'our client id at `OIDC_ISSUER`' }),
  OIDC_CLIENT_SECRET: variable<string | null>({ type: text(), default: null, doc: 'our client secret at `OIDC_ISSUER`', secret: true }),
  OIDC_EMAIL_DOMAINS: variable({
    type: list(
      text().transform((d) => d.toLowerCase()),
      'e-mail domains',
    ),
    default: [],
    doc: "e-mail domains of that provider's organisation; unset: every address",
  }),
  OIDC_PROVIDERS: variable<InboundProviderConfig[] | null>({
    type: providerList,
    default: null,
    doc: 'several organisations at once, instead of the `OIDC_*` variables; the provider is chosen by the domain of `login_hint`, else the one without domains',
    secret: true,
  }),
  DEV_IDP: variable({
    type: flag(),
    default: (set) => set.SEED_DEMO && set.NODE_ENV === 'development',
    shown: '`true` in development with demo data',
    doc: 'mount the development OpenID provider under `/dev-idp`, used for inbound federation when no `OIDC_*` is set; refused in production',
    production: notInProduction,
  }),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: variable({
    type: integer(1, 1000),
    default: 5,
    doc: 'failed password grants for one username before it is locked out',
  }),
  LOGIN_MAX_FAILURES_PER_ADDRESS: variable({
    type: integer(1, 100000),
    default: 30,
    doc: 'failed token requests (bad grant or bad client) from one client address before it is locked out',
  }),
  LOGIN_FAILURE_WINDOW_SECONDS: variable({ type: integer(1, 86400), default: 900, doc: 'window in which failures are counted' }),
  LOGIN_LOCKOUT_SECONDS: variable({ type: integer(1, 86400), default: 900, doc: 'how long a lockout lasts (`429` with `Retry-After`)' }),
  LOGIN_FAILURE_DELAY_MS: variable({
    type: integer(0, 3000),
    default: 250,
    doc: 'each failure after the first answers this much later (up to 3 s)',
  }),
  RATE_LIMIT_LOGIN_PER_MINUTE: rateLimit(
    '`loginUser` calls per user per minute; more answer `429 WSLimitExceededException` with `Retry-After` (counters in Redis with `REDIS_URL`, else the `auth_rate_limit` table; a store that does not answer lets requests through, logged)',
    30,
  ),
  RATE_LIMIT_LOGIN_PER_ADDRESS_PER_MINUTE: rateLimit(
    "`loginUser` calls per client address per minute (the client's address: see `TRUST_PROXY_HOPS`)",
    300,
  ),
  RATE_LIMIT_RECOMMENDED_PER_MINUTE: rateLimit('`recommendedEntities` calls per user per minute', 120),
  RATE_LIMIT_RECOMMENDED_PER_ADDRESS_PER_MINUTE: rateLimit('`recommendedEntities` calls per client address per minute', 1200),
  RATE_LIMIT_UPLOADS_PER_MINUTE: rateLimit('`uploadSmartFile` and `uploadTileImage` calls together per user per minute', 60),
  RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: rateLimit('uploads per client address per minute', 600),

  UPLOAD_MAX_BYTES: variable({
    // Sizes are stored as 32-bit integers (smartFileBytes is a GraphQL Int).
    type: integer(1, 2_147_483_647, 'bytes'),
    default: 25 * 1024 * 1024,
    shown: '`26214400` (25 MiB)',
    doc: 'largest file `uploadSmartFile` accepts (`WSMaxFileUploadSizeException`, 413)',
  }),
  UPLOAD_TILE_MAX_BYTES: variable({
    type: integer(1, 2_147_483_647, 'bytes'),
    default: 5 * 1024 * 1024,
    shown: '`5242880` (5 MiB)',
    doc: 'largest tile image `uploadTileImage` accepts',
  }),
  UPLOAD_ALLOWED_TYPES: variable({
    type: list(mimeType, 'MIME types'),
    default: DEFAULT_UPLOAD_TYPES,
    shown: 'PDF, PNG, JPEG, GIF, WebP, DOCX, XLSX, PPTX, MP4, MP3',
    doc: "MIME types `uploadSmartFile` accepts, as detected from the content's magic bytes (`WSUnsupportedTypeException` otherwise)",
  }),
  SMTP_URL: variable<string | null>({
    type: url('an smtp:// or smtps:// URL', ['smtp:', 'smtps:']),
    default: null,
    doc: 'the server notification e-mails go through (credentials in the URL); unset: a log-only transport',
    secret: true,
  }),
  MAIL_FROM: variable({ type: text(), default: 'Pronet <no-reply@localhost>', doc: 'From address of notification e-mails' }),
  VAPID_PUBLIC_KEY: variable<string | null>({
    type: base64urlBytes('a base64url uncompressed P-256 public key (65 bytes)', 65, 0x04),
    default: null,
    shown: 'generated',
    doc:
      'Web Push: the VAPID public key browsers subscribe with (`GET /rest/user/push-subscriptions/vapid-public-key`); set with `VAPID_PRIVATE_KEY` ' +
      '(`npx web-push generate-vapid-keys` prints a pair). Unset outside production: a pair is generated and kept in `DATA_DIR/push/vapid-keys.json` ' +
      '(mode 0600); tests use one in-memory pair per process. Changing it invalidates every stored subscription',
    requiredInProduction: true,
  }),
  VAPID_PRIVATE_KEY: variable<string | null>({
    type: base64urlBytes('a base64url P-256 private key (32 bytes)', 32),
    default: null,
    shown: 'generated',
    doc: 'the private key of that pair: signs the VAPID token of every push',
    secret: true,
    requiredInProduction: true,
  }),
  VAPID_SUBJECT: variable({
    type: vapidSubject,
    default: 'mailto:push@localhost.invalid',
    doc: 'Web Push: the contact push services are given in the VAPID token (`sub`)',
    requiredInProduction: true,
  }),
  QUEUE_WORKERS: variable({
    type: integer(0),
    default: 2,
    doc: 'jobs (scheduled notifications, e-mails, the upload purge) each queue of this instance runs at once; `0`: the instance enqueues jobs but runs none',
  }),
  QUEUE_POLL_MS: variable({
    type: integer(500),
    default: 1000,
    doc: 'how often an idle queue worker looks for jobs (a job sent on PostgreSQL also wakes the workers at once)',
  }),
  OTEL_EXPORTER_OTLP_ENDPOINT: variable<string | null>({
    type: httpUrl(),
    default: null,
    doc: 'OTLP/HTTP collector base URL (e.g. `http://otel-collector:4318`); spans are POSTed to `<endpoint>/v1/traces`. Unset: tracing off, no SDK started',
  }),
  OTEL_SERVICE_NAME: variable({ type: text(), default: 'pronet-service', doc: '`service.name` of the exported spans' }),
  TRUST_PROXY_HOPS: variable({
    type: integer(0, 10),
    default: 0,
    doc:
      "how many proxies in front of the service append to `X-Forwarded-For`: the client's address (per-address login counters, rate limits, " +
      "the access log) is the entry that many hops from the right. `0`: the socket's address, and `X-Forwarded-For` is ignored",
  }),
  LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: variable({
    type: integer(1, 10000),
    default: 20,
    doc: 'subscriptions one WebSocket connection may hold at once; one more closes it with `4429`',
  }),
  LIVE_MAX_CONNECTIONS_PER_TOKEN: variable({
    type: integer(1, 10000),
    default: 10,
    doc: 'live connections (WebSockets and event streams) one service auth token may hold on an instance; one more is refused (`4429` / `429`)',
  }),
  LIVE_MAX_CONNECTIONS: variable({
    type: integer(1, 1_000_000),
    default: 2000,
    doc: 'live connections an instance holds in all; one more is refused (`1013` / `503`)',
  }),
  LIVE_MAX_BUFFERED_BYTES: variable({
    type: integer(1024, 1024 * 1024 * 1024, 'bytes'),
    default: 256 * 1024,
    shown: '`262144` (256 KiB)',
    doc: 'bytes waiting to be sent to one live client; a slower reader is closed (`1008` / the stream ends) rather than buffered without end',
  }),
  GRAPHQL_APQ_CACHE_BYTES: variable({
    type: integer(0, 1024 * 1024 * 1024, 'bytes'),
    default: 8 * 1024 * 1024,
    shown: '`8388608` (8 MiB)',
    doc: 'bytes of documents the automatic-persisted-query cache keeps (least recently used first out); `0`: persisted queries off. With `REDIS_URL` the documents are kept in Redis instead, shared by every instance (24 h after their last registration, at most 64 KiB each)',
  }),
  GRAPHQL_TRUSTED_DOCUMENTS: variable({
    type: oneOf(TRUSTED_DOCUMENT_MODES, 'must be off, log or enforce'),
    default: (set) => (set.NODE_ENV === 'production' ? 'log' : 'off'),
    shown: '`log` in production, else `off`',
    doc:
      "documents outside the trusted manifest (every REST route's document and the explorers' examples, `dist/trusted-documents.json`): " +
      '`off` runs them; `log` runs them and logs each one once; `enforce` refuses them (403 `WSInsufficientPrivilegesException`) ' +
      "unless `x-api-key` holds a system token with the `explore` (or the router's `federation`) scope. See docs/security.md",
  }),
  GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST: variable<string | null>({
    type: text(),
    default: null,
    doc: "path of an `apollo-persisted-query-manifest` (version 1) of first-party clients' own documents, trusted as well; a bad file stops start-up",
  }),
};

export type VariableName = keyof typeof VARIABLES;
type Values = { [K in VariableName]: (typeof VARIABLES)[K] extends Variable<infer T> ? T : never };
// Basis restates five of the declared types: this fails to compile if they drift apart.
const _basisAgrees = (v: Values): Basis => v;
void _basisAgrees;

// ---- Reading the environment.

/** A parsed value, or the message naming the variable (with the offending text unless it is a secret). */
type Checked<T> = { value: T } | { problem: string };

function check<T>(name: string, decl: Variable<unknown>, schema: z.ZodType<T, unknown>, input: unknown): Checked<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return { value: parsed.data };
  const issue = parsed.error.issues[0];
  const where = name + issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
  const got = issue.code === 'custom' && !decl.secret ? issue.params?.got : undefined;
  return { problem: `${where}${issue.message.startsWith(':') ? '' : ' '}${issue.message}${got === undefined ? '' : `, got "${got}"`}` };
}

/** The environment read: every variable's value, and the problems found, one message each. */
interface Reading {
  values: Values;
  problems: string[];
  /** Variables whose own value was refused: their default stands in, so later defaults still compute. */
  refused: ReadonlySet<VariableName>;
}

/**
 * Every variable (or only those of `only`), in declaration order; a bad one is noted and reading
 * goes on. A variable left out is neither read nor required.
 */
function readVariables(env: NodeJS.ProcessEnv, only?: readonly VariableName[]): Reading {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  const refused = new Set<VariableName>();
  for (const [name, decl] of Object.entries(VARIABLES) as [VariableName, Variable<unknown>][]) {
    if (only && !only.includes(name)) continue;
    const production = values.NODE_ENV === 'production';
    const defaultValue = () =>
      typeof decl.default === 'function' ? (decl.default as (set: Basis) => unknown)(values as unknown as Basis) : decl.default;
    const raw = env[name];
    let problem: string | undefined;
    const placeholder = production && raw !== undefined ? placeholderIn(raw) : undefined;
    if (placeholder)
      problem = `${name} ${placeholder.asPassword ? 'has the password' : 'is'} "${placeholder.placeholder}", a placeholder of deploy/compose/.env.example: replace it`;
    else if (raw !== undefined && (decl.emptyIsValue || raw.trim() !== '')) {
      const read = check(name, decl, decl.type, raw);
      if ('value' in read) values[name] = read.value;
      else problem = read.problem;
    } else if (production && decl.requiredInProduction) problem = `${name} is required in production`;
    else values[name] = defaultValue();
    if (problem === undefined && production && decl.production) {
      const allowed = check(name, decl, decl.production, values[name]);
      if ('problem' in allowed) problem = allowed.problem;
    }
    if (problem === undefined) continue;
    problems.push(problem);
    refused.add(name);
    if (!(name in values)) values[name] = defaultValue();
  }
  return { values: values as Values, problems, refused };
}

/**
 * Allocator settings of native libraries, which read them from the environment when they load
 * (not settings of the service, so not in the table). @node-rs/argon2 allocates through its own
 * mimalloc, which kept each hash's memory resident until that thread allocated again (57 MB after
 * a few sign-ins at two 19 MiB hashes at once); a purge delay of 0 gives the block back when the
 * hash ends. Called before the library is required; an operator's own value wins.
 */
export function nativeAllocatorDefaults(): void {
  process.env.MIMALLOC_PURGE_DELAY ??= '0';
}

/** Bad values are written to stderr, a line each, and the process exits 2. */
function orExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    for (const line of err.message.split('\n')) console.error(`Configuration error: ${line}`);
    process.exit(2);
  }
}

/** The service's configuration, as a process that opens its database itself; see orExit. */
export function loadConfigOrExit(): Config {
  return orExit(() => loadConfig(process.env, { ownDatabase: true }));
}

/** `npm run migrate`'s configuration (only what migrations need); see orExit. */
export function loadMigrationConfigOrExit(): MigrationConfig {
  return orExit(() => loadMigrationConfig(process.env));
}

export interface LoadOptions {
  /**
   * The process opens the database it is configured for (the service, `npm run migrate`), rather
   * than being handed one (the test app): production then needs DATABASE_URL, or the embedded
   * database asked for by name.
   */
  ownDatabase?: boolean;
}

/** A rule across variables; see rulesOf. */
type Across = <T>(names: VariableName[], judge: () => T) => T | undefined;

/**
 * A rule across variables is judged only when each of them was read (a refused one's stand-in
 * default could break the rule by itself): its ConfigError joins the others.
 */
function rulesOf({ problems, refused }: Reading): Across {
  return (names, judge) => {
    if (names.some((name) => refused.has(name))) return undefined;
    try {
      return judge();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      problems.push(err.message);
      return undefined;
    }
  };
}

/** The database rules the service and the migration job share. */
function databaseRules(v: Values, across: Across, { ownDatabase = false }: LoadOptions): void {
  // LISTEN and the migration lock's session lock do not survive a transaction pooler.
  across(['DATABASE_POOLING', 'DATABASE_URL', 'DATABASE_DIRECT_URL'], () => {
    if (v.DATABASE_POOLING === 'transaction' && v.DATABASE_URL && !v.DATABASE_DIRECT_URL)
      throw new ConfigError('DATABASE_POOLING=transaction needs DATABASE_DIRECT_URL (a session connection past the pooler)');
  });
  across(['DATABASE_EMBEDDED', 'DATABASE_URL'], () => {
    if (v.DATABASE_EMBEDDED && v.DATABASE_URL) throw new ConfigError('DATABASE_EMBEDDED=true and DATABASE_URL exclude each other: set one');
  });
  // A forgotten DATABASE_URL would otherwise put production's data in a container's DATA_DIR.
  across(['NODE_ENV', 'DATABASE_URL', 'DATABASE_EMBEDDED'], () => {
    if (ownDatabase && v.NODE_ENV === 'production' && !v.DATABASE_URL && !v.DATABASE_EMBEDDED)
      throw new ConfigError(
        'DATABASE_URL is required in production (DATABASE_EMBEDDED=true runs the embedded database under DATA_DIR instead)',
      );
  });
}

/** What `npm run migrate` reads: the one-shot job is given no key, secret or client setting. */
export const MIGRATION_VARIABLES = [
  'NODE_ENV',
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'DATABASE_POOLING',
  'DATABASE_EMBEDDED',
  'DATA_DIR',
  'LOG_LEVEL',
  'LOG_FORMAT',
  'SEED_DEMO',
] as const satisfies readonly VariableName[];

export type MigrationConfig = Pick<
  Config,
  'nodeEnv' | 'databaseUrl' | 'databaseDirectUrl' | 'dataDir' | 'logLevel' | 'logFormat' | 'seedDemo'
>;

/** The migration job's configuration: MIGRATION_VARIABLES only, the others neither read nor required. */
export function loadMigrationConfig(env: NodeJS.ProcessEnv = process.env): MigrationConfig {
  const reading = readVariables(env, MIGRATION_VARIABLES);
  const v = reading.values;
  databaseRules(v, rulesOf(reading), { ownDatabase: true });
  if (reading.problems.length) throw new ConfigError(reading.problems.join('\n'));
  return {
    nodeEnv: v.NODE_ENV,
    databaseUrl: v.DATABASE_URL,
    databaseDirectUrl: v.DATABASE_DIRECT_URL,
    dataDir: path.resolve(v.DATA_DIR),
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    seedDemo: v.SEED_DEMO,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}): Config {
  const reading = readVariables(env);
  const { values: v, problems } = reading;
  const across = rulesOf(reading);
  // Their defaults follow introspection; set on without it, they could show no schema.
  for (const name of ['GRAPHQL_SANDBOX', 'GRAPHQL_EXPLORER'] as const)
    across([name, 'GRAPHQL_INTROSPECTION'], () => {
      if (v[name] && !v.GRAPHQL_INTROSPECTION)
        throw new ConfigError(`${name}=true needs GRAPHQL_INTROSPECTION=true (it reads the schema by introspection)`);
    });
  databaseRules(v, across, options);
  // The migration job reads no replica: the rule is the service's alone.
  across(['DATABASE_REPLICA_URLS', 'DATABASE_URL'], () => {
    if (v.DATABASE_REPLICA_URLS?.length && !v.DATABASE_URL) throw new ConfigError('DATABASE_REPLICA_URLS needs DATABASE_URL (the primary)');
  });
  const push = across(['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'], () => pushConfig(v));
  const providers = across(
    ['NODE_ENV', 'OIDC_PROVIDERS', 'OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_EMAIL_DOMAINS', 'DEV_IDP', 'AUTH_BASE_URL'],
    () => inboundProviders(v),
  );
  if (problems.length) throw new ConfigError(problems.join('\n'));
  return {
    nodeEnv: v.NODE_ENV,
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL,
    dataDir: path.resolve(v.DATA_DIR),
    publicBaseUrl: v.PUBLIC_BASE_URL,
    authBaseUrl: v.AUTH_BASE_URL,
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    introspection: v.GRAPHQL_INTROSPECTION,
    suggestions: v.GRAPHQL_SUGGESTIONS,
    sandbox: v.GRAPHQL_SANDBOX,
    explorer: v.GRAPHQL_EXPLORER,
    migrateOnStart: v.MIGRATE_ON_START,
    databaseDirectUrl: v.DATABASE_DIRECT_URL,
    databasePooling: v.DATABASE_POOLING,
    databaseReplicaUrls: v.DATABASE_REPLICA_URLS ?? [],
    databaseReplicaMaxLagMs: v.DATABASE_REPLICA_MAX_LAG_MS,
    databaseReplicaTimeoutMs: v.DATABASE_REPLICA_TIMEOUT_MS,
    shutdownDrainMs: v.SHUTDOWN_DRAIN_MS,
    allowDemoCredentials: v.ALLOW_DEMO_CREDENTIALS,
    seedDemo: v.SEED_DEMO,
    shutdownTimeoutMs: v.SHUTDOWN_TIMEOUT_MS,
    metricsEnabled: v.METRICS_ENABLED,
    metricsToken: v.METRICS_TOKEN,
    metricsPort: v.METRICS_PORT,
    corsOrigins: v.CORS_ORIGINS,
    auth: authConfig(v, providers!),
    uploadMaxBytes: v.UPLOAD_MAX_BYTES,
    tileMaxBytes: v.UPLOAD_TILE_MAX_BYTES,
    uploadAllowedTypes: v.UPLOAD_ALLOWED_TYPES,
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    queueWorkers: v.QUEUE_WORKERS,
    queuePollMs: v.QUEUE_POLL_MS,
    otlpEndpoint: v.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelServiceName: v.OTEL_SERVICE_NAME,
    // An address may be a NAT shared by a whole office, hence its larger share.
    rateLimits: {
      login: { perUser: v.RATE_LIMIT_LOGIN_PER_MINUTE, perAddress: v.RATE_LIMIT_LOGIN_PER_ADDRESS_PER_MINUTE },
      recommended: { perUser: v.RATE_LIMIT_RECOMMENDED_PER_MINUTE, perAddress: v.RATE_LIMIT_RECOMMENDED_PER_ADDRESS_PER_MINUTE },
      upload: { perUser: v.RATE_LIMIT_UPLOADS_PER_MINUTE, perAddress: v.RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE },
    },
    push: push!,
    trustProxyHops: v.TRUST_PROXY_HOPS,
    live: {
      maxSubscriptionsPerConnection: v.LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION,
      maxConnectionsPerToken: v.LIVE_MAX_CONNECTIONS_PER_TOKEN,
      maxConnections: v.LIVE_MAX_CONNECTIONS,
      maxBufferedBytes: v.LIVE_MAX_BUFFERED_BYTES,
    },
    apqCacheBytes: v.GRAPHQL_APQ_CACHE_BYTES,
    trustedDocuments: v.GRAPHQL_TRUSTED_DOCUMENTS,
    trustedDocumentsManifest: v.GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST,
  };
}

/** Both VAPID keys or neither, and the public key must be the private key's. */
function pushConfig(v: Values): PushConfig {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = v;
  if ((publicKey === null) !== (privateKey === null)) throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together');
  if (publicKey === null || privateKey === null) return { vapidKeys: null, vapidSubject: v.VAPID_SUBJECT };
  let derived: string | null;
  try {
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    derived = ecdh.getPublicKey().toString('base64url');
  } catch {
    derived = null;
  }
  if (derived !== publicKey) throw new ConfigError('VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY');
  return { vapidKeys: { publicKey, privateKey }, vapidSubject: v.VAPID_SUBJECT };
}

function authConfig(v: Values, inboundProviders: InboundProviderConfig[]): AuthConfig {
  return {
    signingKeys: v.AUTH_SIGNING_KEYS,
    audience: v.AUTH_AUDIENCE,
    accessTokenTtlSeconds: v.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: v.REFRESH_TOKEN_TTL_SECONDS,
    authorizationCodeTtlSeconds: v.AUTHORIZATION_CODE_TTL_SECONDS,
    ssoTokenTtlSeconds: v.SSO_TOKEN_TTL_SECONDS,
    ssoAudiences: v.SSO_AUDIENCES,
    loginClient: { clientId: v.LOGIN_CLIENT_ID, clientSecret: v.LOGIN_CLIENT_SECRET, redirectUris: v.LOGIN_CLIENT_REDIRECT_URIS },
    redisUrl: v.REDIS_URL,
    redisKeyPrefix: v.REDIS_KEY_PREFIX,
    inboundProviders,
    devIdp: v.DEV_IDP,
    bruteForce: {
      maxFailuresPerAccount: v.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      maxFailuresPerAddress: v.LOGIN_MAX_FAILURES_PER_ADDRESS,
      windowSeconds: v.LOGIN_FAILURE_WINDOW_SECONDS,
      lockoutSeconds: v.LOGIN_LOCKOUT_SECONDS,
      delayStepMs: v.LOGIN_FAILURE_DELAY_MS,
    },
  };
}

// OIDC_PROVIDERS, else the one OIDC_ISSUER, else (demo mode) the development provider. Production
// takes none over plain http and never the development provider's secret.
function inboundProviders(v: Values): InboundProviderConfig[] {
  let providers: InboundProviderConfig[] = [];
  if (v.OIDC_PROVIDERS) providers = v.OIDC_PROVIDERS;
  else if (v.OIDC_ISSUER) {
    if (!v.OIDC_CLIENT_ID || !v.OIDC_CLIENT_SECRET) throw new ConfigError('OIDC_ISSUER needs OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    providers = [
      {
        id: 'default',
        issuer: v.OIDC_ISSUER,
        clientId: v.OIDC_CLIENT_ID,
        clientSecret: v.OIDC_CLIENT_SECRET,
        emailDomains: v.OIDC_EMAIL_DOMAINS,
      },
    ];
  } else if (v.DEV_IDP) providers = [{ id: 'dev-idp', issuer: `${v.AUTH_BASE_URL}/dev-idp`, ...DEV_IDP_CLIENT, emailDomains: [] }];
  if (v.NODE_ENV === 'production') {
    for (const p of providers) {
      if (!p.issuer.startsWith('https://')) throw new ConfigError(`OIDC issuer ${p.issuer} must use https in production`);
      if (p.clientSecret === DEV_IDP_CLIENT.clientSecret)
        throw new ConfigError('The development identity provider secret cannot be used in production');
    }
  }
  return providers;
}
