// Brute force at the token endpoint: failures are slowed, then refused with 429 and
// Retry-After, and the refusal is logged. Counters are kept in the database here (no
// REDIS_URL), so a second instance on the same database refuses too.
import { DEMO } from '../kit';
import { passwordParams, tokenRequest } from '../kit/oauth';
import { useGuardedInstances } from '../kit/lockout';

const env = {
  LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
  LOGIN_MAX_FAILURES_PER_ADDRESS: '6',
  LOGIN_FAILURE_DELAY_MS: '200',
  LOGIN_LOCKOUT_SECONDS: '600',
};

const { t, second } = useGuardedInstances(env);

async function timed(fn: () => Promise<any>): Promise<[any, number]> {
  const started = Date.now();
  const res = await fn();
  return [res, Date.now() - started];
}

const BAD_LOGIN = { status: 400, body: { error: 'invalid_grant', error_description: 'The username or password is incorrect.' } };

it('when one account keeps failing, then answers slow down, then 429 with Retry-After for that account only, on every instance, and the refusal is logged', async () => {
  const wrong = passwordParams('olivia@demo.example', 'wrong-password');
  const [first] = await timed(() => tokenRequest(t, wrong));
  expect(first).toMatchObject(BAD_LOGIN);
  const [secondTry, secondMs] = await timed(() => tokenRequest(t, wrong));
  expect(secondTry).toMatchObject(BAD_LOGIN);
  const [third, thirdMs] = await timed(() => tokenRequest(t, wrong));
  expect(third).toMatchObject(BAD_LOGIN);
  // The delay the service applied to each failure (0 for the first), and the answers were
  // held back at least that long. Upper bounds on wall-clock times are not asserted: argon2
  // under a loaded machine takes anything from 50 to 500 ms.
  expect(t.logs.filter((l) => l.event === 'auth.token_failed').map((l) => l.delayMs)).toEqual([0, 200, 400]);
  expect(secondMs).toBeGreaterThanOrEqual(200);
  expect(thirdMs).toBeGreaterThanOrEqual(400);

  // Locked out: even the right password is refused, here and on the other instance, and before
  // any other work: the request reads the two counters and nothing else (no client, no user, so
  // no password hashed).
  t.db.statements.length = 0;
  const refused = await tokenRequest(t, passwordParams('olivia@demo.example'));
  const counterRead = expect.stringMatching(/^select points, expire from auth_rate_limit where /);
  expect(t.db.statements).toEqual([counterRead, counterRead]);
  expect(refused.status).toBe(429);
  const retryAfter = Number(refused.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(590);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect(refused.body).toEqual({
    error: 'invalid_grant',
    error_description: `Too many failed attempts. Try again in ${retryAfter} seconds.`,
  });
  expect((await tokenRequest(second, passwordParams('Olivia@demo.example'))).status).toBe(429);

  // Another account from the same address still gets in.
  expect((await tokenRequest(t, passwordParams('cara@demo.example'))).status).toBe(200);

  const line = t.logs.find((l) => l.event === 'auth.lockout');
  expect(line).toMatchObject({
    level: 40,
    scope: 'account',
    account: 'olivia@demo.example',
    retryAfterSeconds: retryAfter,
    msg: 'token request refused after repeated failures',
  });
  expect(JSON.stringify(t.logs)).not.toContain('wrong-password');
  expect(JSON.stringify(t.logs)).not.toContain(DEMO.password);
}, 30_000);

it("when a success comes before the limit, then the account's count starts again", async () => {
  const wrong = passwordParams('pat@demo.example', 'nope');
  expect(await tokenRequest(t, wrong)).toMatchObject(BAD_LOGIN);
  expect(await tokenRequest(t, wrong)).toMatchObject(BAD_LOGIN);
  expect((await tokenRequest(t, passwordParams('pat@demo.example'))).status).toBe(200);
  expect(await tokenRequest(t, wrong)).toMatchObject(BAD_LOGIN);
  expect(await tokenRequest(t, wrong)).toMatchObject(BAD_LOGIN);
  expect((await tokenRequest(t, passwordParams('pat@demo.example'))).status).toBe(200);
}, 30_000);

it('when one address fails across many accounts and bad client secrets, then the address is refused', async () => {
  const attempts = [
    passwordParams('a1@nowhere.example'),
    passwordParams('a2@nowhere.example'),
    passwordParams('a3@nowhere.example'),
    { ...passwordParams('olivia@demo.example'), client_secret: 'wrong' },
    passwordParams('a4@nowhere.example'),
    passwordParams('a5@nowhere.example'),
  ];
  for (const params of attempts) expect([400, 401]).toContain((await tokenRequest(t, params)).status);
  const refused = await tokenRequest(t, passwordParams('cara@demo.example'));
  expect(refused.status).toBe(429);
  expect(t.logs).toContainEqual(expect.objectContaining({ event: 'auth.lockout', scope: 'address' }));
}, 30_000);

it('the database store sweeps counters that expired over an hour ago', async () => {
  const conn = t.orm.em.fork().getConnection();
  await conn.execute('insert into auth_rate_limit (key, points, expire) values (?, 3, ?), (?, 1, ?)', [
    'bf-account:old',
    Date.now() - 7_200_000,
    'bf-account:live',
    Date.now() + 60_000,
  ]);
  await t.app.services.identity.guard.clearExpired();
  const rows = await conn.execute('select key from auth_rate_limit order by key');
  expect(rows.map((r: any) => r.key)).toEqual(['bf-account:live']);
});
