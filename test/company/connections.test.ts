// Connections: a user's request (pending, accepted, requested or refused by the matching
// rule), the profile-change re-check (spec connection rule 3), company admins' decisions, and
// the accepted-connection checks other modules use.
import {
  connect,
  createCompany,
  createCriterion,
  createIdentifier,
  DEMO,
  giveIdentifier,
  grantCompanyRole,
  NORTHWIND,
  OLIVIA,
  suffix,
  useTestApp,
  type Client,
} from '../kit';
import { acceptedConnectionUserIds, CompanyConnection, hasAcceptedConnection } from '../kit/src';
import type { User } from '../../src/modules/user/user.entity';

const t = useTestApp();
let reg: { identifierId: number };
beforeAll(async () => {
  reg = await createIdentifier(t.orm, { countryCode: 'AU', name: 'REG', formatDesc: 'R1234', formatRegex: '^R[0-9]{4}$' });
});

async function member(profile: Partial<User> = {}) {
  const u = await t.newUser({ countryCode: 'AU', professionId: 101, specialtyId: 201, ...profile });
  return { user: u.user, auth: u };
}

const connectionOf = (userId: number, companyId: number) => t.findOne(CompanyConnection, { user: userId, company: companyId });

async function wall(criteria: object[], data: object = {}) {
  const company = await createCompany(t.orm, { companyName: `Wall ${suffix()}`, ...data });
  for (const dims of criteria) await createCriterion(t.orm, company.companyId, dims);
  return company;
}

const request = (auth: Client, body: unknown) => auth.rest('POST', '/rest/user/connections', { body });
const recommendedIds = async (auth: Client, searchTerms: string) =>
  (await auth.rest('POST', '/rest/user/recommended/entities', { body: { version: 2, entityType: ['company'], searchTerms } })).body.map(
    (e: any) => [e.entityId, e.entityConnectionPending],
  );
const ms = expect.any(Number);
/** A pending connection as REST answers it. */
const pendingConnection = (companyId: number, userId: number) => ({
  companyId,
  userId,
  status: 'pending',
  requestedAt: ms,
  pendingAt: ms,
  acceptedAt: null,
  rejectedAt: null,
  rejectionReason: null,
  updatedAt: ms,
});

