// Issue 52 rows 3 and 7, on Redis (REDIS_URL): the brute-force guard takes a guess's slot in
// one script before it verifies the password, so 40 concurrent guesses from 40 addresses, sent to
// two instances, run at most the account's limit of verifications, and a right password inside
// the burst is refused like the rest. The counters' keys name no e-mail or address in clear.
import { Redis } from 'ioredis';
import { DEMO, suffix, useTestApp, type TestApp } from '../kit';
import { REDIS_URL } from '../kit/redis';
import { passwordParams, tokenRequest } from '../kit/oauth';
import { BAD_LOGIN, from, lockoutBurst } from '../kit/lockout';

const LIMIT = 5;
const prefix = `test-lockout-${suffix()}:`;
const env = {
  REDIS_URL,
  REDIS_KEY_PREFIX: prefix,
  LOGIN_MAX_FAILURES_PER_ACCOUNT: String(LIMIT),
  LOGIN_FAILURE_DELAY_MS: '0',
  LOGIN_LOCKOUT_SECONDS: '600',
  // Each guess claims its own client address, as a proxy in front would tell it.
  TRUST_PROXY_HOPS: '1',
};
const a = useTestApp({ env });
const b = useTestApp({ env, alongside: a });

let redis: Redis;
beforeAll(() => {
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  const keys = await stored();
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** Every key the instances wrote, with the prefix (SCAN does not apply a client's keyPrefix). */
async function stored(): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

/** Resolves once some counter of an account holds `n` (the guesses sent so far have taken their slots). */
async function accountCounterReaches(n: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const keys = (await stored()).filter((k) => k.includes('account'));
    const counts = keys.length ? await redis.mget(...keys) : [];
    if (counts.some((c) => Number(c) >= n)) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no account counter reached ${n}`);
}

const instance = (i: number): TestApp => (i % 2 ? b : a);

it(
  'when 40 guesses for one account come at once from 40 addresses to two instances, then at most the limit are verified, the rest and a right password among them are refused like a lockout',
  () => lockoutBurst({ instance, counterReaches: accountCounterReaches, limit: LIMIT }),
  60_000,
);

it('the keys in Redis name no e-mail address or client address in clear, known or unknown', async () => {
  for (const [i, account] of ['pat@demo.example', 'Someone.Unknown@nowhere.example'].entries())
    expect(await tokenRequest(a, passwordParams(account, 'wrong'), from(70 + i))).toMatchObject(BAD_LOGIN);
  const counters = (await stored()).map((k) => k.slice(prefix.length)).filter((k) => k.startsWith('lockout-'));
  // The first test's account and its five verified addresses, and now two accounts and two addresses.
  expect(counters).toHaveLength(1 + LIMIT + 4);
  for (const key of counters) expect(key).toMatch(/^lockout-(account|address):[A-Za-z0-9_-]{43}$/);
  const everything = (await stored()).join(' ').toLowerCase();
  for (const clear of ['cara', 'pat@', 'someone', 'nowhere', 'demo.example', '198.51.100', DEMO.password])
    expect(everything).not.toContain(clear);
});
