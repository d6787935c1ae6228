// Authorization sweep generated from the route table (OWASP API1/API2/API5): every route is
// called without its credential, with a revoked one, with the wrong kind of credential, and,
// where it holds someone's data, as another user. Each gets the specification's error and
// changes no row. A route missing from SWEEP (test/kit/route-sweep.ts) fails the first test.
import { createSystemToken, DEMO, fingerprint, OLIVIA, PAT, tokenFor, useTestApp } from '../kit';
import { SWEEP, sendCall, type Call, type Sweep } from '../kit/route-sweep';
import type { RouteDef } from '../kit/src';
import { ROUTES } from '../../src/rest/routes';

const COMPANY_KEY = DEMO.companyApiKey;
const t = useTestApp();

const send = (route: RouteDef, call: Call, headers: Record<string, string>) => sendCall(t, route, call, headers);

it('every route of the table has an entry in the sweep, and nothing else does', () => {
  expect(Object.keys(SWEEP).sort()).toEqual(ROUTES.map((r) => r.operation).sort());
  for (const r of ROUTES)
    expect({ op: r.operation, public: SWEEP[r.operation] === 'public' }).toEqual({ op: r.operation, public: r.credential === 'none' });
});

const protectedRoutes = ROUTES.filter((r) => r.credential !== 'none');
const unauthorised = { status: 401, errorCode: 'WSInvalidAuthTokenException' };

describe.each(protectedRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  const entry = () => SWEEP[route.operation] as Sweep;
  const callOf = async () => (typeof entry().call === 'function' ? await (entry().call as any)(t) : (entry().call as Call));

  async function expectRefused(headers: Record<string, string>, expected: { status: number; errorCode: string }) {
    const call = await callOf();
    const before = await fingerprint(t.orm);
    const res = await send(route, call, headers);
    expect({ status: res.status, errorCode: res.body?.errorCode }).toEqual(expected);
    expect(await fingerprint(t.orm)).toEqual(before);
  }

  it('without any credential: 401 WSInvalidAuthTokenException, nothing changed', () => expectRefused({}, unauthorised));

  it('with a revoked or inactive credential: refused, nothing changed', async () => {
    if (route.credential === 'companyKey')
      return expectRefused(
        { 'x-service-company-api-key': DEMO.inactiveCompanyApiKey },
        { status: 403, errorCode: 'WSCompanyApiKeyNotActiveException' },
      );
    if (route.credential === 'system') {
      await createSystemToken(t.orm, ['ingestion'], { name: 'revoked', token: `revoked-${route.operation}`, revokedAt: new Date() });
      return expectRefused({ 'x-api-key': `revoked-${route.operation}` }, unauthorised);
    }
    if (route.credential === 'bearer') return expectRefused({ authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln' }, unauthorised);
    const token = await tokenFor(t.orm, OLIVIA); // its own: it is logged out
    expect((await t.rest('POST', '/rest/user/logout', { headers: { 'x-service-authtoken': token } })).status).toBeLessThan(300);
    const headers: Record<string, string> = { 'x-service-authtoken': token };
    if (route.credential === 'userAndCompanyKey') headers['x-service-company-api-key'] = COMPANY_KEY;
    return expectRefused(headers, unauthorised);
  });

  it('with the wrong kind of credential: refused, nothing changed', async () => {
    const userToken = await t.as(OLIVIA).token();
    if (route.credential === 'system' || route.credential === 'companyKey' || route.credential === 'bearer') {
      return expectRefused({ 'x-service-authtoken': userToken }, unauthorised);
    }
    if (route.credential === 'userAndCompanyKey') {
      await expectRefused({ 'x-service-authtoken': userToken }, unauthorised);
      return expectRefused({ 'x-service-company-api-key': COMPANY_KEY }, unauthorised);
    }
    return expectRefused({ 'x-api-key': DEMO.ingestionToken, 'x-service-company-api-key': COMPANY_KEY }, unauthorised);
  });

  const other = (SWEEP[route.operation] as Sweep | undefined)?.otherUser;
  if (other) {
    it(`as another user on data that is not theirs: ${other.status}`, async () => {
      const headers: Record<string, string> = { 'x-service-authtoken': await t.as(PAT).token() };
      if (route.credential === 'userAndCompanyKey') headers['x-service-company-api-key'] = COMPANY_KEY;
      const call = await callOf();
      const before = await fingerprint(t.orm);
      const res = await send(route, call, headers);
      if ('body' in other) expect({ status: res.status, body: res.body }).toEqual(other);
      else expect({ status: res.status, errorCode: res.body?.errorCode }).toEqual(other);
      expect(await fingerprint(t.orm)).toEqual(before);
    });
  }
});
