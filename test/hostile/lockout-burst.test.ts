// Issue 52 rows 3 and 7, on the database store: the brute-force guard counts a password guess
// before it verifies it, so a burst of concurrent guesses from many addresses, sent to two
// instances, runs at most the account's limit of verifications, and a right password inside the
// burst is refused like the rest. The counters' keys name no e-mail or address in clear.
import { DEMO, useTestApp, type TestApp } from '../kit';
import { passwordParams, tokenRequest } from '../kit/oauth';

const LIMIT = 5;
const env = {
  LOGIN_MAX_FAILURES_PER_ACCOUNT: String(LIMIT),
  LOGIN_MAX_FAILURES_PER_ADDRESS: '6',
  LOGIN_FAILURE_DELAY_MS: '0',
  LOGIN_LOCKOUT_SECONDS: '600',
  // Each guess claims its own client address, as a proxy in front would tell it.
  TRUST_PROXY_HOPS: '1',
};

const t = useTestApp({ env });
const second = useTestApp({ env, alongside: t });
beforeEach(async () => {
  await t.sql('delete from auth_rate_limit');
});

const BAD_LOGIN = { status: 400, body: { error: 'invalid_grant', error_description: 'The username or password is incorrect.' } };
const from = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` });

function expectLockedOut(res: Awaited<ReturnType<typeof tokenRequest>>): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(900);
  expect(res.body).toEqual({ error: 'invalid_grant', error_description: `Too many failed attempts. Try again in ${retryAfter} seconds.` });
  expect(res.headers.get('ratelimit-policy')).toBe(`"token-failures-account";q=${LIMIT};w=900`);
}

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

it('when 40 guesses for one account come at once from 40 addresses to two instances, then at most the limit are verified, the rest and a right password among them are refused like a lockout', async () => {
  const guess = (i: number) => tokenRequest(instance(i), passwordParams('cara@demo.example', `wrong-${i}`), from(i));
  // The first 29 wrong guesses, then the right password as the 30th once they have reached the
  // counters, then 10 more wrong ones.
  const first = Array.from({ length: 29 }, (_, i) => guess(i));
  await counterReaches(LIMIT);
  const right = await tokenRequest(instance(29), passwordParams('cara@demo.example'), from(29));
  const answers = [...(await Promise.all(first)), ...(await Promise.all(Array.from({ length: 10 }, (_, i) => guess(30 + i))))];

  const verified = answers.filter((res) => res.status !== 429);
  expect(verified).toHaveLength(LIMIT);
  for (const res of verified) expect(res).toMatchObject(BAD_LOGIN);
  for (const res of answers.filter((r) => r.status === 429)) expectLockedOut(res);
  expectLockedOut(right);

  // The five failures locked the account: the right password is refused afterwards too, on either instance.
  const after = await tokenRequest(second, passwordParams('Cara@demo.example'), from(40));
  expectLockedOut(after);
  expect(Number(after.headers.get('retry-after'))).toBeGreaterThan(590);
  expect((await tokenRequest(t, passwordParams('olivia@demo.example'), from(41))).status).toBe(200);
}, 60_000);

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
