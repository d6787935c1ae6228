// What the bench runs: the service's environment, the real sign-in, and the scenarios (a request
// each). Shared by the full run (run.ts) and a focused run of one scenario (focus.ts).
import crypto from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { generateVAPIDKeys } from 'web-push';
import { HOME_SCREEN_QUERY } from '../src/graphql/examples';
import { BASE, BENCH } from '../scripts/seed-bench';
import { BENCH_METRICS_TOKEN, type LoadSpec } from './harness';

export const DIRECTORY = 'd0000000-0000-4000-8000-000000001001';
export const LIBRARY_QUERY = `query benchLibraryPage($id: Int!, $size: Int) { smartLibrary(smartLibId: $id) {
  smartLibId smartLibName companyId teamId
  entries(first: $size) {
    totalCount
    pageInfo { hasNextPage endCursor }
    edges { cursor node {
      smartEntryId smartLibId smartEntryName smartEntryType smartEntryDesc smartEntryCreated smartEntryModified
      smartFiles { smartFileId smartEntryId smartFileType smartFileName smartFileBytes mimeType }
      smartEntryURLs { smartEntryUrlName smartEntryUrlValue }
      smartEntryTags { smartTagId smartTagName } smartEntryFolders { smartFolderId smartFolderName }
    } }
  }
} }`;

export async function json<T>(res: Response): Promise<T> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${res.url}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/**
 * The login client the service is started with: a fresh secret per run, and a client id of its
 * own, because the service writes its login client to the database at start-up and runs started
 * side by side on one bench database would otherwise replace each other's secret.
 */
export const BENCH_CLIENT = {
  client_id: `bench-mobile-${crypto.randomBytes(6).toString('hex')}`,
  client_secret: crypto.randomBytes(24).toString('base64url'),
};

/** The real sign-in: password grant, then loginUser with the access token. */
export async function signIn(base: string, username: string, password: string): Promise<string> {
  const grant = await json<{ access_token: string }>(
    await fetch(`${base}/as/token.oauth2`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', scope: 'sso', ...BENCH_CLIENT, username, password }),
    }),
  );
  const login = await json<{ authToken: string }>(
    await fetch(`${base}/rest/user/login`, { method: 'POST', headers: { authorization: `Bearer ${grant.access_token}` } }),
  );
  return login.authToken;
}

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Form body (password grant). */
  form?: Record<string, string>;
  setupRequest?: LoadSpec['setupRequest'];
  read: boolean;
  /** A read the full run does not compare with the raw baseline (see its scenario). */
  noBaseline?: true;
  /**
   * What the full run judges a read by (issue 41): `small` (a few rows: measured on the design's
   * floor too; p99 and GC reported, no target), `list` (a page of rows: tails judged against the
   * raw handler's), `grows` (an answer that grows with the data: cost per row returned).
   */
  kind?: 'small' | 'list' | 'grows';
  /** A paged or keyed read: its cost must not grow with the data set (growth ratio bounded). */
  paged?: true;
}

/** The load generator's view of a scenario: its URL on `base`, body and headers. */
export function loadSpec(base: string, s: Scenario, connections: number, duration: number): LoadSpec {
  const body = s.form ? new URLSearchParams(s.form).toString() : s.body === undefined ? undefined : JSON.stringify(s.body);
  const headers = s.form ? { 'content-type': 'application/x-www-form-urlencoded' } : s.headers;
  return { url: base + s.path, method: s.method, headers, body, setupRequest: s.setupRequest, connections, duration };
}

export const userHeaders = (token: string) => ({ 'x-service-authtoken': token, 'content-type': 'application/json' });

/** The service's environment in the bench: production mode, its own signing key and login client. */
export async function benchServiceEnv(): Promise<Record<string, string>> {
  // The rate limits (login, recommended entities, uploads) are raised out of the way: the bench
  // measures the operations, and one user and one address send all of its load.
  const unlimited = Object.fromEntries(
    ['LOGIN', 'RECOMMENDED', 'UPLOADS'].flatMap((n) => [
      [`RATE_LIMIT_${n}_PER_MINUTE`, '1000000'],
      [`RATE_LIMIT_${n}_PER_ADDRESS_PER_MINUTE`, '1000000'],
    ]),
  );
  // The service runs as in production (NODE_ENV=production: libraries' production paths, no
  // development OpenID provider) with a signing key and login client of its own; the demo
  // users it signs in as come from the bench data set.
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const signingKeys = { keys: [{ ...(await exportJWK(privateKey)), kid: 'bench', alg: 'ES256', use: 'sig' }] };
  // Web Push's VAPID pair, which production requires too.
  // (web-push pads the private key to 32 bytes; ECDH's getPrivateKey() may drop leading zeros.)
  const vapid = generateVAPIDKeys();
  return {
    LOG_LEVEL: 'warn',
    QUEUE_WORKERS: '0',
    NODE_ENV: 'production',
    // The bench's data set holds the demo tenant (its users sign in with the published demo
    // password), which production refuses at start-up unless told; the bench is loopback only.
    ALLOW_DEMO_CREDENTIALS: 'true',
    // Production serves /metrics only with a token (or on a port of its own).
    METRICS_TOKEN: BENCH_METRICS_TOKEN,
    AUTH_SIGNING_KEYS: JSON.stringify(signingKeys),
    MALLOC_ARENA_MAX: '2',
    LOGIN_CLIENT_ID: BENCH_CLIENT.client_id,
    LOGIN_CLIENT_SECRET: BENCH_CLIENT.client_secret,
    LOGIN_CLIENT_REDIRECT_URIS: 'com.bench.mobile:/oauth/ssosignedin',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:bench@example.org',
    // Every connection signs the same account in at once, and a sign-in in flight holds a slot of
    // the brute-force counters until it succeeds (docs/security.md): their limits go out of the way too.
    LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000',
    LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
    ...unlimited,
  };
}

