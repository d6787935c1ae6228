import crypto from 'node:crypto';
import { createCompany, createDirectory, DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);

const COMPANY_CONSENTS = [
  {
    consentTypeCode: 'C',
    consentUUID: DEMO.consents.northwindProfile,
    companyId: NORTHWIND,
    eventUUID: null,
    consentRequired: true,
    consentValue:
      'I agree that Northwind Health may see my profile (name, profession, specialty and country) while I am connected to its wall.',
  },
  {
    consentTypeCode: 'C',
    consentUUID: DEMO.consents.northwindNews,
    companyId: NORTHWIND,
    eventUUID: null,
    consentRequired: false,
    consentValue: 'Northwind Health may send me its newsletter by e-mail.',
  },
];
const EVENT = DEMO.eventUuid;
const EVENT_CONSENTS = [
  {
    consentTypeCode: 'C',
    consentUUID: DEMO.consents.eventAttendance,
    companyId: null,
    eventUUID: EVENT,
    consentRequired: true,
    consentValue: 'My name may be shared with the organiser and the other attendees of the event.',
  },
  {
    consentTypeCode: 'C',
    consentUUID: DEMO.consents.eventPhotos,
    companyId: null,
    eventUUID: EVENT,
    consentRequired: false,
    consentValue: 'Photos taken at the event may show me.',
  },
];

