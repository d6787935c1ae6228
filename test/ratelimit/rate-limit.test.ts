// Rate limits per user and per client address on loginUser, recommendedEntities and the
// uploads: the limit passes, limit+1 answers 429 WSLimitExceededException with Retry-After on
// REST and GraphQL and stores nothing, the counters are shared by two instances on one
// database, and a store that does not answer lets requests through.
import { startTestApp, type TestApp } from '../helpers/app';
import { countRows, createUser, tokenFor, userAuth } from '../factories';
import { passwordParams, tokenRequest } from '../identity/helpers';
import { gqlUpload, libraryCounts, newPublisher, png, restUpload, uniquePdf, UPLOAD_TILE } from '../library/fixtures';
import { RateLimits } from '../../src/modules/ratelimit/rate-limit';

const ENV = {
  RATE_LIMIT_LOGIN_PER_MINUTE: '2',
  RATE_LIMIT_LOGIN_PER_ADDRESS_PER_MINUTE: '1000',
  RATE_LIMIT_RECOMMENDED_PER_MINUTE: '3',
  RATE_LIMIT_RECOMMENDED_PER_ADDRESS_PER_MINUTE: '5',
  RATE_LIMIT_UPLOADS_PER_MINUTE: '1',
  RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '1000',
};
const LIMITED = { errorCode: 'WSLimitExceededException', message: expect.stringMatching(/^Too many requests\. Try again in \d+ seconds\.$/) };

let t: TestApp;
let second: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: ENV });
  second = await startTestApp({ db: t.db, env: ENV });
});
afterAll(async () => {
  await second.close();
  await t.close();
});

function expectRetryAfter(headers: Headers): void {
  const s = Number(headers.get('retry-after'));
  expect(Number.isInteger(s) && s >= 1 && s <= 60).toBe(true);
}

async function accessToken(email: string): Promise<string> {
  const res = await tokenRequest(t, passwordParams(email));
  expect(res.status).toBe(200);
  return res.body.access_token;
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const LOGIN = 'mutation { loginUser { authToken userId expiresAt } }';

describe('loginUser (POST /rest/user/login)', () => {
  it('at the limit passes; past it, REST and GraphQL answer 429 with Retry-After on either instance and store no token; another user is unaffected', async () => {
    const olivia = bearer(await accessToken('olivia@demo.example'));
    expect((await t.rest('POST', '/rest/user/login', { headers: olivia })).status).toBe(200);
    expect((await second.rest('POST', '/rest/user/login', { headers: olivia })).status).toBe(200);
    const tokens = await countRows(t.db.orm, 'service_auth_token');

    const refused = await t.rest('POST', '/rest/user/login', { headers: olivia });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(LIMITED);
    expect(Object.keys(refused.body)).toEqual(['errorCode', 'message']);
    expectRetryAfter(refused.headers);

    const gql = await second.gql(LOGIN, undefined, olivia);
    expect(gql.status).toBe(429);
    expectRetryAfter(gql.headers);
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors).toEqual([
      expect.objectContaining({ message: LIMITED.message, extensions: { code: 'WSLimitExceededException', retryAfter: Number(gql.headers.get('retry-after')) } }),
    ]);
    expect(await countRows(t.db.orm, 'service_auth_token')).toBe(tokens);

    const cara = await t.rest('POST', '/rest/user/login', { headers: bearer(await accessToken('cara@demo.example')) });
    expect(cara.status).toBe(200);
    expect(await countRows(t.db.orm, 'service_auth_token')).toBe(tokens + 1);
  });
});