describe('requestConnection (POST /rest/user/connections)', () => {
  it('when the profile fully meets a criterion of a vetting company, then the request is pending and shows as pending', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'], professions: [101] }]);
    const before = Date.now();
    const res = await request(auth, { companyId: company.companyId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(pendingConnection(company.companyId, user.uId));
    expect(res.body.requestedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.pendingAt).toBe(res.body.requestedAt);
    expect(await recommendedIds(auth, company.companyName)).toEqual([[String(company.companyId), true]]);
  });

  it('when the company does not vet, then the connection is accepted at once and the company is no longer recommended', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'] }], { vetsConnections: false });
    const res = await request(auth, { companyId: company.companyId });
    expect(res.body).toMatchObject({ status: 'accepted', acceptedAt: ms, pendingAt: null });
    expect(await recommendedIds(auth, company.companyName)).toEqual([]);
    expect(await hasAcceptedConnection(t.orm.em.fork(), user.uId, company.companyId)).toBe(true);
  });

  it('when a criterion is only partly met, then the request waits as requested; supplying the identifier makes it pending', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'], identifiers: [reg.identifierId] }]);
    const first = await request(auth, { companyId: company.companyId });
    expect(first.body).toMatchObject({ status: 'requested', pendingAt: null });
    expect(await recommendedIds(auth, company.companyName)).toEqual([[String(company.companyId), false]]);

    const second = await request(auth, {
      companyId: company.companyId,
      identifiers: [{ identifierId: reg.identifierId, value: ' R1234 ' }],
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ status: 'pending', pendingAt: ms });
    expect(await t.sql(`select count(*)::int as n from company_connection where user_id = ${user.uId}`)).toEqual([{ n: 1 }]);
    const stored = await t.sql(`select value, source_company_id from user_identifier where user_id = ${user.uId}`);
    expect(stored).toEqual([{ value: 'R1234', source_company_id: null }]);
  });

  it('when a new identifier value settles another open request, that one moves on too', async () => {
    const { user, auth } = await member();
    const other = await wall([{ identifiers: [reg.identifierId] }]);
    const target = await wall([{ identifiers: [reg.identifierId] }]);
    await request(auth, { companyId: other.companyId });
    expect((await connectionOf(user.uId, other.companyId))!.status).toBe('requested');
    await request(auth, { companyId: target.companyId, identifiers: [{ identifierId: reg.identifierId, value: 'R0001' }] });
    expect((await connectionOf(user.uId, other.companyId))!.status).toBe('pending');
  });

  it('when the profile meets no criterion, then the request is refused and nothing is stored', async () => {
    const { auth } = await member();
    const company = await wall([{ countries: ['NZ'] }]);
    const rows = [await t.rows('company_connection'), await t.rows('user_identifier')];
    const res = await request(auth, { companyId: company.companyId, identifiers: [{ identifierId: reg.identifierId, value: 'R9999' }] });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errorCode: 'WSInvalidParameterException',
      message: "The profile meets none of the company's discovery criteria.",
      field: 'companyId',
    });
    expect([await t.rows('company_connection'), await t.rows('user_identifier')]).toEqual(rows);
  });

  const notDiscoverable = {
    errorCode: 'WSInvalidParameterException',
    message: 'companyId does not name a discoverable company.',
    field: 'companyId',
  };
  it.each([
    ['unknown company', async () => 99999999, 400, notDiscoverable],
    ['hidden wall', async () => (await wall([{ countries: ['AU'] }], { hiddenWall: true })).companyId, 400, notDiscoverable],
    ['inactive company', async () => (await wall([{ countries: ['AU'] }], { active: false })).companyId, 400, notDiscoverable],
  ])('when the company is an %s, then %i', async (_name, companyId, status, body) => {
    const { auth } = await member();
    const before = await t.rows('company_connection');
    const res = await request(auth, { companyId: await companyId() });
    expect({ status: res.status, body: res.body }).toEqual({ status, body });
    expect(await t.rows('company_connection')).toEqual(before);
  });

  it.each([
    [{ companyId: undefined }, { errorCode: 'WSInvalidParameterException', message: 'Invalid value for companyId.', field: 'companyId' }],
    [{ companyId: '12a' }, { errorCode: 'WSInvalidParameterException', message: 'Invalid value for companyId.', field: 'companyId' }],
    [
      { identifiers: [{ identifierId: 0, value: 'R1234' }] },
      { errorCode: 'WSInvalidParameterException', message: 'Identifier 0 is not defined.', field: 'identifierId' },
    ],
    [
      { identifiers: [{ identifierId: -1, value: 'bad' }] },
      { errorCode: 'WSInvalidParameterException', message: 'Identifier -1 is not defined.', field: 'identifierId' },
    ],
    [
      { identifiers: [{ identifierId: 'REG', value: 'R1234' }] },
      { errorCode: 'WSInvalidParameterException', message: 'Invalid value for identifierId.', field: 'identifierId' },
    ],
    [
      { identifiers: [{ identifierId: 1, value: '  ' }] },
      { errorCode: 'WSInvalidParameterException', message: 'An identifier value must not be empty.', field: 'value' },
    ],
    [
      { identifiers: [{ identifierId: 1, value: 'x'.repeat(101) }] },
      { errorCode: 'WSFieldLengthException', message: 'value must be at most 100 characters.', field: 'value' },
    ],
    [
      {
        identifiers: [
          { identifierId: 1, value: 'a' },
          { identifierId: 1, value: 'b' },
        ],
      },
      { errorCode: 'WSInvalidParameterException', message: 'Identifier 1 is given twice.', field: 'identifierId' },
    ],
  ])('when the body holds %j, then 400 and nothing is stored', async (body, expected) => {
    const { auth } = await member();
    const company = await wall([{ identifiers: [reg.identifierId] }]);
    const rows = [await t.rows('company_connection'), await t.rows('user_identifier')];
    const res = await request(auth, { companyId: company.companyId, ...body });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: expected });
    expect([await t.rows('company_connection'), await t.rows('user_identifier')]).toEqual(rows);
  });

  it('when an identifier value lacks the format, then 400 naming value, with the example', async () => {
    const { auth } = await member();
    const company = await wall([{ identifiers: [reg.identifierId] }]);
    const res = await request(auth, { companyId: company.companyId, identifiers: [{ identifierId: reg.identifierId, value: 'X1' }] });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: {
        errorCode: 'WSInvalidParameterException',
        message: 'The value for REG does not have its format (e.g. R1234).',
        field: 'value',
      },
    });
  });

  it('when the user is already connected, then 409 WSAlreadyExistsException', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'] }]);
    await connect(t.orm, user.uId, company.companyId, 'accepted');
    const res = await request(auth, { companyId: company.companyId });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 409,
      body: { errorCode: 'WSAlreadyExistsException', message: 'The user is already connected to the company.' },
    });
  });

  it('when a rejected user asks again and meets the criteria, then the request is pending again with fresh timestamps', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'] }]);
    await connect(t.orm, user.uId, company.companyId, 'rejected');
    const res = await request(auth, { companyId: company.companyId });
    expect(res.body).toMatchObject({ status: 'pending', rejectedAt: null, rejectionReason: null });
    // The row is reused: one per user and company.
    expect(await t.sql(`select count(*)::int as n from company_connection where user_id = ${user.uId}`)).toEqual([{ n: 1 }]);
  });

  it('without an auth token: 401', async () => {
    const res = await request(t, { companyId: DEMO.companies.southgate });
    expect(res.status).toBe(401);
  });
});

