// Behind a real proxy (issue 37): nginx from Debian's packages runs deploy/nginx/pronet.conf in
// front of the service, and two clients reach it from two loopback addresses (A and B). With
// TRUST_PROXY_HOPS=1 the service takes the address nginx appended to X-Forwarded-For, so A's
// failed sign-ins lock out A only, B still signs in, the access log names A, and an
// X-Forwarded-For that A forges is neither taken as A's address nor a way out of the lockout.
// Without the setting every client behind the proxy is the proxy's one address, and all are locked
// out together. `npm run test:proxy` (nginx must be installed: .ci/run installs it).
import crypto from 'node:crypto';
import { useTestApp, type TestApp } from '../kit';
import { passwordParams } from '../kit/oauth';
import { requestFrom, useNginx, type Nginx } from './nginx';

const A = '127.0.0.2';
const B = '127.0.0.3';
/** The address the service's socket sees for every request through nginx. */
const PROXY = '127.0.0.1';
const FAILURES_PER_ADDRESS = 4;

const env = {
  LOG_LEVEL: 'info',
  LOGIN_MAX_FAILURES_PER_ADDRESS: String(FAILURES_PER_ADDRESS),
  // Each made-up username fails once, so no answer is held back; the account limit is never reached.
  LOGIN_FAILURE_DELAY_MS: '0',
  LOGIN_LOCKOUT_SECONDS: '600',
};

const BAD_LOGIN = { status: 400, body: { error: 'invalid_grant', error_description: 'The username or password is incorrect.' } };

/** A password grant from the loopback address `from`, through nginx, with this request id. */
async function signIn(nginx: Nginx, from: string, requestId: string, params: Record<string, string>, headers: Record<string, string> = {}) {
  return requestFrom(from, `${nginx.baseUrl}/as/token.oauth2`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': requestId, ...headers },
    body: new URLSearchParams(params).toString(),
  });
}

const madeUpUser = () => passwordParams(`nobody-${crypto.randomUUID()}@nowhere.example`, 'guess');

/** The access log line of the request with this id (nginx passes the client's X-Request-Id on). */
function accessLine(t: TestApp, requestId: string): any {
  const lines = t.logs.filter((l) => l.msg === 'request' && l.requestId === requestId);
  expect(lines).toHaveLength(1);
  return lines[0];
}

function expectLockedOut(res: Awaited<ReturnType<typeof signIn>>): void {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(590);
  expect(retryAfter).toBeLessThanOrEqual(600);
  expect(res.body).toEqual({ error: 'invalid_grant', error_description: `Too many failed attempts. Try again in ${retryAfter} seconds.` });
  expect(res.headers.get('cache-control')).toBe('no-store');
}

describe('TRUST_PROXY_HOPS=1 behind nginx', () => {
  const t = useTestApp({ env: { ...env, TRUST_PROXY_HOPS: '1' } });
  const nginx = useNginx(t);

  it("when client A fails past the per-address limit, then A is locked out, B behind the same proxy still signs in, and the logs name A's own address", async () => {
    const run = crypto.randomUUID().slice(0, 8);
    // Every attempt of A's claims to come from 1.2.3.4: nginx appends A's real address after it.
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) {
      const res = await signIn(nginx(), A, `a-${run}-${i}`, madeUpUser(), { 'x-forwarded-for': '1.2.3.4' });
      expect(res).toMatchObject(BAD_LOGIN);
    }
    // Locked out, even with the right password, and claiming another address does not get A out.
    expectLockedOut(await signIn(nginx(), A, `a-${run}-right`, passwordParams('cara@demo.example')));
    expectLockedOut(await signIn(nginx(), A, `a-${run}-forged`, passwordParams('cara@demo.example'), { 'x-forwarded-for': '5.6.7.8' }));

    const b = await signIn(nginx(), B, `b-${run}`, passwordParams('olivia@demo.example'));
    expect(b.status).toBe(200);
    expect(b.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
    });

    // The access log line of each request carries the client's address as nginx saw it.
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) expect(accessLine(t, `a-${run}-${i}`)).toMatchObject({ ip: A, status: 400 });
    expect(accessLine(t, `a-${run}-right`)).toMatchObject({ ip: A, status: 429 });
    expect(accessLine(t, `a-${run}-forged`)).toMatchObject({ ip: A, status: 429 });
    expect(accessLine(t, `b-${run}`)).toMatchObject({ ip: B, status: 200 });
    // The counters were A's: every failure and the lockout are logged with A's address, and no
    // line takes a forged address (or the proxy's) for the client's.
    expect(t.logs.filter((l) => l.event === 'auth.token_failed').map((l) => l.clientAddress)).toEqual(Array(FAILURES_PER_ADDRESS).fill(A));
    expect(t.logs.filter((l) => l.event === 'auth.lockout').map((l) => [l.scope, l.clientAddress])).toEqual([
      ['address', A],
      ['address', A],
    ]);
    const addresses = new Set(t.logs.flatMap((l) => [l.ip, l.clientAddress]).filter(Boolean));
    expect([...addresses].sort()).toEqual([A, B]);
  }, 60_000);
});

describe('TRUST_PROXY_HOPS unset behind nginx', () => {
  const t = useTestApp({ env });
  const nginx = useNginx(t);

  it("when client A fails past the per-address limit, then B is locked out too: both are the proxy's address", async () => {
    const run = crypto.randomUUID().slice(0, 8);
    for (let i = 0; i < FAILURES_PER_ADDRESS; i++) {
      expect(await signIn(nginx(), A, `a-${run}-${i}`, madeUpUser(), { 'x-forwarded-for': '1.2.3.4' })).toMatchObject(BAD_LOGIN);
    }
    expectLockedOut(await signIn(nginx(), B, `b-${run}`, passwordParams('olivia@demo.example')));
    expect(accessLine(t, `b-${run}`)).toMatchObject({ ip: PROXY, status: 429 });
    expect(t.logs.filter((l) => l.event === 'auth.lockout').map((l) => [l.scope, l.clientAddress])).toEqual([['address', PROXY]]);
  }, 60_000);
});