describe('recommendedEntities (POST /rest/user/recommended/entities)', () => {
  const body = { version: 2, entityType: ['company'] };
  const QUERY = "query { recommendedEntities(version: 2, entityType: [\"company\"]) { entityId } }";

  it('counts per user (3) and per address (5) across REST, GraphQL and both instances', async () => {
    const one = userAuth(await tokenFor(t.db.orm, (await createUser(t.db.orm)).uId));
    const two = userAuth(await tokenFor(t.db.orm, (await createUser(t.db.orm)).uId));
    expect((await t.rest('POST', '/rest/user/recommended/entities', { headers: one, body })).status).toBe(200);
    expect((await second.rest('POST', '/rest/user/recommended/entities', { headers: one, body })).status).toBe(200);
    const third = await t.gql(QUERY, undefined, one);
    expect(third.status).toBe(200);
    expect(third.body.errors).toBeUndefined();

    const userRefused = await t.rest('POST', '/rest/user/recommended/entities', { headers: one, body });
    expect(userRefused.status).toBe(429);
    expect(userRefused.body).toEqual(LIMITED);
    expectRetryAfter(userRefused.headers);

    // The other user has its own count, but shares the address's: the 5th request passes, the 6th not.
    expect((await t.rest('POST', '/rest/user/recommended/entities', { headers: two, body })).status).toBe(200);
    const addressRefused = await t.gql(QUERY, undefined, two);
    expect(addressRefused.status).toBe(429);
    expectRetryAfter(addressRefused.headers);
    expect(addressRefused.body.errors![0].extensions).toEqual({ code: 'WSLimitExceededException', retryAfter: expect.any(Number) });
  });

  it('keeps each address to its own count', async () => {
    const limits = new RateLimits({ login: { perUser: 9, perAddress: 9 }, recommended: { perUser: 9, perAddress: 2 }, upload: { perUser: 9, perAddress: 9 } }, { orm: t.db.orm });
    expect(await limits.consume('recommended', 1, '192.0.2.1')).toBeNull();
    expect(await limits.consume('recommended', 2, '192.0.2.1')).toBeNull();
    expect(await limits.consume('recommended', 3, '192.0.2.1')).toEqual(expect.any(Number));
    expect(await limits.consume('recommended', 3, '192.0.2.2')).toBeNull();
    expect(await limits.consume('login', 3, '192.0.2.1')).toBeNull();
  });
});

describe('uploads (POST /rest/smartlib/upload/file and /upload/tile, uploadSmartFile, uploadTileImage)', () => {
  it('one upload a minute per user: the next, on REST or GraphQL, is refused and stores nothing; another publisher is unaffected', async () => {
    const p = await newPublisher(t.db.orm);
    expect((await restUpload(t, '/rest/smartlib/upload/file', uniquePdf(), 'a.pdf', p.headers)).status).toBe(200);
    const before = await libraryCounts(t.db.orm);

    const file = await restUpload(second, '/rest/smartlib/upload/file', uniquePdf(), 'b.pdf', p.headers);
    expect(file.status).toBe(429);
    expect(file.body).toEqual(LIMITED);
    expectRetryAfter(file.headers);
    const tile = await restUpload(t, '/rest/smartlib/upload/tile', await png(40, 30), 'tile.png', p.headers);
    expect(tile.status).toBe(429);
    expect(tile.body).toEqual(LIMITED);
    const gql = await gqlUpload(t, UPLOAD_TILE, await png(40, 30, '#654321'), 'tile.png', p.headers);
    expect(gql.status).toBe(429);
    expectRetryAfter(gql.headers);
    expect(gql.body.errors![0].extensions).toEqual({ code: 'WSLimitExceededException', retryAfter: expect.any(Number) });
    expect(await libraryCounts(t.db.orm)).toEqual(before);

    const other = await newPublisher(t.db.orm);
    expect((await restUpload(t, '/rest/smartlib/upload/file', uniquePdf(), 'c.pdf', other.headers)).status).toBe(200);
  });

  it('when the counter store does not answer, requests pass (fail open) and the failure is logged', async () => {
    const p = await newPublisher(t.db.orm);
    const conn = t.db.orm.em.fork().getConnection();
    await conn.execute('alter table auth_rate_limit rename to auth_rate_limit_away');
    try {
      expect((await restUpload(t, '/rest/smartlib/upload/file', uniquePdf(), 'a.pdf', p.headers)).status).toBe(200);
      expect((await restUpload(t, '/rest/smartlib/upload/file', uniquePdf(), 'b.pdf', p.headers)).status).toBe(200);
    } finally {
      await conn.execute('alter table auth_rate_limit_away rename to auth_rate_limit');
    }
    expect(t.logs.filter((l) => l.msg === 'rate limit store unavailable; request allowed' && l.level >= 50 && l.action === 'upload')).toHaveLength(2);
  });
});

describe('/openapi.json', () => {
  it('documents the 429 with Retry-After on each rate-limited route', async () => {
    const { body } = await t.rest('GET', '/openapi.json');
    for (const path of ['/rest/user/login', '/rest/user/recommended/entities', '/rest/smartlib/upload/file', '/rest/smartlib/upload/tile']) {
      expect(body.paths[path].post.responses['429']).toMatchObject({ headers: { 'Retry-After': { schema: { type: 'integer' } } } });
    }
    expect(body.paths['/rest/user/login-scheme'].get.responses['429']).toBeUndefined();
  });
});