describe('when the profile changes (connection rule 3)', () => {
  const updateProfile = (auth: Client, uId: number, fields: object) => auth.rest('PUT', '/rest/user/profile', { body: { uId, ...fields } });

  it('so that no criterion is met any more, then the pending request is rejected and the company disappears', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'], professions: [101] }]);
    await request(auth, { companyId: company.companyId });
    const res = await updateProfile(auth, user.uId, { uCountryCode: 'NZ' });
    expect(res.status).toBe(200);
    const c = (await connectionOf(user.uId, company.companyId))!;
    expect({ status: c.status, reason: c.rejectionReason, rejected: c.rejectedAt instanceof Date }).toEqual({
      status: 'rejected',
      reason: 'criteria',
      rejected: true,
    });
    expect(await recommendedIds(auth, company.companyName)).toEqual([]);
  });

  it('so that a criterion is only partly met, then the pending request waits as requested, and pending again once complete', async () => {
    const { user, auth } = await member();
    const company = await wall([{ professions: [101] }]);
    await request(auth, { companyId: company.companyId });
    await updateProfile(auth, user.uId, { fieldsToNull: ['uProfessionId', 'uSpecialtyId'] });
    expect((await connectionOf(user.uId, company.companyId))!.status).toBe('requested');
    expect(await recommendedIds(auth, company.companyName)).toEqual([[String(company.companyId), false]]);
    await updateProfile(auth, user.uId, { uProfessionId: 101 });
    expect((await connectionOf(user.uId, company.companyId))!.status).toBe('pending');
    expect(await recommendedIds(auth, company.companyName)).toEqual([[String(company.companyId), true]]);
  });

  it('in fields the criteria do not read, then nothing changes', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'] }]);
    await request(auth, { companyId: company.companyId });
    const before = await t.rows('company_connection');
    await updateProfile(auth, user.uId, { uInterests: 'Running' });
    expect(await t.rows('company_connection')).toEqual(before);
  });

  it('accepted connections are left alone', async () => {
    const { user, auth } = await member();
    const company = await wall([{ countries: ['AU'] }]);
    await connect(t.orm, user.uId, company.companyId, 'accepted');
    await updateProfile(auth, user.uId, { uCountryCode: 'NZ' });
    expect((await connectionOf(user.uId, company.companyId))!.status).toBe('accepted');
  });
});

