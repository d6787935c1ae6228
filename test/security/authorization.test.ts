// Authorization sweep generated from the route table (OWASP API1/API2/API5): every route is
// called without its credential, with a revoked one, with the wrong kind of credential, and,
// where it holds someone's data, as another user. Each gets the specification's error and
// changes no row. A route missing from SWEEP fails the first test.
import { startTestApp, type TestApp } from '../helpers/app';
import { fingerprint } from '../helpers/fingerprint';
import { tokenFor } from '../factories';
import { ROUTES } from '../../src/rest/routes';
import type { RouteDef } from '../../src/rest/route';

const OLIVIA = 2001;
const PAT = 2005; // no roles, no connections
const COMPANY_KEY = '5e0c1a52-7d4b-4c8e-9f1a-000000001001';
const INACTIVE_COMPANY_KEY = '5e0c1a52-7d4b-4c8e-9f1a-000000009999';
const INGESTION = 'demo-ingestion-token';
const OLIVIA_WORK = 'a0000000-0000-4000-8000-000000002001';
const DIRECTORY = 'd0000000-0000-4000-8000-000000001001';
const CONTACT_ADDRESS = 'a0000000-0000-4000-8000-000000003001';

interface Call {
  params?: Record<string, string | number>;
  query?: string;
  body?: unknown;
  /** Multipart form: these text parts plus one small PDF file part. */
  multipart?: Record<string, string>;
}

interface Sweep {
  call: Call | ((t: TestApp) => Promise<Call>);
  /** Another user (Pat) on data that is not theirs: expected status and identifier. */
  otherUser?: { status: number; errorCode: string } | { status: 200; body: unknown };
}

const smartFileId = async (t: TestApp) =>
  (await t.db.orm.em.fork().getConnection().execute('select min(smart_file_id) as id from smart_file where smart_entry_id = 4001'))[0].id;
const qrCodeId = async (t: TestApp) => {
  const rows = await t.db.orm.em.fork().getConnection().execute('select min(qr_code_id) as id from qr_code');
  return rows[0].id ?? 1;
};

const forbidden = { status: 403, errorCode: 'WSInsufficientPrivilegesException' };

