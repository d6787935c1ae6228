// Issue 52 rows 3 and 7, on the database store: the brute-force guard counts a password guess
// before it verifies it, so a burst of concurrent guesses from many addresses, sent to two
// instances, runs at most the account's limit of verifications, and a right password inside the
// burst is refused like the rest. The counters' keys name no e-mail or address in clear.
import { DEMO, type TestApp } from '../kit';
import { passwordParams, tokenRequest } from '../kit/oauth';
import { BAD_LOGIN, from, lockoutBurst, useGuardedInstances } from '../kit/lockout';

const LIMIT = 5;
const env = {
  LOGIN_MAX_FAILURES_PER_ACCOUNT: String(LIMIT),
  LOGIN_MAX_FAILURES_PER_ADDRESS: '6',
  LOGIN_FAILURE_DELAY_MS: '0',
  LOGIN_LOCKOUT_SECONDS: '600',
  // Each guess claims its own client address, as a proxy in front would tell it.
  TRUST_PROXY_HOPS: '1',
};

const { t, second } = useGuardedInstances(env);

const POLICY = `"token-failures-account";q=${LIMIT};w=900`;

/** Resolves once some counter of the table holds `n` (the guesses sent so far have taken their slots). */
async function counterReaches(n: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const [row] = await t.sql('select coalesce(max(points), 0)::int as n from auth_rate_limit');
    if (row.n >= n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no counter reached ${n}`);
}

const instance = (i: number): TestApp => (i % 2 ? second : t);

it(
  'when 40 guesses for one account come at once from 40 addresses to two instances, then at most the limit are verified, the rest and a right password among them are refused like a lockout',
  () => lockoutBurst({ instance, counterReaches, limit: LIMIT, policy: POLICY }),
  60_000,
);

it('when guesses for many accounts come at once from one address, then at most the address limit are verified', async () => {
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => tokenRequest(instance(i), passwordParams(`nobody-${i}@nowhere.example`, 'guess'), from(50))),
  );
  expect(answers.filter((res) => res.status !== 429)).toHaveLength(6);
  for (const res of answers.filter((r) => r.status !== 429)) expect(res).toMatchObject(BAD_LOGIN);
  for (const res of answers.filter((r) => r.status === 429)) {
    expect(res.body).toMatchObject({ error: 'invalid_grant' });
    expect(res.headers.get('ratelimit-policy')).toBe('"token-failures-address";q=6;w=900');
  }
}, 60_000);

it('when sign-ins from one address succeed, then they hold none of its failure budget', async () => {
  for (let i = 0; i < 8; i++) expect((await tokenRequest(t, passwordParams('pat@demo.example'), from(60))).status).toBe(200);
  expect(await tokenRequest(t, passwordParams('pat@demo.example', 'nope'), from(60))).toMatchObject(BAD_LOGIN);
  expect((await tokenRequest(t, passwordParams('pat@demo.example'), from(60))).status).toBe(200);
});

it('the counters name no e-mail address or client address in clear, known or unknown', async () => {
  const accounts = ['olivia@demo.example', 'Someone.Unknown@nowhere.example'];
  for (const [i, account] of accounts.entries())
    expect(await tokenRequest(t, passwordParams(account, 'wrong'), from(70 + i))).toMatchObject(BAD_LOGIN);
  const keys = (await t.sql('select key from auth_rate_limit order by key')).map((row) => row.key as string);
  expect(keys).toHaveLength(4);
  for (const key of keys) expect(key).toMatch(/^lockout-(account|address):[A-Za-z0-9_-]{43}$/);
  const stored = keys.join(' ').toLowerCase();
  for (const clear of ['olivia', 'someone', 'nowhere', 'demo.example', '198.51.100', DEMO.password]) expect(stored).not.toContain(clear);
});