describe('company admins', () => {
  async function setUp() {
    const company = await wall([{ countries: ['AU'] }, { identifiers: [reg.identifierId] }]);
    const admin = await member();
    await grantCompanyRole(t.orm, admin.user.uId, company.companyId, 'ADMIN');
    const asker = await member({ firstName: 'Ada', lastName: 'Lovelace' });
    await giveIdentifier(t.orm, asker.user.uId, reg.identifierId, 'R4242');
    await request(asker.auth, { companyId: company.companyId });
    return { company, admin, asker };
  }

  it('list the pending requests with what vetting needs, approve one: accepted, and it leaves the pending list', async () => {
    const { company, admin, asker } = await setUp();
    const list = await admin.auth.rest('GET', `/rest/company/${company.companyId}/connections?status=pending`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        ...pendingConnection(company.companyId, asker.user.uId),
        requester: {
          firstName: 'Ada',
          lastName: 'Lovelace',
          email: asker.user.email,
          countryCode: 'AU',
          professionId: 101,
          specialtyId: 201,
          identifiers: [{ identifierId: reg.identifierId, value: 'R4242' }],
        },
      },
    ]);
    const res = await admin.auth.rest('POST', `/rest/company/${company.companyId}/connections/${asker.user.uId}/approve`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'accepted', acceptedAt: ms, userId: asker.user.uId, companyId: company.companyId });
    const stored = (await connectionOf(asker.user.uId, company.companyId))!;
    expect(stored.decidedBy?.uId).toBe(admin.user.uId);
    expect((await admin.auth.rest('GET', `/rest/company/${company.companyId}/connections?status=pending`)).body).toEqual([]);
    const mine = await asker.auth.rest('GET', '/rest/user/connections');
    expect(mine.body).toEqual([expect.objectContaining({ companyId: company.companyId, status: 'accepted' })]);
  });

  it('decline: rejected with reason declined; deciding again is refused and changes nothing', async () => {
    const { company, admin, asker } = await setUp();
    const res = await admin.auth.rest('POST', `/rest/company/${company.companyId}/connections/${asker.user.uId}/decline`);
    expect(res.body).toMatchObject({ status: 'rejected', rejectionReason: 'declined', rejectedAt: ms });
    const before = await t.rows('company_connection');
    const again = await admin.auth.rest('POST', `/rest/company/${company.companyId}/connections/${asker.user.uId}/approve`);
    expect({ status: again.status, body: again.body }).toEqual({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: 'The connection is rejected; only pending requests can be approved.' },
    });
    expect(await t.rows('company_connection')).toEqual(before);
  });

  it('a requested (partly met) request cannot be approved, but can be declined', async () => {
    const { admin } = await setUp();
    const company = await wall([{ identifiers: [reg.identifierId] }]);
    await grantCompanyRole(t.orm, admin.user.uId, company.companyId, 'ADMIN');
    const partial = await member();
    expect((await request(partial.auth, { companyId: company.companyId })).body.status).toBe('requested');
    const approve = await admin.auth.rest('POST', `/rest/company/${company.companyId}/connections/${partial.user.uId}/approve`);
    expect({ status: approve.status, body: approve.body }).toEqual({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: 'The connection is requested; only pending requests can be approved.' },
    });
    const decline = await admin.auth.rest('POST', `/rest/company/${company.companyId}/connections/${partial.user.uId}/decline`);
    expect(decline.body).toMatchObject({ status: 'rejected', rejectionReason: 'declined' });
  });

  it('a user who is not an admin of the company gets 403, an unknown request 404, a bad status 400', async () => {
    const { company, admin, asker } = await setUp();
    const before = await t.rows('company_connection');
    const forbidden = {
      status: 403,
      body: { errorCode: 'WSInsufficientPrivilegesException', message: 'Only an admin of the company may do this.' },
    };
    const asAsker = await asker.auth.rest('POST', `/rest/company/${company.companyId}/connections/${asker.user.uId}/approve`);
    expect({ status: asAsker.status, body: asAsker.body }).toEqual(forbidden);
    const list = await asker.auth.rest('GET', `/rest/company/${company.companyId}/connections`);
    expect({ status: list.status, body: list.body }).toEqual(forbidden);
    const unknown = await admin.auth.rest('POST', `/rest/company/${company.companyId}/connections/99999999/approve`);
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 404,
      body: { errorCode: 'WSRecordNotFoundException', message: 'The user has no connection request with the company.' },
    });
    const bad = await admin.auth.rest('GET', `/rest/company/${company.companyId}/connections?status=open`);
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: {
        errorCode: 'WSInvalidParameterException',
        message: 'status must be one of requested, pending, accepted, rejected.',
        field: 'status',
      },
    });
    const nonNumeric = await admin.auth.rest('POST', `/rest/company/abc/connections/${asker.user.uId}/approve`);
    expect(nonNumeric.body).toEqual({
      errorCode: 'WSInvalidParameterException',
      message: 'Invalid value for companyId.',
      field: 'companyId',
    });
    expect(await t.rows('company_connection')).toEqual(before);
  });

  it('the GraphQL list costs the same statements for one requester as for five', async () => {
    const { company, admin } = await setUp();
    const query = `query($id: Int!) { companyConnections(companyId: $id) { userId status company { companyName } requester { email identifiers { identifierId value } } } }`;
    let count = 0;
    const one = await t.countStatements(
      async () => (count = (await admin.auth.gql(query, { id: company.companyId })).body.data.companyConnections.length),
    );
    expect(count).toBe(1);
    for (let i = 0; i < 4; i++) await request((await member()).auth, { companyId: company.companyId });
    const five = await t.countStatements(
      async () => (count = (await admin.auth.gql(query, { id: company.companyId })).body.data.companyConnections.length),
    );
    expect(count).toBe(5);
    expect(five).toBe(one);
  });
});

