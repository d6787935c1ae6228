// Telemetry a client cannot grow: every metric label comes from a closed set (a flood of unique
// GraphQL operation names and unmatched paths leaves /metrics the size it was), the caches of
// client documents are bounded in bytes (persisted queries, compiled documents), and production
// serves /metrics only behind its token or on a port of its own.
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { generateKeyPair, exportJWK } from 'jose';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { freePort, gatewayRequest, useTestApp } from '../kit';
import { vapidSettings } from '../kit/production';
import { ROUTES } from '../kit/routes';
import { HTTP_OPERATIONS, knownOperations } from '../../src/observability/operation-names';
import { startMetricsListener } from '../../src/http/probes';
import { jitExecutor } from '../../src/graphql/jit-executor';

const t = useTestApp();

/** Runs `task(i)` for i in 0..count-1, `concurrency` at a time. */
async function pool(count: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

const post = (base: string, body: unknown) =>
  fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function metricsText(base = t.baseUrl): Promise<string> {
  const res = await fetch(`${base}/metrics`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The label sets of http_requests_total, sorted. */
const requestSeries = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('http_requests_total{'))
    .map((line) => line.slice(0, line.lastIndexOf('}') + 1))
    .sort();

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

/** One request of each kind the flood sends; `i` makes the name or path unique. */
const kinds: ((i: number) => Promise<Response>)[] = [
  // A GraphQL operation the service does not ship, a long one, an anonymous one.
  (i) => post(t.baseUrl, { query: `query flood${i}_${hex(8)} { __typename }` }),
  (i) => post(t.baseUrl, { query: `query flood${i}_${i % 100 === 0 ? hex(100_000) : hex(1_000)} { __typename }` }),
  (i) => post(t.baseUrl, { query: `{ __typename } # flood ${i}` }),
  // Paths no route takes: under /rest (404), elsewhere (404), a route's path with another method (405), an unusual method.
  (i) => fetch(`${t.baseUrl}/rest/user/addresses/${16_000 + i}/flood`),
  (i) => fetch(`${t.baseUrl}/flood/${hex(6)}/${i}`),
  (i) => fetch(`${t.baseUrl}/rest/user/addresses/flood-${i}`, { method: 'PATCH' }),
  (i) => fetch(`${t.baseUrl}/flood-${i}`, { method: 'PROPFIND' }),
];
const EXPECTED_STATUS = [200, 200, 200, 404, 404, 405, 405];

describe('when 5,000 unique GraphQL operation names and 5,000 unmatched paths arrive', () => {
  let before: string;
  let after: string;

  beforeAll(async () => {
    for (const [k, send] of kinds.entries()) expect([k, (await send(100_000 + k)).status]).toEqual([k, EXPECTED_STATUS[k]]);
    // Known names count by name: a REST route's document sent to /graphql.
    await post(t.baseUrl, { query: 'query getConditionsVersion { conditionsVersion { version } }' });
    before = await metricsText();
    const statuses = new Map<number, number>();
    const graphql = kinds.slice(0, 3);
    const unmatched = kinds.slice(3);
    await pool(10_000, 20, async (i) => {
      const set = i % 2 === 0 ? graphql : unmatched;
      const res = await set[(i >> 1) % set.length](i);
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    });
    expect([...statuses.keys()].sort()).toEqual([200, 404, 405]);
    after = await metricsText();
  }, 180_000);

  it('then /metrics holds the same series and stays within a few KB of its size before', () => {
    expect(requestSeries(after)).toEqual(requestSeries(before));
    // Counts grow by a few digits (15.3 KB before, 16.6 KB after, measured); the process's own
    // metrics may add a garbage collection kind. Labels of the flooded values would be megabytes.
    expect(after.length).toBeLessThanOrEqual(before.length + 4 * 1024);
  });

  it('then unknown names count as other and unmatched requests as unmatched, and no flooded value is a label', () => {
    expect(after).toContain('http_requests_total{operation="other",method="POST",outcome="ok"}');
    expect(after).toContain('http_requests_total{operation="anonymous",method="POST",outcome="ok"}');
    expect(after).toContain('http_requests_total{operation="getConditionsVersion",method="POST",outcome="ok"}');
    expect(after).toContain('http_requests_total{operation="unmatched",method="GET",outcome="WSNotFoundException"}');
    expect(after).toContain('http_requests_total{operation="unmatched",method="PATCH",outcome="WSMethodNotAllowedException"}');
    expect(after).toContain('http_requests_total{operation="unmatched",method="other",outcome="WSMethodNotAllowedException"}');
    expect(after).not.toMatch(/flood|\/rest\/user\/addresses\//);
  });

  it('then the access log keeps at most 100 characters of a name', () => {
    const names = t.logs.filter((l) => l.msg === 'request' && String(l.operation).startsWith('flood')).map((l) => l.operation as string);
    expect(names.length).toBeGreaterThan(3000);
    expect(Math.max(...names.map((n) => n.length))).toBe(100);
  });

  it('then the route of an unnamed endpoint is its label', async () => {
    await fetch(`${t.baseUrl}/healthz`);
    expect(await metricsText()).toContain('http_requests_total{operation="/healthz",method="GET",outcome="ok"}');
  });
});

describe('the known operation names', () => {
  it('are the REST operations, the example documents and every name the HTTP layer sets', () => {
    const known = knownOperations(ROUTES);
    for (const r of ROUTES) expect(known.has(r.operation)).toBe(true);
    expect(known.has('homeScreen')).toBe(true);
    // Every `ctx.state.operation = '...'` in src/ is listed.
    const set: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (p.endsWith('.ts')) for (const m of fs.readFileSync(p, 'utf8').matchAll(/state\.operation = '([^']+)'/g)) set.push(m[1]);
      }
    };
    walk(path.join(__dirname, '../../src'));
    expect(set.length).toBeGreaterThan(5);
    expect(set.filter((name) => !(HTTP_OPERATIONS as readonly string[]).includes(name))).toEqual([]);
  });
});

/** A valid document of about `kb` KB (a comment pads it) and its sha256, as Apollo's clients send it. */
function padded(i: number, kb: number) {
  const query = `query apq${i} { __typename } # ${'x'.repeat(kb * 1024)}`;
  return { query, sha256Hash: createHash('sha256').update(query).digest('hex') };
}
const byHash = (sha256Hash: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash } } });

