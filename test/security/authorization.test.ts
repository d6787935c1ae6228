// Authorization sweep generated from the route table (OWASP API1/API2/API5): every route is
// called without its credential, with a revoked one, with the wrong kind of credential, and,
// where it holds someone's data, as another user. Each gets the specification's error and
// changes no row. A route missing from SWEEP (test/kit/route-sweep.ts) fails the first test.
// Where another user is refused, the same call by its rightful caller then succeeds: a refusal
// of a call nobody could make (an id that does not exist) proves nothing.
import http from 'node:http';
import {
  createManagedNotifications,
  createQrCode,
  createSystemToken,
  DEMO,
  fingerprint,
  NORTHWIND,
  nodeId,
  OLIVIA,
  PAT,
  tokenFor,
  useTestApp,
} from '../kit';
import { SWEEP, sendCall, type Call, type Sweep } from '../kit/route-sweep';
import type { RouteDef } from '../kit/src';
import { ROUTES } from '../kit/routes';
import { createSchema } from '../../src/graphql/schema';
import type { GraphQLInterfaceType } from 'graphql';
import { MODULES } from '../../src/modules';

const COMPANY_KEY = DEMO.companyApiKey;
const t = useTestApp();

const send = (route: RouteDef, call: Call, headers: Record<string, string>) => sendCall(t, route, call, headers);

it('every route of the table has an entry in the sweep, and nothing else does', () => {
  expect(Object.keys(SWEEP).sort()).toEqual(ROUTES.map((r) => r.operation).sort());
  for (const r of ROUTES)
    expect({ op: r.operation, public: SWEEP[r.operation] === 'public' }).toEqual({ op: r.operation, public: r.credential === 'none' });
});

const protectedRoutes = ROUTES.filter((r) => r.credential !== 'none');
/** No credential, or one that is not valid: endpoint 2 names it in its own, unprefixed identifiers (docs/errors.md). */
const unauthorisedOn = (route: RouteDef) => ({
  status: 401,
  errorCode: route.invalid === 'InvalidParameterException' ? 'InsufficientPrivilegesException' : 'WSInvalidAuthTokenException',
});

describe.each(protectedRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  const entry = () => SWEEP[route.operation] as Sweep;
  const unauthorised = unauthorisedOn(route);
  const callOf = async () => (typeof entry().call === 'function' ? await (entry().call as any)(t) : (entry().call as Call));

  async function expectRefused(headers: Record<string, string>, expected: { status: number; errorCode: string }) {
    const call = await callOf();
    const before = await fingerprint(t.orm);
    const res = await send(route, call, headers);
    expect({ status: res.status, errorCode: res.body?.errorCode }).toEqual(expected);
    expect(await fingerprint(t.orm)).toEqual(before);
  }

  it('without any credential: 401 WSInvalidAuthTokenException, nothing changed', () => expectRefused({}, unauthorised));

  it('without any credential and with a malformed body that never ends: 401 before the body is read', async () => {
    const call = await callOf();
    let path = route.path;
    for (const [k, v] of Object.entries(call.params ?? {})) path = path.replace(`:${k}`, encodeURIComponent(String(v)));
    const type = route.multipart ? 'multipart/form-data; boundary=sweep' : 'application/json';
    const answer = await unfinishedBody(`${path}${call.query ? `?${call.query}` : ''}`, route.method, type);
    expect(answer).toEqual(unauthorised);
  });

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

      const own: Record<string, string> = { 'x-service-authtoken': await t.as(entry().owner ?? OLIVIA).token() };
      if (route.credential === 'userAndCompanyKey') own['x-service-company-api-key'] = COMPANY_KEY;
      const rightful = await send(route, call, own);
      expect({ status: rightful.status, ok: rightful.status >= 200 && rightful.status < 300 }).toEqual({
        status: rightful.status,
        ok: true,
      });
    });
  }
});

/**
 * Sends headers announcing a body of 64 KB and only its malformed start, then waits for an answer
 * without ever finishing it: a service that reads the body before the credential would wait for
 * the rest (or answer 400 for the malformed start) instead of answering 401 at once.
 */
