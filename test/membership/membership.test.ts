// createMembershipDetails (13): every error identifier of the endpoint with its status and
// body, the stored record, and a second call updating rather than duplicating it.
import { CARA, connect, createApiKey, createCompany, createUser, DEMO, NORTHWIND, OLIVIA, useTestApp } from '../kit';
import { User, UserIdentifier } from '../kit/src';

const KEY = DEMO.companyApiKey;
const INACTIVE_KEY = DEMO.inactiveCompanyApiKey;
const MEMBER_ID = DEMO.identifiers.northwindMember;
const PATH = '/rest/company/membership/details';

const t = useTestApp();

const post = (body: unknown, key: string | null = KEY) =>
  t.rest('POST', PATH, { headers: key ? { 'x-service-company-api-key': key } : {}, body });
const rows = () => t.rows('user_identifier');

describe('createMembershipDetails (POST /rest/company/membership/details)', () => {
  it('stores the record for a connected user and answers it; a second call replaces it', async () => {
    const before = await rows();
    const res = await post({
      userId: OLIVIA,
      membershipId: 'NWH-000123',
      status: 'Active',
      statusDate: 1767225600000,
      customField1: 'Gold',
      customField5: 'x'.repeat(100),
      ignored: 'extra',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      userId: OLIVIA,
      membershipId: 'NWH-000123',
      status: 'Active',
      statusDate: 1767225600000,
      customField1: 'Gold',
      customField2: null,
      customField3: null,
      customField4: null,
      customField5: 'x'.repeat(100),
    });
    expect(await rows()).toHaveLength(before.length + 1);
    const stored = await t.orm.em.fork().findOneOrFail(UserIdentifier, { user: OLIVIA, identifier: MEMBER_ID });
    expect({ value: stored.value, status: stored.status, statusDate: stored.statusDate, source: stored.sourceCompany?.companyId }).toEqual({
      value: 'NWH-000123',
      status: 'Active',
      statusDate: new Date(1767225600000),
      source: NORTHWIND,
    });

    const again = await post({ userId: OLIVIA, membershipId: 'NWH-000456', customField2: 'Silver' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({
      userId: OLIVIA,
      membershipId: 'NWH-000456',
      status: null,
      statusDate: null,
      customField1: null,
      customField2: 'Silver',
      customField3: null,
      customField4: null,
      customField5: null,
    });
    expect(await rows()).toHaveLength(before.length + 1);
    // The stored record holds what the answer shows: each field the input and the record share.
    const replaced = await t.orm.em.fork().findOneOrFail(UserIdentifier, { user: OLIVIA, identifier: MEMBER_ID });
    const { userId, membershipId, ...shared } = again.body;
    expect([userId, membershipId]).toEqual([OLIVIA, replaced.value]);
    expect(Object.fromEntries(Object.keys(shared).map((k) => [k, replaced[k as keyof UserIdentifier] ?? null]))).toEqual(shared);
  });

  it('Cara, also connected to Northwind, gets her own record through GraphQL', async () => {
    const res = await t.gql(
      `mutation($d: MembershipDetailsInput!) { createMembershipDetails(details: $d) { userId membershipId status statusDate } }`,
      { d: { userId: CARA, membershipId: 'NWH-000003', statusDate: 0 } },
      { 'x-service-company-api-key': KEY },
    );
    expect(res.body).toEqual({
      data: { createMembershipDetails: { userId: CARA, membershipId: 'NWH-000003', status: null, statusDate: 0 } },
    });
  });

  describe('errors, each leaving the stored records unchanged', () => {
    let snapshot: unknown[];
    beforeEach(async () => {
      snapshot = await rows();
    });
    afterEach(async () => {
      expect(await rows()).toEqual(snapshot);
    });

    const error = (status: number, errorCode: string, message: string, field?: string) => ({
      status,
      body: field ? { errorCode, message, field } : { errorCode, message },
    });
    const check = async (res: { status: number; body: unknown }, expected: ReturnType<typeof error>) =>
      expect({ status: res.status, body: res.body }).toEqual(expected);

    it('no company API key: 401 WSInvalidAuthTokenException', async () => {
      await check(
        await post({ userId: OLIVIA, membershipId: 'NWH-000001' }, null),
        error(401, 'WSInvalidAuthTokenException', 'The company API key is missing or invalid.'),
      );
    });

    it('an unknown key: 401 WSInvalidAuthTokenException', async () => {
      await check(
        await post({ userId: OLIVIA, membershipId: 'NWH-000001' }, crypto.randomUUID()),
        error(401, 'WSInvalidAuthTokenException', 'The company API key is missing or invalid.'),
      );
    });

    it('an inactive key: 403 WSCompanyApiKeyNotActiveException', async () => {
      await check(
        await post({ userId: OLIVIA, membershipId: 'NWH-000001' }, INACTIVE_KEY),
        error(403, 'WSCompanyApiKeyNotActiveException', 'The company API key is not active.'),
      );
    });

    it("an inactive key's company: 403 WSCompanyNotActiveException", async () => {
      const company = await createCompany(t.orm, { active: false });
      const key = await createApiKey(t.orm, company.companyId, { membershipIdentifierId: MEMBER_ID });
      await check(
        await post({ userId: OLIVIA, membershipId: 'NWH-000001' }, key),
        error(403, 'WSCompanyNotActiveException', 'The company is not active.'),
      );
    });

    it.each([
      [{ membershipId: 'NWH-000001' }, error(400, 'WSInvalidParameterException', 'Invalid value for userId.', 'userId')],
      [
        { userId: 'user 2001', membershipId: 'NWH-000001' },
        error(400, 'WSInvalidParameterException', 'Invalid value for userId.', 'userId'),
      ],
      [{ userId: 0, membershipId: 'NWH-000001' }, error(400, 'WSInvalidParameterException', 'userId must be at least 1.', 'userId')],
      [{ userId: OLIVIA }, error(400, 'WSInvalidParameterException', 'Invalid value for membershipId.', 'membershipId')],
      [{ userId: OLIVIA, membershipId: ' ' }, error(400, 'WSInvalidParameterException', 'membershipId is required.', 'membershipId')],
      [
        { userId: OLIVIA, membershipId: 'NWH-1' },
        error(400, 'WSInvalidParameterException', 'membershipId does not have the format of NWH member (e.g. NWH-000123).', 'membershipId'),
      ],
      [
        { userId: OLIVIA, membershipId: 'NWH-000001', statusDate: '2026-01-01' },
        error(400, 'WSInvalidParameterException', 'Invalid value for statusDate.', 'statusDate'),
      ],
      [
        { userId: OLIVIA, membershipId: 'N'.repeat(101) },
        error(400, 'WSFieldLengthException', 'membershipId must be at most 100 characters.', 'membershipId'),
      ],
      [
        { userId: OLIVIA, membershipId: 'NWH-000001', status: 's'.repeat(51) },
        error(400, 'WSFieldLengthException', 'status must be at most 50 characters.', 'status'),
      ],
      [
        { userId: OLIVIA, membershipId: 'NWH-000001', customField3: 'c'.repeat(101) },
        error(400, 'WSFieldLengthException', 'customField3 must be at most 100 characters.', 'customField3'),
      ],
    ])('%j: %j', async (body, expected) => {
      await check(await post(body), expected);
    });

    it('a key without a membership identifier: 404 WSRecordNotFoundException', async () => {
      const key = await createApiKey(t.orm, NORTHWIND, { membershipIdentifierId: null });
      await check(
        await post({ userId: OLIVIA, membershipId: 'NWH-000001' }, key),
        error(404, 'WSRecordNotFoundException', 'The company API key is not linked to a membership identifier.'),
      );
      const dangling = await createApiKey(t.orm, NORTHWIND, { membershipIdentifierId: 987654 });
      await check(
        await post({ userId: OLIVIA, membershipId: 'NWH-000001' }, dangling),
        error(404, 'WSRecordNotFoundException', 'The company API key is not linked to a membership identifier.'),
      );
    });

    it('an unknown user: 404 WSUserNotFoundException', async () => {
      await check(
        await post({ userId: 99999999, membershipId: 'NWH-000001' }),
        error(404, 'WSUserNotFoundException', 'The user was not found.'),
      );
    });

    it('an inactive user: 403 WSUserNotActiveException', async () => {
      const user = await createUser(t.orm, { active: false });
      await connect(t.orm, user.uId, NORTHWIND, 'accepted');
      await check(
        await post({ userId: user.uId, membershipId: 'NWH-000001' }),
        error(403, 'WSUserNotActiveException', 'The user is not active.'),
      );
    });

    it.each([
      ['no connection', null],
      ['a pending request', 'pending' as const],
      ['a rejected request', 'rejected' as const],
    ])('a user with %s to the company: 403 WSConnectionStatusNotActiveException', async (_name, status) => {
      const user = await createUser(t.orm, { countryCode: 'AU' });
      if (status) await connect(t.orm, user.uId, NORTHWIND, status);
      await connect(t.orm, user.uId, DEMO.companies.southgate, 'accepted'); // another company's connection does not count
      await check(
        await post({ userId: user.uId, membershipId: 'NWH-000001' }),
        error(403, 'WSConnectionStatusNotActiveException', 'The user has no accepted connection with the company.'),
      );
    });
  });

  it('a user auth token is no substitute for the company key', async () => {
    const res = await t.as(CARA).rest('POST', PATH, { body: { userId: OLIVIA, membershipId: 'NWH-000001' } });
    expect(res.status).toBe(401);
  });
});

describe('the rules of MembershipDetailsInput, through GraphQL', () => {
  const CREATE = 'mutation($d: MembershipDetailsInput!) { createMembershipDetails(details: $d) { membershipId customField1 } }';
  const send = (d: Record<string, unknown>) => t.gql(CREATE, { d }, { 'x-service-company-api-key': KEY });
  const EMOJI = '\u{1F3C5}';

  it('when customField1 is 100 emoji, then it is stored whole (characters, as the column counts them); 101 is WSFieldLengthException', async () => {
    const ok = await send({ userId: CARA, membershipId: 'NWH-000777', customField1: EMOJI.repeat(100) });
    expect(ok.body).toEqual({ data: { createMembershipDetails: { membershipId: 'NWH-000777', customField1: EMOJI.repeat(100) } } });
    const before = await rows();
    const long = await send({ userId: CARA, membershipId: 'NWH-000778', customField1: EMOJI.repeat(101) });
    expect(long.body.errors![0]).toMatchObject({
      message: 'customField1 must be at most 100 characters.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'customField1' },
    });
    expect(await rows()).toEqual(before);
  });

  it.each([
    [{ userId: 0, membershipId: 'NWH-000001' }, 'WSInvalidParameterException', 'userId', 'userId must be at least 1.'],
    [{ userId: CARA, membershipId: '   ' }, 'WSInvalidParameterException', 'membershipId', 'membershipId is required.'],
    [
      { userId: CARA, membershipId: 'N'.repeat(101) },
      'WSFieldLengthException',
      'membershipId',
      'membershipId must be at most 100 characters.',
    ],
    [
      { userId: CARA, membershipId: 'NWH-000001', status: 's'.repeat(51) },
      'WSFieldLengthException',
      'status',
      'status must be at most 50 characters.',
    ],
  ])('when the details are %j, then %s names %s and nothing is stored', async (details, code, field, message) => {
    const before = await rows();
    const res = await send(details);
    expect(res.body.errors![0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT', errorCode: code, field } });
    expect(await rows()).toEqual(before);
  });

  it('states the bounds in the schema', async () => {
    const res = await t.gql('{ __type(name: "MembershipDetailsInput") { inputFields { name description } } }');
    const d = Object.fromEntries(res.body.data.__type.inputFields.map((f: any) => [f.name, f.description]));
    expect(d).toMatchObject({
      membershipId: 'Membership id; must have the format of the identifier the key is linked to. (required; at most 100 characters.)',
      status: 'Free status set by the caller. (at most 50 characters.)',
      customField5: 'Free caller data. (at most 100 characters.)',
    });
  });
});

describe('when the database stops answering', () => {
  afterEach(() => jest.restoreAllMocks());

  it('then 503 WSMembershipServiceException without internals, and nothing is stored', async () => {
    const before = await rows();
    const driver = t.orm.em.getDriver();
    const findOne = driver.findOne.bind(driver);
    // The key lookup answers; the user lookup, inside the transaction, finds the connection gone.
    jest.spyOn(driver, 'findOne').mockImplementation(((entityName: unknown, ...rest: unknown[]) => {
      if (entityName === User || entityName === 'User')
        return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }));
      return (findOne as any)(entityName, ...rest);
    }) as any);
    const res = await post({ userId: OLIVIA, membershipId: 'NWH-000001' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 503,
      body: { errorCode: 'WSMembershipServiceException', message: 'The membership service is unavailable.' },
    });
    jest.restoreAllMocks();
    expect(await rows()).toEqual(before);
  });
});