/** Every scenario, in the order the bench runs them; `run` makes the written rows unique to this run. */
export function benchScenarios(tokens: { olivia: string; cara: string; pat: string }, run: string) {
  const { olivia, cara, pat } = tokens;
  let n = 0;
  const recommended: Scenario = {
    name: 'recommended entities',
    method: 'POST',
    path: '/rest/user/recommended/entities',
    headers: userHeaders(olivia),
    body: { version: 2, entityType: ['company'] },
    read: true,
    kind: 'grows',
  };
  const userAddresses: Scenario = {
    name: 'user addresses',
    method: 'GET',
    path: '/rest/user/addresses',
    headers: userHeaders(olivia),
    read: true,
    kind: 'small',
    paged: true,
  };
  const contactAddresses: Scenario = {
    name: 'contact addresses',
    method: 'GET',
    path: `/rest/smartdirectory/${DIRECTORY}/contactRecord/addresses`,
    headers: userHeaders(olivia),
    read: true,
    kind: 'small',
    paged: true,
  };
  const list: Scenario[] = [
    // Answered from memory, no SQL: a raw replay would have nothing to send.
    { name: 'timezones', method: 'GET', path: '/rest/refdata/timezones?countryCode=au', read: true, noBaseline: true, kind: 'small' },
    { name: 'conditions', method: 'GET', path: '/rest/refdata/conditions', read: true, kind: 'small' },
    userAddresses,
    contactAddresses,
    recommended,
    // The operation of recommended entities again (its baseline stands for both), with a narrower answer.
    {
      ...recommended,
      name: 'recommended entities (search)',
      body: { version: 2, entityType: ['company'], searchTerms: 'cardiology' },
      noBaseline: true,
    },
    {
      name: 'recommended criteria',
      method: 'POST',
      path: '/rest/user/recommended/entityCriteria',
      headers: userHeaders(olivia),
      body: { version: 1, entityType: 'company', entityId: '1002' },
      read: true,
      kind: 'small',
      paged: true,
    },
    {
      name: 'library page (GraphQL)',
      method: 'POST',
      path: '/graphql',
      headers: userHeaders(olivia),
      body: { query: LIBRARY_QUERY, variables: { id: BENCH.libraryId, size: 20 } },
      read: true,
      kind: 'list',
      paged: true,
    },
    {
      name: 'sent notifications',
      method: 'GET',
      path: '/rest/notification/sent?version=1&broadcastType=GT&companyId=1001&pageNum=1',
      headers: userHeaders(cara),
      read: true,
      kind: 'list',
      paged: true,
    },
    {
      name: 'sent scheduled notifications',
      method: 'GET',
      path: '/rest/notification/scheduled/sent?version=1&broadcastType=GT&companyId=1001&pageNum=1',
      headers: userHeaders(cara),
      read: true,
      kind: 'list',
      paged: true,
    },
    {
      name: 'events page 1',
      method: 'GET',
      path: '/rest/user/mi/1001/events?version=1',
      headers: userHeaders(olivia),
      read: true,
      kind: 'list',
      paged: true,
    },
    {
      name: 'e-consents',
      method: 'GET',
      path: '/rest/user/econsents?type=C&companyId=1001',
      headers: userHeaders(olivia),
      read: true,
      kind: 'small',
      paged: true,
    },
    // Olivia's inbox holds every bench notification (seed-bench.ts): its newest page.
    {
      name: 'inbox page 1',
      method: 'GET',
      path: '/rest/user/notifications?version=1&pageNum=1',
      headers: userHeaders(olivia),
      read: true,
      kind: 'list',
      paged: true,
    },
    // The explorer's home-screen example: connections, each company's next events and newest entries.
    {
      name: 'me home screen (GraphQL)',
      method: 'POST',
      path: '/graphql',
      headers: userHeaders(olivia),
      body: { query: HOME_SCREEN_QUERY },
      read: true,
      kind: 'list',
      paged: true,
    },
    {
      name: 'createSmartEntry (URL)',
      method: 'POST',
      path: '/rest/smartlib/smartentry',
      headers: userHeaders(olivia),
      read: false,
      setupRequest: (req) => ({
        ...req,
        body: JSON.stringify({
          smartLibId: BENCH.libraryId,
          smartEntryType: 'URL',
          smartEntryName: `Bench link ${run}-${++n}`,
          smartEntryUrlLink: `https://bench.example/${run}/${n}`,
        }),
      }),
    },
    {
      name: 'updateUserProfile',
      method: 'PUT',
      path: '/rest/user/profile',
      headers: userHeaders(pat),
      read: false,
      setupRequest: (req) => ({ ...req, body: JSON.stringify({ uId: 2005, uInterests: `Benchmarks, run ${run} #${++n}` }) }),
    },
    {
      name: 'password grant',
      method: 'POST',
      path: '/as/token.oauth2',
      read: false,
      form: {
        grant_type: 'password',
        scope: 'sso',
        ...BENCH_CLIENT,
        username: `bench.user${BASE + 1}@bench.example`,
        password: BENCH.password,
      },
    },
  ];

  return Object.assign(list, { byName: { recommended, userAddresses, contactAddresses } });
}