function unfinishedBody(path: string, method: string, contentType: string): Promise<{ status: number; errorCode: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${t.baseUrl}${path}`, {
      method,
      headers: { 'content-type': contentType, 'content-length': String(64 * 1024) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error('no answer within 3 s: the body was waited for'));
    }, 3000);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        const text = Buffer.concat(chunks).toString('utf8');
        let body: any;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        resolve({ status: res.statusCode ?? 0, errorCode: body?.errorCode });
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.write(contentType.startsWith('multipart') ? '--sweep\r\nContent-Disposition: form-data; name="' : '{"a": [1, 2,');
  });
}

/**
 * node(id:) and nodes(ids:) (src/graphql/node.ts), per type that implements Node: a record Olivia
 * reads through its own root field. Without a credential or with a logged-out one both refuse as
 * every root operation does; Pat, who may not read it, gets null with WSRecordNotFoundException;
 * Olivia gets the record. A Node type missing here fails the first test.
 */
describe('node and nodes', () => {
  let managed: { sentId: number; scheduleId: number } | undefined;
  const OWNED: Record<string, () => Promise<string>> = {
    User: async () => nodeId('User', OLIVIA),
    Address: async () => nodeId('Address', DEMO.addresses.oliviaWork),
    SmartLibrary: async () => nodeId('SmartLibrary', DEMO.library.smartLibId),
    SmartEntry: async () => nodeId('SmartEntry', DEMO.library.welcomePackEntryId),
    Event: async () => nodeId('Event', DEMO.eventUuidOf(1)),
    SmartDirectory: async () => nodeId('SmartDirectory', DEMO.directories.staff),
    // A directory's consent: company and event consents are every signed-in user's to read (Query.eConsents).
    EConsent: async () => nodeId('EConsent', DEMO.directoryConsents.staff),
    DirectoryContact: async () => {
      const res = await t.as(OLIVIA).gql(`{ smartDirectory(directoryUUID: "${DEMO.directories.staff}") { contacts { id } } }`);
      return res.body.data.smartDirectory.contacts[0].id;
    },
    // A hidden wall Olivia is connected to: Pat, with no connection, may not see it.
    Company: async () => {
      const [row] = await t.sql('select 1 from company_connection where user_id = ? and company_id = ?', [OLIVIA, DEMO.companies.hidden]);
      if (!row)
        await t.sql(`insert into company_connection (user_id, company_id, status, requested_at) values (?, ?, 'requested', now())`, [
          OLIVIA,
          DEMO.companies.hidden,
        ]);
      return nodeId('Company', DEMO.companies.hidden);
    },
    InboxNotification: async () => {
      const res = await t.as(OLIVIA).gql('{ me { notifications(first: 1) { edges { node { id } } } } }');
      return res.body.data.me.notifications.edges[0].node.id;
    },
    SmartFile: async () => {
      const res = await t.as(OLIVIA).gql(`{ smartEntry(smartEntryId: ${DEMO.library.welcomePackEntryId}) { smartFiles { id } } }`);
      return res.body.data.smartEntry.smartFiles[0].id;
    },
    // A QR code of a team Olivia is a member of.
    SupportGroupQrCode: async () => nodeId('SupportGroupQrCode', await createQrCode(t, NORTHWIND, [OLIVIA])),
    UserEvent: async () => nodeId('UserEvent', DEMO.inviteUuidOf(1)),
    Connection: async () => nodeId('Connection', `${OLIVIA}:${NORTHWIND}`),
    // The demo's notifications are Cara's company's: these are of a company whose notifications Olivia manages.
    SentNotification: async () => nodeId('SentNotification', (managed ??= await createManagedNotifications(t, OLIVIA)).sentId),
    ScheduledNotification: async () =>
      nodeId('ScheduledNotification', (managed ??= await createManagedNotifications(t, OLIVIA)).scheduleId),
  };

  it('every type that implements Node has an entry', async () => {
    const schema = await createSchema(MODULES);
    const node = schema.getType('Node') as GraphQLInterfaceType;
    expect(
      schema
        .getImplementations(node)
        .objects.map((o) => o.name)
        .sort(),
    ).toEqual(Object.keys(OWNED).sort());
  });

  const QUERY = 'query($id: ID!, $ids: [ID!]!) { node(id: $id) { id } nodes(ids: $ids) { id } }';
  const codes = (body: any) => (body.errors ?? []).map((e: any) => [e.path.join('.'), e.extensions.errorCode]);

  describe.each(Object.keys(OWNED))('%s', (type) => {
    it('without a credential, or a logged-out one: WSInvalidAuthTokenException, nothing read', async () => {
      const id = await OWNED[type]();
      const token = await tokenFor(t.orm, OLIVIA);
      expect((await t.rest('POST', '/rest/user/logout', { headers: { 'x-service-authtoken': token } })).status).toBeLessThan(300);
      for (const who of [t, t.as(token)]) {
        const res = await who.gql(QUERY, { id, ids: [id] });
        expect(res.body.data).toBeNull();
        expect(codes(res.body).map(([, code]: string[]) => code)).toEqual(['WSInvalidAuthTokenException', 'WSInvalidAuthTokenException']);
      }
    });

    it('as another user: null with WSRecordNotFoundException; as the rightful user: the record', async () => {
      const id = await OWNED[type]();
      const refused = await t.as(PAT).gql(QUERY, { id, ids: [id] });
      expect(refused.body.data).toEqual({ node: null, nodes: [null] });
      expect(codes(refused.body).sort()).toEqual([
        ['node', 'WSRecordNotFoundException'],
        ['nodes.0', 'WSRecordNotFoundException'],
      ]);
      const rightful = await t.as(OLIVIA).gql(QUERY, { id, ids: [id] });
      expect(rightful.body).toEqual({ data: { node: { id }, nodes: [{ id }] } });
    });
  });
});
