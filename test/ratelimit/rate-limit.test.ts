// Rate limits per user and per client address on loginUser, recommendedEntities and the
// uploads: the limit passes, limit+1 answers 429 WSLimitExceededException with Retry-After on
// REST and GraphQL and stores nothing, the counters are shared by two instances on one
// database, and a store that does not answer lets requests through.
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
    expect((await olivia.rest('POST', '/rest/user/login')).status).toBe(200);
    expect((await oliviaOnSecond.rest('POST', '/rest/user/login')).status).toBe(200);
    const tokens = await t.countRows('service_auth_token');

    const refused = await olivia.rest('POST', '/rest/user/login');
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(LIMITED);
    expect(Object.keys(refused.body)).toEqual(['errorCode', 'message']);
    expectRetryAfter(refused.headers);

    const gql = await oliviaOnSecond.gql(LOGIN);
    expect(gql.status).toBe(429);
    expectRetryAfter(gql.headers);
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors).toEqual([
      expect.objectContaining({
        message: LIMITED.message,
        extensions: { code: 'WSLimitExceededException', retryAfter: Number(gql.headers.get('retry-after')) },
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
    expect((await one.rest('POST', '/rest/user/recommended/entities', { body })).status).toBe(200);
    expect((await second.as(one).rest('POST', '/rest/user/recommended/entities', { body })).status).toBe(200);
    const third = await one.gql(QUERY);
    expect(third.status).toBe(200);
    expect(third.body.errors).toBeUndefined();

    const userRefused = await one.rest('POST', '/rest/user/recommended/entities', { body });
    expect(userRefused.status).toBe(429);
    expect(userRefused.body).toEqual(LIMITED);
    expectRetryAfter(userRefused.headers);

    // The other user has its own count, but shares the address's: the 5th request passes, the 6th not.
    expect((await two.rest('POST', '/rest/user/recommended/entities', { body })).status).toBe(200);
    const addressRefused = await two.gql(QUERY);
    expect(addressRefused.status).toBe(429);
    expectRetryAfter(addressRefused.headers);
    expect(addressRefused.body.errors![0].extensions).toEqual({ code: 'WSLimitExceededException', retryAfter: expect.any(Number) });
  });

  it('keeps each address to its own count', async () => {
    const limits = new RateLimits(
      { login: { perUser: 9, perAddress: 9 }, recommended: { perUser: 9, perAddress: 2 }, upload: { perUser: 9, perAddress: 9 } },
      { orm: t.orm },
    );
    expect(await limits.consume('recommended', 1, '192.0.2.1')).toBeNull();
    expect(await limits.consume('recommended', 2, '192.0.2.1')).toBeNull();
    expect(await limits.consume('recommended', 3, '192.0.2.1')).toEqual(expect.any(Number));
    expect(await limits.consume('recommended', 3, '192.0.2.2')).toBeNull();
    expect(await limits.consume('login', 3, '192.0.2.1')).toBeNull();
  });
});

describe('uploads (POST /rest/smartlib/upload/file and /upload/tile, uploadSmartFile, uploadTileImage)', () => {
  it('one upload a minute per user: the next, on REST or GraphQL, is refused and stores nothing; another publisher is unaffected', async () => {
    const p = await newPublisher(t);
    expect((await upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'a.pdf')).status).toBe(200);
    const before = await libraryCounts();

    const file = await upload(second.as(p), '/rest/smartlib/upload/file', uniquePdf(), 'b.pdf');
    expect(file.status).toBe(429);
    expect(file.body).toEqual(LIMITED);
    expectRetryAfter(file.headers);
    const tile = await upload(p, '/rest/smartlib/upload/tile', await png(40, 30, '#3366cc'), 'tile.png');
    expect(tile.status).toBe(429);
    expect(tile.body).toEqual(LIMITED);
    const gql = await gqlUpload(p, UPLOAD_TILE, await png(40, 30, '#654321'), 'tile.png');
    expect(gql.status).toBe(429);
    expectRetryAfter(gql.headers);
    expect(gql.body.errors![0].extensions).toEqual({ code: 'WSLimitExceededException', retryAfter: expect.any(Number) });
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
      expect((await upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'b.pdf')).status).toBe(200);
    } finally {
      await conn.execute('alter table auth_rate_limit_away rename to auth_rate_limit');
    }
    expect(
      t.logs.filter((l) => l.msg === 'rate limit store unavailable; request allowed' && l.level >= 50 && l.action === 'upload'),
    ).toHaveLength(2);
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
      expect(body.paths[path].post.responses['429']).toMatchObject({ headers: { 'Retry-After': { schema: { type: 'integer' } } } });
    }
    expect(body.paths['/rest/user/login-scheme'].get.responses['429']).toBeUndefined();
  });
});