describe('automatic persisted queries', () => {
  it('when documents past GRAPHQL_APQ_CACHE_BYTES (8 MiB) are registered, then the least recently used is gone', async () => {
    const docs = Array.from({ length: 50 }, (_, i) => padded(i, 200));
    for (const d of docs) {
      const res = await post(t.baseUrl, { query: d.query, ...byHash(d.sha256Hash) });
      expect([res.status, await res.json()]).toEqual([200, { data: { __typename: 'Query' } }]);
    }
    const last = await post(t.baseUrl, byHash(docs[49].sha256Hash));
    expect([last.status, await last.json()]).toEqual([200, { data: { __typename: 'Query' } }]);
    const first = await post(t.baseUrl, byHash(docs[0].sha256Hash));
    expect([first.status, await first.json()]).toEqual([
      200,
      { errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] },
    ]);
  }, 60_000);

  describe('with GRAPHQL_APQ_CACHE_BYTES=0', () => {
    const off = useTestApp({ alongside: t, env: { GRAPHQL_APQ_CACHE_BYTES: '0' } });

    it('then persisted queries are not supported', async () => {
      const d = padded(0, 1);
      const res = await post(off.baseUrl, { query: d.query, ...byHash(d.sha256Hash) });
      expect([res.status, await res.json()]).toEqual([
        200,
        { errors: [{ message: 'PersistedQueryNotSupported', extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' } }] },
      ]);
    });
  });
});

describe('compiled client documents', () => {
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { a: { type: GraphQLString, resolve: () => 'a' } } }),
  });

  it('are kept within their bytes: 200 KB documents, 1 MiB allowed, at most two at once', async () => {
    const jit = jitExecutor(schema, 100, 1024 * 1024);
    for (let i = 0; i < 6; i++) {
      const q = gatewayRequest(`query big${i} { a } # ${'x'.repeat(200 * 1024)}`);
      expect(await jit.executor(q)).toEqual({ data: { a: 'a' } });
      expect(await jit.executor(q)).toEqual({ data: { a: 'a' } });
      expect(jit.compiled()).toBeLessThanOrEqual(2);
    }
    expect(jit.compiled()).toBe(2);
  });
});

/** What production insists on (no demo keys or secrets). */
async function productionEnv(): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return {
    NODE_ENV: 'production',
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: 'prod-1' }] }),
    LOGIN_CLIENT_ID: 'mobile',
    LOGIN_CLIENT_SECRET: 'a-production-secret-of-forty-characters!',
    LOGIN_CLIENT_REDIRECT_URIS: 'com.example.app:/oauth/ssosignedin',
    ...vapidSettings(),
  };
}

describe('in production', () => {
  let env: Record<string, string>;
  let port: number;
  const plain = useTestApp(async () => {
    env = await productionEnv();
    return { demo: false, env };
  });
  const withToken = useTestApp(() => ({ alongside: plain, env: { ...env, METRICS_TOKEN: 'm-secret' } }));
  const withPort = useTestApp(async () => {
    port = await freePort();
    return { alongside: plain, env: { ...env, METRICS_PORT: String(port), HOST: '127.0.0.1' } };
  });

  it('when neither METRICS_TOKEN nor METRICS_PORT is set, then /metrics is not served', async () => {
    const res = await plain.rest('GET', '/metrics');
    expect([res.status, res.body]).toEqual([404, { errorCode: 'WSNotFoundException', message: 'No route for GET /metrics.' }]);
    expect(await startMetricsListener(plain.config, plain.app.metrics)).toBeNull();
  });

  it('when METRICS_TOKEN is set, then /metrics is served with the token only', async () => {
    const denied = await withToken.rest('GET', '/metrics');
    expect([denied.status, denied.body]).toEqual([
      401,
      { errorCode: 'WSInvalidAuthTokenException', message: 'A metrics token is required.' },
    ]);
    const ok = await withToken.rest('GET', '/metrics', { headers: { authorization: 'Bearer m-secret' } });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_requests_total');
  });

  it('when METRICS_PORT is set, then /metrics is served on that port on HOST and not on the service port', async () => {
    const main = await withPort.rest('GET', '/metrics');
    expect(main.status).toBe(404);
    const listener = (await startMetricsListener(withPort.config, withPort.app.metrics))!;
    try {
      expect(listener.port).toBe(port);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('http_requests_total');
      const other = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect([other.status, await other.json()]).toEqual([
        404,
        { errorCode: 'WSNotFoundException', message: 'No route for GET /healthz.' },
      ]);
    } finally {
      await listener.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('outside production, with METRICS_PORT', () => {
  let port: number;
  const dev = useTestApp(async () => {
    port = await freePort();
    return { alongside: t, env: { METRICS_PORT: String(port), HOST: '127.0.0.1' } };
  });

  it('then /metrics is on that port only', async () => {
    expect((await dev.rest('GET', '/metrics')).status).toBe(404);
    const listener = (await startMetricsListener(dev.config, dev.app.metrics))!;
    try {
      expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(200);
    } finally {
      await listener.close();
    }
  });
});
