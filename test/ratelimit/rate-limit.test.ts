// Rate limits per user and per client address on loginUser, recommendedEntities and the
// uploads: the limit passes, limit+1 answers 429 WSLimitExceededException with Retry-After on
// REST and GraphQL and stores nothing, the counters are shared by two instances on one
// database, and a store that does not answer lets requests through. Every answer of a limited
// operation, allowed or refused, carries the IETF RateLimit-Policy and RateLimit fields of both
// counters, counting down across instances; the token endpoint's lockout carries them too.
import { gqlUpload, LIBRARY_TABLES, newPublisher, png, uniquePdf, upload, UPLOAD_TILE, useTestApp, type Client } from '../kit';
import { passwordParams, tokenRequest } from '../kit/oauth';
import { RateLimits } from '../kit/src';

const ENV = {
  RATE_LIMIT_LOGIN_PER_MINUTE: '2',
  RATE_LIMIT_LOGIN_PER_ADDRESS_PER_MINUTE: '1000',
  RATE_LIMIT_RECOMMENDED_PER_MINUTE: '3',
  RATE_LIMIT_RECOMMENDED_PER_ADDRESS_PER_MINUTE: '5',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '1',
  RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '1000',
  LOGIN_MAX_FAILURES_PER_ACCOUNT: '2',
  LOGIN_FAILURE_WINDOW_SECONDS: '300',
  LOGIN_FAILURE_DELAY_MS: '0',
};
const LIMITED = {
  errorCode: 'WSLimitExceededException',
  message: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/),
};

const t = useTestApp({ env: ENV });
const second = useTestApp({ alongside: t, env: ENV });
const libraryCounts = () => t.tableCounts(LIBRARY_TABLES);

function expectRetryAfter(headers: Headers): void {
  const s = Number(headers.get('retry-after'));
  expect(Number.isInteger(s) && s >= 1 && s <= 60).toBe(true);
}

/** A RateLimit or RateLimit-Policy field read as its list of items: `"name";k=v;...` by name. */
function items(field: string | null): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const item of (field ?? '').split(/,\s*/).filter(Boolean)) {
    const [name, ...params] = item.split(';');
    expect(name).toMatch(/^"[a-z-]+"$/);
    out[JSON.parse(name)] = Object.fromEntries(params.map((p) => [p.split('=')[0], Number(p.split('=')[1])]));
  }
  return out;
}

/** Both fields of an answer, the resets (t: seconds left in the window) checked and left out. */
function limitsOf(headers: Headers, window = 60): { policy: Record<string, Record<string, number>>; remaining: Record<string, number> } {
  const state = items(headers.get('ratelimit'));
  for (const [name, { t }] of Object.entries(state))
    expect({ name, t, inWindow: t >= 1 && t <= window }).toEqual({ name, t, inWindow: true });
  return {
    policy: items(headers.get('ratelimit-policy')),
    remaining: Object.fromEntries(Object.entries(state).map(([name, { r }]) => [name, r])),
  };
}

async function accessToken(email: string): Promise<string> {
  const res = await tokenRequest(t, passwordParams(email));
  expect(res.status).toBe(200);
  return res.body.access_token;
}
/** The caller of loginUser: the bearer of an access token. */
const bearer = (app: Client, token: string) => app.with({ authorization: `Bearer ${token}` });
const LOGIN = 'mutation { loginUser { authToken userId expiresAt } }';

describe('loginUser (POST /rest/user/login)', () => {
  it('at the limit passes; past it, REST and GraphQL answer 429 with Retry-After on either instance and store no token; another user is unaffected', async () => {
    const access = await accessToken('olivia@demo.example');
    const [olivia, oliviaOnSecond] = [bearer(t, access), bearer(second, access)];
    const policy = { 'login-user': { q: 2, w: 60 }, 'login-address': { q: 1000, w: 60 } };
    const first = await olivia.rest('POST', '/rest/user/login');
    expect(first.status).toBe(200);
    expect(limitsOf(first.headers)).toEqual({ policy, remaining: { 'login-user': 1, 'login-address': 999 } });
    // The other instance reads the same counters.
    const next = await oliviaOnSecond.rest('POST', '/rest/user/login');
    expect(next.status).toBe(200);
    expect(limitsOf(next.headers)).toEqual({ policy, remaining: { 'login-user': 0, 'login-address': 998 } });
    const tokens = await t.countRows('service_auth_token');

    const refused = await olivia.rest('POST', '/rest/user/login');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(LIMITED);
    expect(Object.keys(refused.body)).toEqual(['errorCode', 'message']);
    expectRetryAfter(refused.headers);
    // The exhausted counter resets when Retry-After says.
    expect(limitsOf(refused.headers)).toEqual({ policy, remaining: { 'login-user': 0, 'login-address': 997 } });
    expect(items(refused.headers.get('ratelimit'))['login-user'].t).toBe(Number(refused.headers.get('retry-after')));

    const gql = await oliviaOnSecond.gql(LOGIN);
    expect(gql.status).toBe(429);
    expectRetryAfter(gql.headers);
    expect(limitsOf(gql.headers)).toEqual({ policy, remaining: { 'login-user': 0, 'login-address': 996 } });
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors).toEqual([
      expect.objectContaining({
        message: LIMITED.message,
        extensions: { code: 'RATE_LIMITED', errorCode: 'WSLimitExceededException', retryAfter: Number(gql.headers.get('retry-after')) },
      }),
    ]);
    expect(await t.countRows('service_auth_token')).toBe(tokens);

    const cara = await bearer(t, await accessToken('cara@demo.example')).rest('POST', '/rest/user/login');
    expect(cara.status).toBe(200);
    expect(await t.countRows('service_auth_token')).toBe(tokens + 1);
  });
});