describe('getEConsents (GET /rest/user/econsents)', () => {
  it("when Olivia asks for Northwind's consents, then both come back in order, with exactly the specification's properties", async () => {
    const res = await olivia.rest('GET', `/rest/user/econsents?type=C&companyId=${NORTHWIND}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(COMPANY_CONSENTS);
    // Whether she gave each is GraphQL's (the specification's e-consent has no such property).
    const given = await olivia.gql(`{ eConsents(type: "C", companyId: ${NORTHWIND}) { consentUUID consentGiven } }`);
    expect(given.body.data.eConsents).toEqual([
      { consentUUID: COMPANY_CONSENTS[0].consentUUID, consentGiven: true },
      { consentUUID: COMPANY_CONSENTS[1].consentUUID, consentGiven: false },
    ]);
  });

  it('when the event consents are asked (uuid in any case), then they come back with companyId null', async () => {
    const res = await olivia.rest('GET', `/rest/user/econsents?type=E&eventUUID=${EVENT.toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(EVENT_CONSENTS);
  });

  it('when a company or event has no consents, then []', async () => {
    expect((await olivia.rest('GET', `/rest/user/econsents?type=C&companyId=${DEMO.companies.southgate}`)).body).toEqual([]);
    expect((await olivia.rest('GET', '/rest/user/econsents?type=E&eventUUID=e0000000-0000-4000-8000-000000000099')).body).toEqual([]);
  });

  it.each([
    ['', 'type', 'type must be C (company) or E (event).'],
    [`?type=X&companyId=${NORTHWIND}`, 'type', 'type must be C (company) or E (event).'],
    ['?type=C', 'companyId', 'companyId is required when type is C.'],
    ['?type=C&companyId=abc', 'companyId', undefined],
    ['?type=C&companyId=0', 'companyId', 'companyId must be a positive id.'],
    [`?type=C&companyId=${NORTHWIND}&eventUUID=${EVENT}`, 'eventUUID', 'eventUUID is only accepted when type is E.'],
    ['?type=E', 'eventUUID', 'eventUUID is required when type is E.'],
    ['?type=E&eventUUID=nope', 'eventUUID', 'eventUUID must be a UUID.'],
    [`?type=E&eventUUID=${EVENT}&companyId=${NORTHWIND}`, 'companyId', 'companyId is only accepted when type is C.'],
  ])('when the query is %p, then WSInvalidParameterException names %s', async (query, field, message) => {
    const res = await olivia.rest('GET', `/rest/user/econsents${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorCode: 'WSInvalidParameterException', message: message ?? expect.any(String), field });
  });

  it('when there is no token, then 401', async () => {
    const res = await t.rest('GET', `/rest/user/econsents?type=C&companyId=${NORTHWIND}`);
    expect(res).toMatchObject({ status: 401, body: { errorCode: 'WSInvalidAuthTokenException' } });
  });

  it('when asked through GraphQL, then the same rows', async () => {
    const res = await olivia.gql(`{ eConsents(type: "E", eventUUID: "${EVENT}") { consentUUID companyId eventUUID consentRequired } }`);
    expect(res.body.data.eConsents).toEqual(
      EVENT_CONSENTS.map(({ consentUUID, companyId, eventUUID, consentRequired }) => ({
        consentUUID,
        companyId,
        eventUUID,
        consentRequired,
      })),
    );
  });
});

describe('setEConsent (PUT /rest/user/econsents/{consentUUID})', () => {
  it('when a user gives then withdraws a consent, then the answer is recorded once and listed', async () => {
    const u = await t.newUser();
    const uuid = EVENT_CONSENTS[1].consentUUID;
    const give = await u.rest('PUT', `/rest/user/econsents/${uuid}`, { body: { consentGiven: true } });
    expect({ status: give.status, body: give.body }).toEqual({ status: 200, body: EVENT_CONSENTS[1] });
    const again = await Promise.all([1, 2].map(() => u.rest('PUT', `/rest/user/econsents/${uuid}`, { body: { consentGiven: true } })));
    expect(again.map((r) => r.status)).toEqual([200, 200]);
    const rows = await t.sql('select given from user_consent where user_id = ?', [u.uId]);
    expect(rows).toEqual([{ given: true }]);
    const withdraw = await u.rest('PUT', `/rest/user/econsents/${uuid}`, { body: { consentGiven: false } });
    expect({ status: withdraw.status, body: withdraw.body }).toEqual({ status: 200, body: EVENT_CONSENTS[1] });
    expect(await t.sql('select given from user_consent where user_id = ?', [u.uId])).toEqual([{ given: false }]);
    const list = await u.gql(`{ eConsents(type: "E", eventUUID: "${EVENT}") { consentGiven } }`);
    expect(list.body.data.eConsents.map((c: any) => c.consentGiven)).toEqual([false, false]);
  });

  it('when the consent is unknown or the body wrong, then nothing is stored', async () => {
    const before = await t.countRows('user_consent');
    const unknown = await olivia.rest('PUT', '/rest/user/econsents/c0000000-0000-4000-8000-000000009999', { body: { consentGiven: true } });
    expect(unknown).toMatchObject({ status: 404, body: { errorCode: 'WSRecordNotFoundException', field: 'consentUUID' } });
    const bad = await olivia.rest('PUT', '/rest/user/econsents/nope', { body: { consentGiven: true } });
    expect(bad).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field: 'consentUUID' } });
    const missing = await olivia.rest('PUT', `/rest/user/econsents/${EVENT_CONSENTS[0].consentUUID}`, { body: {} });
    expect(missing).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field: 'consentGiven' } });
    expect(await t.countRows('user_consent')).toBe(before);
  });

  it("when someone outside a directory's team answers one of its consents, then it is answered as a consent that does not exist, and nothing is stored", async () => {
    const [member, outsider] = [await t.newUser(), await t.newUser()];
    const dir = await createDirectory(t.orm, { members: [member.uId] });
    const put = (u: typeof member, uuid: string) => u.rest('PUT', `/rest/user/econsents/${uuid}`, { body: { consentGiven: true } });
    const refused = await put(outsider, dir.consentUUIDs[0]);
    const unknown = await put(outsider, 'c0000000-0000-4000-8000-000000009998');
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 404,
      body: { errorCode: 'WSRecordNotFoundException', message: 'No consent has this consentUUID.', field: 'consentUUID' },
    });
    expect(unknown.body).toEqual(refused.body);
    const overGraphql = await outsider.gql('mutation($u: String!) { setEConsent(consentUUID: $u, consentGiven: true) { consentValue } }', {
      u: dir.consentUUIDs[0],
    });
    expect(overGraphql.body.errors?.map((e: any) => e.extensions)).toEqual([
      { code: 'NOT_FOUND', errorCode: 'WSRecordNotFoundException', field: 'consentUUID' },
    ]);
    expect(await t.sql('select count(*)::int as n from user_consent where user_id = ?', [outsider.uId])).toEqual([{ n: 0 }]);

    const given = await put(member, dir.consentUUIDs[0]);
    expect({ status: given.status, consentTypeCode: given.body.consentTypeCode }).toEqual({ status: 200, consentTypeCode: 'DS' });
    expect(await t.sql('select given from user_consent where user_id = ?', [member.uId])).toEqual([{ given: true }]);
  });
});

describe('getEConsents reads', () => {
  it("when the list is read, then the caller's user row and one statement", async () => {
    const u = await t.newUser();
    const path = `/rest/user/econsents?type=C&companyId=${NORTHWIND}`;
    await u.rest('PUT', `/rest/user/econsents/${COMPANY_CONSENTS[1].consentUUID}`, { body: { consentGiven: true } });
    await u.rest('GET', path);
    let res: any;
    const statements = await t.countStatements(async () => (res = await u.rest('GET', path)));
    expect(res.body).toEqual(COMPANY_CONSENTS);
    expect(statements).toBe(2);
  });

  it("when another user gave a consent or the caller withdrew one, then the caller's list shows false", async () => {
    const giver = await t.newUser();
    const withdrawer = await t.newUser();
    const [attendance, photos] = EVENT_CONSENTS.map((c) => c.consentUUID);
    await giver.rest('PUT', `/rest/user/econsents/${attendance}`, { body: { consentGiven: true } });
    await withdrawer.rest('PUT', `/rest/user/econsents/${photos}`, { body: { consentGiven: true } });
    await withdrawer.rest('PUT', `/rest/user/econsents/${photos}`, { body: { consentGiven: false } });
    const given = async (who: typeof giver) =>
      (await who.gql(`{ eConsents(type: "E", eventUUID: "${EVENT}") { consentGiven } }`)).body.data.eConsents.map(
        (c: any) => c.consentGiven,
      );
    expect(await given(giver)).toEqual([true, false]);
    expect(await given(withdrawer)).toEqual([false, false]);
  });

  it('when a consent is retired, then it is no longer listed', async () => {
    const company = await createCompany(t.orm);
    const uuids = [crypto.randomUUID(), crypto.randomUUID()];
    await t.sql(
      `insert into consent_definition (consent_uuid, consent_type_code, company_id, consent_value, consent_required, sort_order, active)
       values (?, 'C', ?, 'Kept.', true, 2, true), (?, 'C', ?, 'Retired.', false, 1, false)`,
      [uuids[0], company.companyId, uuids[1], company.companyId],
    );
    const res = await olivia.rest('GET', `/rest/user/econsents?type=C&companyId=${company.companyId}`);
    expect(res.body).toEqual([
      {
        consentTypeCode: 'C',
        consentUUID: uuids[0],
        companyId: company.companyId,
        eventUUID: null,
        consentRequired: true,
        consentValue: 'Kept.',
      },
    ]);
  });
});