describe('GraphQL', () => {
  it('requestConnection and myConnections', async () => {
    const { auth } = await member();
    const company = await wall([{ countries: ['AU'] }]);
    const res = await auth.gql(`mutation($id: Int!) { requestConnection(companyId: $id) { companyId status company { companyName } } }`, {
      id: company.companyId,
    });
    expect(res.body).toEqual({
      data: { requestConnection: { companyId: company.companyId, status: 'pending', company: { companyName: company.companyName } } },
    });
    const refused = await auth.gql(`mutation($id: Int!) { requestConnection(companyId: $id) { status } }`, {
      id: DEMO.companies.westfield,
    });
    expect(refused.body.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 'WSInvalidParameterException',
      field: 'companyId',
    });
    const mine = await auth.gql(`{ myConnections(status: "pending") { companyId } }`);
    expect(mine.body.data.myConnections).toEqual([{ companyId: company.companyId }]);
  });
});

describe('accepted-connection checks for other modules', () => {
  it('hasAcceptedConnection and acceptedConnectionUserIds see only accepted connections', async () => {
    const company = await wall([]);
    const users = await Promise.all([member(), member(), member()]);
    await connect(t.orm, users[0].user.uId, company.companyId, 'accepted');
    await connect(t.orm, users[1].user.uId, company.companyId, 'pending');
    const em = t.orm.em.fork();
    expect(await hasAcceptedConnection(em, users[0].user.uId, company.companyId)).toBe(true);
    expect(await hasAcceptedConnection(em, users[1].user.uId, company.companyId)).toBe(false);
    expect(await hasAcceptedConnection(em, OLIVIA, NORTHWIND)).toBe(true);
    expect([
      ...(await acceptedConnectionUserIds(
        em,
        company.companyId,
        users.map((u) => u.user.uId),
      )),
    ]).toEqual([users[0].user.uId]);
    expect(await acceptedConnectionUserIds(em, company.companyId, [])).toEqual(new Set());
  });
});