export const SWEEP: Record<string, Sweep | 'public'> = {
  getLoginScheme: 'public',
  getAllTimezones: 'public',
  getConditions: 'public',
  getConditionsVersion: 'public',
  getAssessmentForms: 'public',
  getCountries: 'public',
  getStates: 'public',
  getFieldDefinitions: 'public',
  getProfessions: 'public',
  getSpecialties: 'public',
  getTitles: 'public',
  getGenders: 'public',
  uploadSmartFile: { call: { multipart: {} } },
  uploadTileImage: { call: { multipart: {} } },
  createSmartEntry: {
    call: { body: { smartLibId: 3001, smartEntryType: 'URL', smartEntryName: `Sweep entry`, smartEntryUrlLink: 'https://example.org' } },
    otherUser: forbidden,
  },
  updateSmartEntryAIIngestionFailure: { call: { params: { smartEntryId: 4001 }, body: { smartlibId: 3001, cId: 1001, aiIngestionError: 'boom' } } },
  downloadSmartFile: { call: async (t) => ({ params: { smartFileId: await smartFileId(t) } }), otherUser: { status: 404, errorCode: 'WSRecordNotFoundException' } },
  loginUser: { call: {} },
  logout: { call: {} },
  createSsoToken: { call: {} },
  getAuthSession: { call: {} },
  findUserProfile: { call: {} },
  updateUserProfile: { call: { body: { uId: OLIVIA, uFirstName: 'Sweep' } }, otherUser: forbidden },
  getUserAddresses: { call: {} },
  createUserAddress: { call: { body: { typeCode: 'O', name: 'Sweep' } } },
  updateUserAddressByAddressUUID: {
    call: { params: { addressUUID: OLIVIA_WORK }, body: { uuid: OLIVIA_WORK, city: 'Sweepville' } },
    otherUser: { status: 404, errorCode: 'WSAddressNotFoundException' },
  },
  deleteUserAddressByAddressUUID: { call: { params: { addressUUID: OLIVIA_WORK } }, otherUser: { status: 404, errorCode: 'WSAddressNotFoundException' } },
  getEConsents: { call: { query: 'type=C&companyId=1001' } },
  setEConsent: { call: async (t) => {
    const rows = await t.db.orm.em.fork().getConnection().execute('select consent_uuid from consent_definition order by consent_uuid limit 1');
    return { params: { consentUUID: rows[0].consent_uuid }, body: { consentGiven: true } };
  } },
  getAddressesForDirectoryContact: { call: { params: { directoryUUID: DIRECTORY } }, otherUser: { status: 403, errorCode: 'WSUserNotInSmartDirectoryException' } },
  updateAddressForDirectoryContact: {
    call: { params: { directoryUUID: DIRECTORY, addressUUID: CONTACT_ADDRESS }, body: { uuid: CONTACT_ADDRESS, city: 'Sweepville' } },
    otherUser: { status: 403, errorCode: 'WSUserNotInSmartDirectoryException' },
  },
  copyAddressesFromUserToDirectoryContact: {
    call: { params: { directoryUUID: DIRECTORY }, body: { addressUUIDs: [OLIVIA_WORK] } },
    otherUser: { status: 403, errorCode: 'WSUserNotInSmartDirectoryException' },
  },
  findEventsForUserAndCompany: { call: { params: { cId: 1001 }, query: 'version=1' }, otherUser: { status: 200, body: [] } },
  sendNotification: { call: { body: { broadcastType: 'GT', companyId: 1001, valueIds: ['1101'], message: 'Sweep' } }, otherUser: forbidden },
  getSentNotifications: { call: { query: 'version=1&broadcastType=GT&companyId=1001' }, otherUser: forbidden },
  getSentScheduledNotifications: { call: { query: 'version=1&broadcastType=GT&companyId=1001' }, otherUser: forbidden },
  getRecommendedEntitiesForUser: { call: { body: { version: 2, entityType: ['company'] } } },
  getRecommendedCriteriaForEntity: { call: { body: { version: 1, entityType: 'company', entityId: '1002' } } },
  requestConnection: { call: { body: { companyId: 1002 } } },
  getUserConnections: { call: {} },
  getCompanyConnections: { call: { params: { companyId: 1001 } }, otherUser: forbidden },
  approveConnection: { call: { params: { companyId: 1007, userId: OLIVIA } }, otherUser: forbidden },
  declineConnection: { call: { params: { companyId: 1007, userId: OLIVIA } }, otherUser: forbidden },
  createMembershipDetails: { call: { body: { userId: OLIVIA, membershipId: 'M-1' } } },
  createSupportGroup: {
    call: {
      multipart: {
        companyId: '1001', supportGroupPrefix: 'SWEEP', supportGroupName: 'Sweep group', teamAdminUserEmails: 'olivia@demo.example',
        directoryType: 'UNRESTRICTED', directoryOrder: 'FL', directoryFieldIds: '3,9',
        directoryConsents: JSON.stringify([{ consentType: 'DS', name: 'Listing', desc: 'List me.', required: true }]),
      },
    },
    otherUser: forbidden,
  },
  downloadSupportGroupQrCode: { call: async (t) => ({ params: { qrCodeId: await qrCodeId(t) } }), otherUser: { status: 404, errorCode: 'WSRecordNotFoundException' } },
};

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function send(route: RouteDef, call: Call, headers: Record<string, string>) {
  let path = route.path;
  for (const [k, v] of Object.entries(call.params ?? {})) path = path.replace(`:${k}`, encodeURIComponent(String(v)));
  if (call.query) path += `?${call.query}`;
  if (call.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(call.multipart)) form.append(k, v);
    if (!Object.keys(call.multipart).length) form.append('file', new Blob([Buffer.from('%PDF-1.4\n%%EOF\n')], { type: 'application/pdf' }), 'x.pdf');
    return fetch(t.baseUrl + path, { method: route.method, headers, body: form }).then(async (res) => ({ status: res.status, body: await res.json().catch(() => null) }));
  }
  return t.rest(route.method, path, { headers, body: call.body ?? (route.method === 'GET' || route.method === 'DELETE' ? undefined : {}) });
}

