// The token cache in front of PostgreSQL: the in-process cache bounded to 30 s, and
// WSCacheServiceException (503) when the cache (Redis) does not answer. Redis shared by every
// instance: test/redis/token-cache.redis.ts.
import { freePort, OLIVIA, tokenFor, useTestApp } from '../kit';
import { passwordParams, tokenRequest } from '../kit/oauth';
import { MemoryTokenCache } from '../../src/modules/identity/token-cache';

describe('when the cache does not answer', () => {
  const healthy = useTestApp();
  // A second instance on the same database, pointed at a Redis that is not there.
  const t = useTestApp(async () => ({ alongside: healthy, env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } }));

  it('then a request with a service auth token is 503 WSCacheServiceException in REST and GraphQL, and the cause is logged', async () => {
    const token = await tokenFor(t.orm, OLIVIA);
    const res = await t.as(token).rest('GET', '/rest/user/session');
    expect(res).toMatchObject({
      status: 503,
      body: { errorCode: 'WSCacheServiceException', message: 'The cache service is unavailable.' },
    });
    const graph = await t.as(token).gql('{ authSession { userId } }');
    expect(graph.body.errors![0]).toMatchObject({
      message: 'The cache service is unavailable.',
      extensions: { code: 'SERVICE_UNAVAILABLE', errorCode: 'WSCacheServiceException' },
    });
    expect(await t.as(token).rest('POST', '/rest/user/logout')).toMatchObject({
      status: 503,
      body: { errorCode: 'WSCacheServiceException' },
    });
    expect(t.logs).toContainEqual(expect.objectContaining({ msg: 'token cache unavailable', level: 50 }));
    // The same token still works on the healthy instance: the failed logout changed nothing.
    expect((await healthy.as(token).rest('GET', '/rest/user/session')).status).toBe(200);
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
