// The token cache in front of PostgreSQL: Redis shared by every instance (a logout is seen
// everywhere at once), the in-process cache bounded to 30 s, and WSCacheServiceException
// (503) when the cache does not answer.
import net from 'node:net';
import { Redis } from 'ioredis';
import { startTestApp, type TestApp } from '../helpers/app';
import { suffix, tokenFor, userAuth } from '../factories';
import { MemoryTokenCache } from '../../src/modules/identity/token-cache';
import { hashToken } from '../../src/modules/identity/tokens';
import { passwordParams, tokenRequest } from './helpers';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('with REDIS_URL: one cache for every instance', () => {
  const prefix = `test-${suffix()}:`;
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix };
    a = await startTestApp({ env });
    b = await startTestApp({ env, db: a.db });
    redis = new Redis(REDIS_URL, { keyPrefix: prefix });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys.map((k) => k.slice(prefix.length)));
    redis.disconnect();
    await b.close();
    await a.close();
  });

  it('when a token is used, then it is cached in Redis; a logout on one instance is refused at once by the other', async () => {
    const token = await tokenFor(a.db.orm, 2001);
    expect((await a.rest('GET', '/rest/user/session', { headers: userAuth(token) })).status).toBe(200);
    const cached = JSON.parse((await redis.get(`sat:${hashToken(token)}`))!);
    expect(cached).toEqual({ u: 2001, e: expect.any(Number) });
    expect((await b.rest('GET', '/rest/user/session', { headers: userAuth(token) })).status).toBe(200);

    expect((await a.rest('POST', '/rest/user/logout', { headers: userAuth(token) })).status).toBe(204);
    expect(await redis.get(`sat:${hashToken(token)}`)).toBe('revoked');
    expect(await b.rest('GET', '/rest/user/session', { headers: userAuth(token) })).toMatchObject({
      status: 401, body: { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' },
    });
  });

  it('when failures at the token endpoint hit the limit on one instance, then the other refuses too (counters in Redis)', async () => {
    // Defaults: 5 failures per account.
    for (let i = 0; i < 5; i++) expect((await tokenRequest(a, passwordParams('cara@demo.example', `wrong-${i}`))).status).toBe(400);
    const refused = await tokenRequest(b, passwordParams('cara@demo.example'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await redis.exists('bf-account:cara@demo.example')).toBe(1);
  }, 30_000);
});

describe('when the cache does not answer', () => {
  let t: TestApp;
  let healthy: TestApp;

  beforeAll(async () => {
    healthy = await startTestApp();
    // A second instance on the same database, pointed at a Redis that is not there.
    t = await startTestApp({ db: healthy.db, env: { REDIS_URL: `redis://127.0.0.1:${await deadPort()}` } });
  });
  afterAll(async () => {
    await t.close();
    await healthy.close();
  });

  it('then a request with a service auth token is 503 WSCacheServiceException in REST and GraphQL, and the cause is logged', async () => {
    const token = await tokenFor(t.db.orm, 2001);
    const res = await t.rest('GET', '/rest/user/session', { headers: userAuth(token) });
    expect(res).toMatchObject({ status: 503, body: { errorCode: 'WSCacheServiceException', message: 'The cache service is unavailable.' } });
    const graph = await t.gql('{ authSession { userId } }', undefined, userAuth(token));
    expect(graph.body.errors![0]).toMatchObject({ message: 'The cache service is unavailable.', extensions: { code: 'WSCacheServiceException' } });
    expect(await t.rest('POST', '/rest/user/logout', { headers: userAuth(token) })).toMatchObject({ status: 503, body: { errorCode: 'WSCacheServiceException' } });
    expect(t.logs).toContainEqual(expect.objectContaining({ msg: 'token cache unavailable', level: 50 }));
    // The same token still works on the healthy instance: the failed logout changed nothing.
    expect((await healthy.rest('GET', '/rest/user/session', { headers: userAuth(token) })).status).toBe(200);
  });

  it('then the token endpoint answers 503 temporarily_unavailable (its counters live in the cache too)', async () => {
    const res = await tokenRequest(t, passwordParams('olivia@demo.example'));
    expect(res).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
    expect(res.headers.get('retry-after')).toBe('5');
  });
});

describe('the in-process cache', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps an entry at most 30 s, and never lets a late write overwrite a revocation', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const cache = new MemoryTokenCache();
    const entry = { userId: 1, expiresAt: Date.now() + 86_400_000 };
    await cache.put('h1', entry);
    jest.advanceTimersByTime(29_999);
    expect(await cache.get('h1')).toEqual(entry);
    jest.advanceTimersByTime(1);
    expect(await cache.get('h1')).toBeNull();

    await cache.revoke(['h2']);
    await cache.put('h2', entry);
    expect(await cache.get('h2')).toBe('revoked');
  });

  it('keeps an entry no longer than the token itself lives', async () => {
    jest.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
    const cache = new MemoryTokenCache();
    await cache.put('h', { userId: 1, expiresAt: Date.now() + 5_000 });
    jest.advanceTimersByTime(5_000);
    expect(await cache.get('h')).toBeNull();
  });
});