it('every route of the table has an entry in the sweep, and nothing else does', () => {
  expect(Object.keys(SWEEP).sort()).toEqual(ROUTES.map((r) => r.operation).sort());
  for (const r of ROUTES) expect({ op: r.operation, public: SWEEP[r.operation] === 'public' }).toEqual({ op: r.operation, public: r.credential === 'none' });
});

const protectedRoutes = ROUTES.filter((r) => r.credential !== 'none');
const unauthorised = { status: 401, errorCode: 'WSInvalidAuthTokenException' };

describe.each(protectedRoutes.map((r) => [`${r.method} ${r.path}`, r] as const))('%s', (_name, route) => {
  const entry = () => SWEEP[route.operation] as Sweep;
  const callOf = async () => (typeof entry().call === 'function' ? await (entry().call as any)(t) : (entry().call as Call));

  async function expectRefused(headers: Record<string, string>, expected: { status: number; errorCode: string }) {
    const call = await callOf();
    const before = await fingerprint(t.db.orm);
    const res = await send(route, call, headers);
    expect({ status: res.status, errorCode: res.body?.errorCode }).toEqual(expected);
    expect(await fingerprint(t.db.orm)).toEqual(before);
  }

  it('without any credential: 401 WSInvalidAuthTokenException, nothing changed', () => expectRefused({}, unauthorised));

  it('with a revoked or inactive credential: refused, nothing changed', async () => {
    if (route.credential === 'companyKey') return expectRefused({ 'x-service-company-api-key': INACTIVE_COMPANY_KEY }, { status: 403, errorCode: 'WSCompanyApiKeyNotActiveException' });
    if (route.credential === 'system') {
      await t.db.orm.em.fork().getConnection().execute(`insert into system_token (token_hash, name, scopes, revoked_at) values (encode(sha256('revoked-system-token'), 'hex'), 'revoked', '{ingestion}', now()) on conflict do nothing`);
      return expectRefused({ 'x-api-key': 'revoked-system-token' }, unauthorised);
    }
    if (route.credential === 'bearer') return expectRefused({ authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.e30.c2ln' }, unauthorised);
    const token = await tokenFor(t.db.orm, OLIVIA);
    expect((await t.rest('POST', '/rest/user/logout', { headers: { 'x-service-authtoken': token } })).status).toBeLessThan(300);
    const headers: Record<string, string> = { 'x-service-authtoken': token };
    if (route.credential === 'userAndCompanyKey') headers['x-service-company-api-key'] = COMPANY_KEY;
    return expectRefused(headers, unauthorised);
  });

  it('with the wrong kind of credential: refused, nothing changed', async () => {
    const userToken = await tokenFor(t.db.orm, OLIVIA);
    if (route.credential === 'system' || route.credential === 'companyKey' || route.credential === 'bearer') {
      return expectRefused({ 'x-service-authtoken': userToken }, unauthorised);
    }
    if (route.credential === 'userAndCompanyKey') {
      await expectRefused({ 'x-service-authtoken': userToken }, unauthorised);
      return expectRefused({ 'x-service-company-api-key': COMPANY_KEY }, unauthorised);
    }
    return expectRefused({ 'x-api-key': INGESTION, 'x-service-company-api-key': COMPANY_KEY }, unauthorised);
  });

  const other = (SWEEP[route.operation] as Sweep | undefined)?.otherUser;
  if (other) {
    it(`as another user on data that is not theirs: ${other.status}`, async () => {
      const headers: Record<string, string> = { 'x-service-authtoken': await tokenFor(t.db.orm, PAT) };
      if (route.credential === 'userAndCompanyKey') headers['x-service-company-api-key'] = COMPANY_KEY;
      const call = await callOf();
      const before = await fingerprint(t.db.orm);
      const res = await send(route, call, headers);
      if ('body' in other) expect({ status: res.status, body: res.body }).toEqual(other);
      else expect({ status: res.status, errorCode: res.body?.errorCode }).toEqual(other);
      expect(await fingerprint(t.db.orm)).toEqual(before);
    });
  }
});
