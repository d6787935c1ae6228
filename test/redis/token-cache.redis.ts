// With REDIS_URL, one token cache and one set of brute-force counters for every instance: a
// logout on one instance is refused at once by the other, and so is an account the other locked.
import { OLIVIA, tokenFor } from '../kit';
import { useRedisPair } from '../kit/redis';
import { hashToken } from '../kit/src';
import { passwordParams, tokenRequest } from '../kit/oauth';

describe('with REDIS_URL: one cache for every instance', () => {
  const pair = useRedisPair('token-cache');
  const { a, b } = pair;

  it('when a token is used, then it is cached in Redis; a logout on one instance is refused at once by the other', async () => {
    const token = await tokenFor(a.orm, OLIVIA); // its own: the test logs it out
    expect((await a.as(token).rest('GET', '/rest/user/session')).status).toBe(200);
    const cached = JSON.parse((await pair.redis().get(`sat:${hashToken(token)}`))!);
    expect(cached).toEqual({ u: OLIVIA, e: expect.any(Number) });
    expect((await b.as(token).rest('GET', '/rest/user/session')).status).toBe(200);

    expect((await a.as(token).rest('POST', '/rest/user/logout')).status).toBe(204);
    expect(await pair.redis().get(`sat:${hashToken(token)}`)).toBe('revoked');
    expect(await b.as(token).rest('GET', '/rest/user/session')).toMatchObject({
      status: 401,
      body: { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' },
    });
  });

  it('when failures at the token endpoint hit the limit on one instance, then the other refuses too (counters in Redis)', async () => {
    // Defaults: 5 failures per account.
    for (let i = 0; i < 5; i++) expect((await tokenRequest(a, passwordParams('cara@demo.example', `wrong-${i}`))).status).toBe(400);
    const refused = await tokenRequest(b, passwordParams('cara@demo.example'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The account's counter is named by a keyed hash of the address, never the address itself.
    const keys = await pair.redis().keys(`${pair.prefix}lockout-account:*`);
    expect(keys).toHaveLength(1);
    expect(await pair.redis().keys(`${pair.prefix}*cara*`)).toEqual([]);
  }, 30_000);
});
