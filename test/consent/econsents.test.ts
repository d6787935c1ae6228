import { startTestApp, type TestApp } from '../helpers/app';
import { countRows, createUser, tokenFor, userAuth } from '../factories';

let t: TestApp;
let olivia: Record<string, string>;
beforeAll(async () => {
  t = await startTestApp();
  olivia = userAuth(await tokenFor(t.db.orm, 2001));
});
afterAll(() => t.close());

const COMPANY_CONSENTS = [
  {
    consentTypeCode: 'C', consentUUID: 'c0000000-0000-4000-8000-000000001001', companyId: 1001, eventUUID: null, consentRequired: true,
    consentValue: 'I agree that Northwind Health may see my profile (name, profession, specialty and country) while I am connected to its wall.',
  },
  { consentTypeCode: 'C', consentUUID: 'c0000000-0000-4000-8000-000000001002', companyId: 1001, eventUUID: null, consentRequired: false, consentValue: 'Northwind Health may send me its newsletter by e-mail.' },
];
const EVENT = 'e0000000-0000-4000-8000-000000000001';
const EVENT_CONSENTS = [
  { consentTypeCode: 'C', consentUUID: 'c0000000-0000-4000-8000-000000002001', companyId: null, eventUUID: EVENT, consentRequired: true, consentValue: 'My name may be shared with the organiser and the other attendees of the event.' },
  { consentTypeCode: 'C', consentUUID: 'c0000000-0000-4000-8000-000000002002', companyId: null, eventUUID: EVENT, consentRequired: false, consentValue: 'Photos taken at the event may show me.' },
];

describe('getEConsents (GET /rest/user/econsents)', () => {
  it("when Olivia asks for company 1001's consents, then both come back in order, with the one she gave marked", async () => {
    const res = await t.rest('GET', '/rest/user/econsents?type=C&companyId=1001', { headers: olivia });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ ...COMPANY_CONSENTS[0], consentGiven: true }, { ...COMPANY_CONSENTS[1], consentGiven: false }]);
  });

  it('when the event consents are asked (uuid in any case), then they come back with companyId null', async () => {
    const res = await t.rest('GET', `/rest/user/econsents?type=E&eventUUID=${EVENT.toUpperCase()}`, { headers: olivia });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EVENT_CONSENTS.map((c) => ({ ...c, consentGiven: false })));
  });

  it('when a company or event has no consents, then []', async () => {
    expect((await t.rest('GET', '/rest/user/econsents?type=C&companyId=1002', { headers: olivia })).body).toEqual([]);
    expect((await t.rest('GET', '/rest/user/econsents?type=E&eventUUID=e0000000-0000-4000-8000-000000000099', { headers: olivia })).body).toEqual([]);
  });

  it.each([
    ['', 'type', 'type must be C (company) or E (event).'],
    ['?type=X&companyId=1001', 'type', 'type must be C (company) or E (event).'],
    ['?type=C', 'companyId', 'companyId is required when type is C.'],
    ['?type=C&companyId=abc', 'companyId', undefined],
    ['?type=C&companyId=0', 'companyId', 'companyId must be a positive id.'],
    [`?type=C&companyId=1001&eventUUID=${EVENT}`, 'eventUUID', 'eventUUID is only accepted when type is E.'],
    ['?type=E', 'eventUUID', 'eventUUID is required when type is E.'],
    ['?type=E&eventUUID=nope', 'eventUUID', 'eventUUID must be a UUID.'],
    [`?type=E&eventUUID=${EVENT}&companyId=1001`, 'companyId', 'companyId is only accepted when type is C.'],
  ])('when the query is %p, then WSInvalidParameterException names %s', async (query, field, message) => {
    const res = await t.rest('GET', `/rest/user/econsents${query}`, { headers: olivia });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorCode: 'WSInvalidParameterException', message: message ?? expect.any(String), field });
  });

  it('when there is no token, then 401', async () => {
    const res = await t.rest('GET', '/rest/user/econsents?type=C&companyId=1001');
    expect(res).toMatchObject({ status: 401, body: { errorCode: 'WSInvalidAuthTokenException' } });
  });

  it('when asked through GraphQL, then the same rows', async () => {
    const res = await t.gql(`{ eConsents(type: "E", eventUUID: "${EVENT}") { consentUUID companyId eventUUID consentRequired } }`, {}, olivia);
    expect(res.body.data.eConsents).toEqual(EVENT_CONSENTS.map(({ consentUUID, companyId, eventUUID, consentRequired }) => ({ consentUUID, companyId, eventUUID, consentRequired })));
  });
});

describe('setEConsent (PUT /rest/user/econsents/{consentUUID})', () => {
  it('when a user gives then withdraws a consent, then the answer is recorded once and listed', async () => {
    const u = await createUser(t.db.orm);
    const headers = userAuth(await tokenFor(t.db.orm, u.uId));
    const uuid = EVENT_CONSENTS[1].consentUUID;
    const give = await t.rest('PUT', `/rest/user/econsents/${uuid}`, { headers, body: { consentGiven: true } });
    expect(give).toMatchObject({ status: 200, body: { ...EVENT_CONSENTS[1], consentGiven: true } });
    const again = await Promise.all([1, 2].map(() => t.rest('PUT', `/rest/user/econsents/${uuid}`, { headers, body: { consentGiven: true } })));
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    const rows = await t.db.orm.em.fork().getConnection().execute('select given from user_consent where user_id = ?', [u.uId]);
    expect(rows).toEqual([{ given: true }]);
    const withdraw = await t.rest('PUT', `/rest/user/econsents/${uuid}`, { headers, body: { consentGiven: false } });
    expect(withdraw.body.consentGiven).toBe(false);
    const list = await t.rest('GET', `/rest/user/econsents?type=E&eventUUID=${EVENT}`, { headers });
    expect(list.body.map((c: any) => c.consentGiven)).toEqual([false, false]);
  });

  it('when the consent is unknown or the body wrong, then nothing is stored', async () => {
    const before = await countRows(t.db.orm, 'user_consent');
    const unknown = await t.rest('PUT', '/rest/user/econsents/c0000000-0000-4000-8000-000000009999', { headers: olivia, body: { consentGiven: true } });
    expect(unknown).toMatchObject({ status: 404, body: { errorCode: 'WSRecordNotFoundException', field: 'consentUUID' } });
    const bad = await t.rest('PUT', '/rest/user/econsents/nope', { headers: olivia, body: { consentGiven: true } });
    expect(bad).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field: 'consentUUID' } });
    const missing = await t.rest('PUT', `/rest/user/econsents/${EVENT_CONSENTS[0].consentUUID}`, { headers: olivia, body: {} });
    expect(missing).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field: 'consentGiven' } });
    expect(await countRows(t.db.orm, 'user_consent')).toBe(before);
  });
});