describe('recommendedEntities (POST /rest/user/recommended/entities)', () => {
  const body = { version: 2, entityType: ['company'] };
  const QUERY = 'query { recommendedEntities(version: 2, entityType: ["company"]) { entityId } }';

  it('counts per user (3) and per address (5) across REST, GraphQL and both instances', async () => {
    const one = await t.newUser();
    const two = await t.newUser();
    const policy = { 'recommended-user': { q: 3, w: 60 }, 'recommended-address': { q: 5, w: 60 } };
    const left = (user: number, address: number) => ({ policy, remaining: { 'recommended-user': user, 'recommended-address': address } });
    const first = await one.rest('POST', '/rest/user/recommended/entities', { body });
    expect(first.status).toBe(200);
    expect(limitsOf(first.headers)).toEqual(left(2, 4));
    const onSecond = await second.as(one).rest('POST', '/rest/user/recommended/entities', { body });
    expect(onSecond.status).toBe(200);
    expect(limitsOf(onSecond.headers)).toEqual(left(1, 3));
    const third = await one.gql(QUERY);
    expect(third.status).toBe(200);
    expect(third.body.errors).toBeUndefined();
    expect(limitsOf(third.headers)).toEqual(left(0, 2));

    const userRefused = await one.rest('POST', '/rest/user/recommended/entities', { body });
    expect(userRefused.status).toBe(429);
    expect(userRefused.body).toEqual(LIMITED);
    expectRetryAfter(userRefused.headers);
    // A refused request still counts against the address.
    expect(limitsOf(userRefused.headers)).toEqual(left(0, 1));

    // The other user has its own count, but shares the address's: the 5th request passes, the 6th not.
    const fifth = await two.rest('POST', '/rest/user/recommended/entities', { body });
    expect(fifth.status).toBe(200);
    expect(limitsOf(fifth.headers)).toEqual(left(2, 0));
    const addressRefused = await two.gql(QUERY);
    expect(addressRefused.status).toBe(429);
    expectRetryAfter(addressRefused.headers);
    expect(limitsOf(addressRefused.headers)).toEqual(left(1, 0));
    expect(items(addressRefused.headers.get('ratelimit'))['recommended-address'].t).toBe(Number(addressRefused.headers.get('retry-after')));
    expect(addressRefused.body.errors![0].extensions).toEqual({
      code: 'RATE_LIMITED',
      errorCode: 'WSLimitExceededException',
      retryAfter: expect.any(Number),
    });
  });

  it('keeps each address to its own count', async () => {
    const limits = new RateLimits(
      { login: { perUser: 9, perAddress: 9 }, recommended: { perUser: 9, perAddress: 2 }, upload: { perUser: 9, perAddress: 9 } },
      { orm: t.orm },
    );
    const retryAfter = async (...args: Parameters<RateLimits['consume']>) => (await limits.consume(...args)).retryAfter;
    expect(await retryAfter('recommended', 1, '192.0.2.1')).toBeNull();
    expect(await retryAfter('recommended', 2, '192.0.2.1')).toBeNull();
    expect(await retryAfter('recommended', 3, '192.0.2.1')).toEqual(expect.any(Number));
    expect(await retryAfter('recommended', 3, '192.0.2.2')).toBeNull();
    const login = await limits.consume('login', 3, '192.0.2.1');
    expect(login).toEqual({
      retryAfter: null,
      counters: [
        { policy: 'login-user', quota: 9, window: 60, remaining: 8, reset: expect.any(Number) },
        { policy: 'login-address', quota: 9, window: 60, remaining: 8, reset: expect.any(Number) },
      ],
    });
    for (const c of login.counters) expect(c.reset >= 59 && c.reset <= 60).toBe(true);
  });
});

