// The lockout burst of issue 52 (rows 3 and 7), shared by the database store's test
// (test/hostile/lockout-burst.test.ts) and Redis's (test/redis/lockout.redis.ts): 40 guesses for one
// account at once, from 40 addresses, to two instances.
import type { TestApp } from './app';
import { passwordParams, tokenRequest } from './oauth';
import { useTestApp } from './use';

/**
 * Two instances on one database with these login limits, so the guard's counters are the
 * database's (no REDIS_URL), cleared before each test.
 */
export function useGuardedInstances(env: Record<string, string>): { t: TestApp; second: TestApp } {
  const t = useTestApp({ env });
  const second = useTestApp({ env, alongside: t });
  beforeEach(async () => {
    await t.sql('delete from auth_rate_limit');
  });
  return { t, second };
}

export const BAD_LOGIN = { status: 400, body: { error: 'invalid_grant', error_description: 'The username or password is incorrect.' } };
/** A guess's own client address, as a proxy in front tells it (TRUST_PROXY_HOPS=1). */
export const from = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` });

/** A lockout answer; with `policy`, the RateLimit-Policy it names too. */
export function expectLockedOut(res: Awaited<ReturnType<typeof tokenRequest>>, policy?: string): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(900);
  expect(res.body).toEqual({ error: 'invalid_grant', error_description: `Too many failed attempts. Try again in ${retryAfter} seconds.` });
  if (policy !== undefined) expect(res.headers.get('ratelimit-policy')).toBe(policy);
}

export interface Burst {
  /** The instance guess i goes to (two instances, alternately). */
  instance: (i: number) => TestApp;
  /** Resolves once an account's counter on the store holds `n`. */
  counterReaches: (n: number) => Promise<void>;
  /** LOGIN_MAX_FAILURES_PER_ACCOUNT. */
  limit: number;
  /** The RateLimit-Policy of a lockout answer, where the test checks it. */
  policy?: string;
}

/**
 * 29 wrong guesses for Cara at once, then the right password as the 30th once they have reached the
 * counters, then 10 more wrong ones: exactly `limit` are verified (the bad-credentials answer), every
 * other one, the right password included, is the lockout; afterwards the account is locked on the
 * other instance too, and another account still signs in.
 */
export async function lockoutBurst({ instance, counterReaches, limit, policy }: Burst): Promise<void> {
  const guess = (i: number) => tokenRequest(instance(i), passwordParams('cara@demo.example', `wrong-${i}`), from(i));
  const first = Array.from({ length: 29 }, (_, i) => guess(i));
  await counterReaches(limit);
  const right = await tokenRequest(instance(29), passwordParams('cara@demo.example'), from(29));
  const answers = [...(await Promise.all(first)), ...(await Promise.all(Array.from({ length: 10 }, (_, i) => guess(30 + i))))];

  const verified = answers.filter((res) => res.status !== 429);
  expect(verified).toHaveLength(limit);
  for (const res of verified) expect(res).toMatchObject(BAD_LOGIN);
  for (const res of answers.filter((r) => r.status === 429)) expectLockedOut(res, policy);
  expectLockedOut(right, policy);

  // The failures locked the account: the right password is refused afterwards too, on either instance.
  const after = await tokenRequest(instance(1), passwordParams('Cara@demo.example'), from(40));
  expectLockedOut(after, policy);
  expect(Number(after.headers.get('retry-after'))).toBeGreaterThan(590);
  expect((await tokenRequest(instance(0), passwordParams('olivia@demo.example'), from(41))).status).toBe(200);
}
