// GraphQL resource limits, security headers, CORS and metrics.
import { useTestApp } from '../kit';

/** The documented limits (docs/security.md), written down rather than read from the code under test. */
const GRAPHQL_LIMITS = { maxAliases: 15, maxDirectives: 20, maxTokens: 2000 };
/** The security headers every answer carries (docs/security.md), with their values. */
const SECURITY_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

const t = useTestApp({ demo: false, env: { CORS_ORIGINS: 'https://app.example' } });

const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: conditionsVersion { version }`).join(' ')} }`;
const directives = (n: number) => `{ conditionsVersion { ${Array.from({ length: n }, () => 'version @include(if: true)').join(' ')} } }`;

describe('GraphQL limits', () => {
  it.each([
    [GRAPHQL_LIMITS.maxAliases, 'aliases', aliases, 'Aliases limit of 15 exceeded'],
    [GRAPHQL_LIMITS.maxDirectives, 'directives', directives, 'Directives limit of 20 exceeded'],
  ])('accepts %i %s and refuses one more', async (limit, _what, document, message) => {
    const ok = await t.gql(document(limit));
    expect(ok.body.errors).toBeUndefined();
    const over = await t.gql(document(limit + 1));
    expect(over.status).toBe(400);
    expect(over.body.errors![0]).toMatchObject({
      message: expect.stringContaining(message),
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });

  it(`refuses a document of more than ${GRAPHQL_LIMITS.maxTokens} tokens`, async () => {
    const fields = Array.from({ length: GRAPHQL_LIMITS.maxTokens }, () => 'timezoneId').join(' ');
    const res = await t.gql(`{ timezones { ${fields} } }`);
    expect(res.status).toBe(400);
    expect(res.body.errors![0]).toMatchObject({
      message: 'Syntax Error: Document contains more that 2000 tokens. Parsing aborted.',
      extensions: { code: 'GRAPHQL_PARSE_FAILED' },
    });
  });

  it('refuses batched HTTP requests', async () => {
    const res = await t.rest('POST', '/graphql', {
      body: [{ query: '{ conditionsVersion { version } }' }, { query: '{ conditionsVersion { version } }' }],
    });
    expect(res.status).toBe(400);
  });
});

describe('HTTP hardening', () => {
  it('sends security headers', async () => {
    const res = await t.rest('GET', '/healthz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=/);
  });

  it('sends, on REST, GraphQL and errors alike, each security header with its value', async () => {
    for (const res of [
      await t.rest('GET', '/rest/refdata/conditions'),
      await t.gql('{ conditionsVersion { version } }'),
      await t.rest('GET', '/rest/no/such/route'),
    ]) {
      const sent = Object.fromEntries(Object.keys(SECURITY_HEADERS).map((name) => [name, res.headers.get(name)]));
      expect(sent).toEqual(SECURITY_HEADERS);
    }
  });

  it('answers CORS only for configured origins', async () => {
    const allowed = await t.rest('OPTIONS', '/rest/refdata/conditions', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await t.rest('GET', '/rest/refdata/countries', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('metrics', () => {
  it('counts a REST operation by name and outcome', async () => {
    await t.rest('GET', '/rest/refdata/timezones?countryCode=aus');
    await t.rest('GET', '/rest/refdata/timezones?countryCode=au');
    await t.gql('query getConditionsVersion { conditionsVersion { version } }');
    const res = await t.rest('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.text).toContain('http_requests_total{operation="getAllTimezones",method="GET",outcome="WSInvalidParameterException"} 1');
    expect(res.text).toContain('http_requests_total{operation="getAllTimezones",method="GET",outcome="ok"} 1');
    expect(res.text).toContain('http_requests_total{operation="getConditionsVersion",method="POST",outcome="ok"} 1');
    expect(res.text).toMatch(/http_request_duration_seconds_bucket\{le="0.005",operation="getAllTimezones",outcome="ok"\}/);
    expect(res.text).toContain('nodejs_eventloop_lag_seconds');
    expect(res.text).toContain('db_statements_total');
    // A real server has a pool; the embedded database has one in-process connection and no pool.
    // ... and times each wait for one of its connections.
    if (t.db.databaseUrl) {
      expect(res.text).toMatch(/db_pool_connections\{state="total"\} [1-9]/);
      expect(res.text).toMatch(/db_pool_acquire_seconds_count [1-9]/);
    } else expect(res.text).not.toMatch(/db_pool_connections\{/);
  });
});

describe('metrics behind a token', () => {
  const t2 = useTestApp({ demo: false, alongside: t, env: { METRICS_TOKEN: 'm-secret' } });

  it('refuses /metrics without the token and serves it with it', async () => {
    const denied = await t2.rest('GET', '/metrics');
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ errorCode: 'WSInvalidAuthTokenException', message: 'A metrics token is required.' });
    const ok = await t2.rest('GET', '/metrics', { headers: { authorization: 'Bearer m-secret' } });
    expect(ok.status).toBe(200);
  });
});