describe('uploads (POST /rest/smartlib/upload/file and /upload/tile, uploadSmartFile, uploadTileImage)', () => {
  it('one upload a minute per user: the next, on REST or GraphQL, is refused and stores nothing; another publisher is unaffected', async () => {
    const p = await newPublisher(t);
    const policy = { 'upload-user': { q: 1, w: 60 }, 'upload-address': { q: 1000, w: 60 } };
    const left = (address: number) => ({ policy, remaining: { 'upload-user': 0, 'upload-address': address } });
    const accepted = await upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'a.pdf');
    expect(accepted.status).toBe(200);
    expect(limitsOf(accepted.headers)).toEqual(left(999));
    const before = await libraryCounts();

    const file = await upload(second.as(p), '/rest/smartlib/upload/file', uniquePdf(), 'b.pdf');
    expect(file.status).toBe(429);
    expect(file.body).toEqual(LIMITED);
    expectRetryAfter(file.headers);
    expect(limitsOf(file.headers)).toEqual(left(998));
    const tile = await upload(p, '/rest/smartlib/upload/tile', await png(40, 30, '#3366cc'), 'tile.png');
    expect(tile.status).toBe(429);
    expect(tile.body).toEqual(LIMITED);
    const gql = await gqlUpload(p, UPLOAD_TILE, await png(40, 30, '#654321'), 'tile.png');
    expect(gql.status).toBe(429);
    expectRetryAfter(gql.headers);
    expect(limitsOf(gql.headers)).toEqual(left(996));
    expect(gql.body.errors![0].extensions).toEqual({
      code: 'RATE_LIMITED',
      errorCode: 'WSLimitExceededException',
      retryAfter: expect.any(Number),
    });
    expect(await libraryCounts()).toEqual(before);

    const other = await newPublisher(t);
    expect((await upload(other, '/rest/smartlib/upload/file', uniquePdf(), 'c.pdf')).status).toBe(200);
  });

  it('when the counter store does not answer, requests pass (fail open) and the failure is logged', async () => {
    const p = await newPublisher(t);
    const conn = t.orm.em.fork().getConnection();
    await conn.execute('alter table auth_rate_limit rename to auth_rate_limit_away');
    try {
      expect((await upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'a.pdf')).status).toBe(200);
      const uncounted = await upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'b.pdf');
      expect(uncounted.status).toBe(200);
      // Nothing was counted, so nothing is said of the budget.
      expect([uncounted.headers.get('ratelimit'), uncounted.headers.get('ratelimit-policy')]).toEqual([null, null]);
    } finally {
      await conn.execute('alter table auth_rate_limit_away rename to auth_rate_limit');
    }
    expect(
      t.logs.filter((l) => l.msg === 'rate limit store unavailable; request allowed' && l.level >= 50 && l.action === 'upload'),
    ).toHaveLength(2);
  });
});

describe('the token endpoint', () => {
  it('when an account is locked out, then the 429 says so in the RateLimit fields too: no failures left until Retry-After', async () => {
    const wrong = passwordParams('rate-fields@nowhere.example', 'wrong');
    for (let i = 0; i < 2; i++) {
      const failed = await tokenRequest(t, wrong);
      expect(failed.status).toBe(400);
      expect(failed.headers.get('ratelimit')).toBeNull();
    }
    const refused = await tokenRequest(second, wrong);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(refused.headers.get('ratelimit-policy')).toBe('"token-failures-account";q=2;w=300');
    expect(refused.headers.get('ratelimit')).toBe(`"token-failures-account";r=0;t=${retryAfter}`);
  });

  it('when a route is not rate-limited, then it carries no RateLimit fields', async () => {
    const res = await t.rest('GET', '/rest/refdata/countries');
    expect([res.status, res.headers.get('ratelimit'), res.headers.get('ratelimit-policy')]).toEqual([200, null, null]);
  });
});

describe('/openapi.json', () => {
  it('documents the 429 with Retry-After on each rate-limited route', async () => {
    const { body } = await t.rest('GET', '/openapi.json');
    for (const path of [
      '/rest/user/login',
      '/rest/user/recommended/entities',
      '/rest/smartlib/upload/file',
      '/rest/smartlib/upload/tile',
    ]) {
      expect(body.paths[path].post.responses['429'].headers).toEqual({
        'Retry-After': { $ref: '#/components/headers/RetryAfter' },
        RateLimit: { $ref: '#/components/headers/RateLimit' },
        'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
      });
    }
    expect(body.paths['/rest/user/login-scheme'].get.responses['429']).toBeUndefined();
    expect(body.components.headers.RetryAfter).toEqual({ description: expect.any(String), schema: { type: 'integer', minimum: 1 } });
  });
});
