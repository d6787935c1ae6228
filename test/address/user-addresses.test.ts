import crypto from 'node:crypto';
import {
  anUnchangedAddress,
  createSystemToken,
  createUser,
  createUserAddress,
  DEMO,
  NULL_ADDRESS,
  OLIVIA,
  OLIVIA_WORK_ADDRESS,
  useDemoApp,
} from '../kit';

const { t, olivia } = useDemoApp();

const OLIVIA_PERSONAL = {
  ...NULL_ADDRESS,
  uuid: DEMO.addresses.oliviaPersonal,
  typeCode: 'P',
  type: 'Personal',
  name: 'Home',
  street: '7 Fig Tree Lane',
  city: 'Sydney',
  suburb: 'Glebe',
  stateCode: 'NSW',
  state: 'New South Wales',
  postcode: '2037',
  countryCode: 'AU',
  country: 'Australia',
  mobile: '+61 400 000 201',
};

describe('GET /rest/user/addresses', () => {
  it('when Olivia lists her addresses, then both come back with every field, names derived from codes', async () => {
    const res = await olivia.rest('GET', '/rest/user/addresses');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([OLIVIA_WORK_ADDRESS, OLIVIA_PERSONAL]);
  });

  it('when a user has none, then []; without a token, 401', async () => {
    const u = await t.newUser();
    expect(await u.rest('GET', '/rest/user/addresses')).toMatchObject({ status: 200, body: [] });
    expect((await t.rest('GET', '/rest/user/addresses')).status).toBe(401);
  });
});

describe('POST /rest/user/addresses', () => {
  it('when an address is created with postCode and lower-case codes, then it is stored upper case and answered with postcode', async () => {
    const u = await t.newUser();
    const res = await u.rest('POST', '/rest/user/addresses', {
      body: {
        typeCode: 'O',
        name: 'Holiday',
        street: '3 Beach Road',
        city: 'Byron Bay',
        stateCode: 'nsw',
        postCode: '2481',
        countryCode: 'au',
        email: 'me@x.example',
        type: 'Echoed',
        country: 'Echoed',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...NULL_ADDRESS,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      typeCode: 'O',
      type: 'Other',
      name: 'Holiday',
      street: '3 Beach Road',
      city: 'Byron Bay',
      stateCode: 'NSW',
      state: 'New South Wales',
      postcode: '2481',
      countryCode: 'AU',
      country: 'Australia',
      email: 'me@x.example',
    });
    expect(await t.row('user_address', { uuid: res.body.uuid })).toMatchObject({
      user_id: u.uId,
      state_code: 'NSW',
      country_code: 'AU',
      postcode: '2481',
    });
    const list = await u.rest('GET', '/rest/user/addresses');
    expect(list.body).toEqual([res.body]);
  });

  it('when typeCode is missing or unknown, then WSInvalidParameterException names typeCode and nothing is stored', async () => {
    const u = await t.newUser();
    for (const body of [{ city: 'X' }, { typeCode: 'H' }, { typeCode: 'w' }]) {
      const res = await u.rest('POST', '/rest/user/addresses', { body });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'typeCode' });
    }
    expect(await u.rest('GET', '/rest/user/addresses')).toMatchObject({ body: [] });
  });

  it('when the user already keeps 50 addresses, then WSLimitExceededException (400)', async () => {
    const u = await t.newUser();
    for (let i = 0; i < 50; i++) await createUserAddress(t.orm, u.uId);
    const res = await u.rest('POST', '/rest/user/addresses', { body: { typeCode: 'W' } });
    expect(res).toMatchObject({
      status: 400,
      body: { errorCode: 'WSLimitExceededException', message: 'A user can keep at most 50 addresses.' },
    });
  });

  it('when created through GraphQL, then the same shape', async () => {
    const u = await t.newUser();
    const res = await u.gql('mutation($i: AddressInput!) { createUserAddress(input: $i) { typeCode type postcode country } }', {
      i: { typeCode: 'P', postcode: '0001', countryCode: 'NZ' },
    });
    expect(res.body).toEqual({
      data: { createUserAddress: { typeCode: 'P', type: 'Personal', postcode: '0001', country: 'New Zealand' } },
    });
  });
});

describe('updateUserAddressByAddressUUID (PUT /rest/user/addresses/{addressUUID})', () => {
  it('when some fields are sent, then they change, omitted ones keep, null erases, echoes are ignored', async () => {
    const u = await t.newUser();
    const a = await createUserAddress(t.orm, u.uId, { suburb: 'Ultimo', phone: '123' });
    const res = await u.rest('PUT', `/rest/user/addresses/${a.uuid}`, {
      body: { uuid: a.uuid.toUpperCase(), city: 'Newcastle', postCode: '2300', phone: null, type: 'Echo', state: 'Echo', country: 'Echo' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...NULL_ADDRESS,
      uuid: a.uuid,
      typeCode: 'W',
      type: 'Work',
      name: 'Office',
      street: '1 Test Street',
      city: 'Newcastle',
      suburb: 'Ultimo',
      stateCode: 'NSW',
      state: 'New South Wales',
      postcode: '2300',
      countryCode: 'AU',
      country: 'Australia',
    });
    expect(await t.row('user_address', { uuid: a.uuid })).toMatchObject({
      city: 'Newcastle',
      postcode: '2300',
      phone: null,
      suburb: 'Ultimo',
    });
  });

  it('when the country changes and the state is dropped, then the address holds together', async () => {
    const u = await t.newUser();
    const a = await createUserAddress(t.orm, u.uId);
    const res = await u.rest('PUT', `/rest/user/addresses/${a.uuid}`, { body: { uuid: a.uuid, countryCode: 'nz', stateCode: 'AUK' } });
    expect(res.body).toMatchObject({ countryCode: 'NZ', country: 'New Zealand', stateCode: 'AUK', state: 'Auckland' });
  });

  describe('rejected updates change nothing', () => {
    const address = anUnchangedAddress(t);
    const update = (body: Record<string, unknown>, path = address.uuid) =>
      address.user.rest('PUT', `/rest/user/addresses/${path}`, { body: { uuid: address.uuid, city: 'Changed', ...body } });

    const bounds: [string, number][] = [
      ['name', 255],
      ['street', 255],
      ['city', 100],
      ['suburb', 100],
      ['postcode', 20],
      ['postCode', 20],
      ['email', 255],
      ['phone', 30],
      ['fax', 30],
      ['mobile', 30],
      ['department', 50],
      ['division', 50],
      ['jobTitle', 50],
    ];
    const value = (field: string, n: number) => (field === 'email' ? `${'a'.repeat(n - 10)}@x.example` : 'x'.repeat(n));
    it.each(bounds)('when %s is longer than %i, then WSFieldLengthException names it', async (field, max) => {
      const res = await update({ [field]: value(field, max + 1) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errorCode: 'WSFieldLengthException', message: `${field} must be at most ${max} characters.`, field });
    });

    it.each(bounds)('when %s is exactly %i long, then it is accepted (on another address)', async (field, max) => {
      const other = await createUserAddress(t.orm, address.user.uId);
      const res = await address.user.rest('PUT', `/rest/user/addresses/${other.uuid}`, {
        body: { uuid: other.uuid, [field]: value(field, max) },
      });
      expect(res.status).toBe(200);
      expect(res.body[field === 'postCode' ? 'postcode' : field]).toBe(value(field, max));
    });

    it.each([
      ['stateCode', 'ABCDEFG', 6],
      ['countryCode', 'AUS', 2],
      ['typeCode', 'WP', 1],
    ])('when the code %s is %p (over %i), then WSFieldLengthException names it', async (field, v, max) => {
      const res = await update({ [field]: v });
      expect(res.body).toEqual({ errorCode: 'WSFieldLengthException', message: `${field} must be at most ${max} characters.`, field });
    });

    it('when uuid is longer than 50, then WSFieldLengthException names it', async () => {
      const res = await update({ uuid: 'x'.repeat(51) });
      expect(res.body).toEqual({ errorCode: 'WSFieldLengthException', message: 'uuid must be at most 50 characters.', field: 'uuid' });
    });

    it.each([
      [{ typeCode: 'X' }, 'typeCode', 'typeCode must be one of W, P, O.'],
      [{ typeCode: null }, 'typeCode', 'typeCode is required: W, P or O.'],
      [{ countryCode: 'ZZ' }, 'countryCode', 'countryCode must be an ISO 3166-1 alpha-2 country code.'],
      [{ countryCode: '1A' }, 'countryCode', 'countryCode must be an ISO 3166-1 alpha-2 country code.'],
      [{ stateCode: 'QQQ' }, 'stateCode', 'stateCode must be an ISO 3166-2 subdivision code.'],
      [{ stateCode: 'VIC', countryCode: 'NZ' }, 'stateCode', 'stateCode VIC is not a subdivision of NZ.'],
      [{ stateCode: 'AUK' }, 'stateCode', 'stateCode AUK is not a subdivision of AU.'],
      [{ countryCode: 'NZ' }, 'stateCode', 'stateCode NSW is not a subdivision of NZ.'],
      [{ email: 'nope' }, 'email', 'email must be an e-mail address.'],
      [{ postcode: '1', postCode: '2' }, 'postcode', 'postcode and postCode differ; give one of them.'],
      [{ uuid: null }, 'uuid', 'uuid is required.'],
      [{ uuid: 'not-a-uuid' }, 'uuid', 'uuid must be a UUID.'],
      [{ uuid: crypto.randomUUID() }, 'uuid', 'uuid must be the uuid of the path.'],
      // A number would be taken as its text and an unknown property ignored (legacy decoding); an object is not text.
      [{ city: { name: 'Sydney' } }, 'city', undefined],
    ])('when the body is %p, then WSInvalidParameterException names %s', async (body, field, message) => {
      const res = await update(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ errorCode: 'WSInvalidParameterException', message: message ?? expect.any(String), field });
    });

    it('when the path is not a uuid, then WSInvalidParameterException names addressUUID', async () => {
      const res = await update({}, 'nope');
      expect(res.body).toEqual({ errorCode: 'WSInvalidParameterException', message: 'addressUUID must be a UUID.', field: 'addressUUID' });
    });

    it('when the address does not exist, then 404 WSAddressNotFoundException', async () => {
      const other = crypto.randomUUID();
      const res = await update({ uuid: other }, other);
      expect(res).toMatchObject({
        status: 404,
        body: { errorCode: 'WSAddressNotFoundException', message: 'No address of the caller has this uuid.', field: 'addressUUID' },
      });
    });
  });
});

describe("one user cannot touch another user's address", () => {
  it('through REST: read, change and delete all answer 404 and the address is unchanged', async () => {
    const owner = await t.newUser();
    const intruder = await t.newUser();
    const a = await createUserAddress(t.orm, owner.uId);
    const before = await t.row('user_address', { uuid: a.uuid });

    expect((await intruder.rest('GET', '/rest/user/addresses')).body).toEqual([]);
    const put = await intruder.rest('PUT', `/rest/user/addresses/${a.uuid}`, { body: { uuid: a.uuid, city: 'Stolen' } });
    expect(put).toMatchObject({ status: 404, body: { errorCode: 'WSAddressNotFoundException' } });
    const del = await intruder.rest('DELETE', `/rest/user/addresses/${a.uuid}`);
    expect(del).toMatchObject({ status: 404, body: { errorCode: 'WSAddressNotFoundException' } });
    expect(await t.row('user_address', { uuid: a.uuid })).toEqual(before);
  });

  it('through GraphQL: the same, and resolving another user as a federation entity is refused', async () => {
    const owner = await t.newUser();
    const intruder = await t.newUser();
    const a = await createUserAddress(t.orm, owner.uId);
    const before = await t.row('user_address', { uuid: a.uuid });

    const list = await intruder.gql('{ userAddresses { uuid } }');
    expect(list.body).toEqual({ data: { userAddresses: [] } });
    const upd = await intruder.gql(
      'mutation($u: String!) { updateUserAddress(addressUUID: $u, input: { uuid: $u, city: "Stolen" }) { uuid } }',
      { u: a.uuid },
    );
    expect(upd.body.errors![0].extensions).toEqual({ code: 'NOT_FOUND', errorCode: 'WSAddressNotFoundException', field: 'addressUUID' });
    const del = await intruder.gql('mutation($u: String!) { deleteUserAddress(addressUUID: $u) }', { u: a.uuid });
    expect(del.body.errors![0].extensions).toEqual({ code: 'NOT_FOUND', errorCode: 'WSAddressNotFoundException', field: 'addressUUID' });
    const entity = await intruder.gql('query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId addresses { uuid } } } }', {
      r: [{ __typename: 'User', uId: owner.uId }],
    });
    expect(entity.body.errors![0].extensions).toEqual({ code: 'FORBIDDEN', errorCode: 'WSInsufficientPrivilegesException' });
    expect(entity.body.data).toEqual({ _entities: [null] });
    expect(await t.row('user_address', { uuid: a.uuid })).toEqual(before);
  });
});

describe('DELETE /rest/user/addresses/{addressUUID}', () => {
  it('when the owner deletes an address, then 204 without a body, and a second delete is 404', async () => {
    const u = await t.newUser();
    const a = await createUserAddress(t.orm, u.uId);
    const res = await u.rest('DELETE', `/rest/user/addresses/${a.uuid}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await t.row('user_address', { uuid: a.uuid })).toBeUndefined();
    expect((await u.rest('DELETE', `/rest/user/addresses/${a.uuid}`)).status).toBe(404);
  });
});

describe('User as a federation entity', () => {
  let gateway: Record<string, string>;
  beforeAll(async () => {
    gateway = { 'x-api-key': await createSystemToken(t.orm, ['federation'], { name: 'Test gateway' }) };
  });

  const query = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on User { uId uFirstName addresses { uuid typeCode } } } }';

  it('when a user resolves their own reference, then the profile and addresses come back', async () => {
    const res = await olivia.gql(query, { r: [{ __typename: 'User', uId: OLIVIA }] });
    expect(res.body).toEqual({
      data: {
        _entities: [
          {
            uId: OLIVIA,
            uFirstName: 'Olivia',
            addresses: [
              { uuid: OLIVIA_WORK_ADDRESS.uuid, typeCode: 'W' },
              { uuid: OLIVIA_PERSONAL.uuid, typeCode: 'P' },
            ],
          },
        ],
      },
    });
  });

  it('when a gateway resolves 100 users, then their addresses cost one SQL statement, as for one user', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) {
      const u = await createUser(t.orm);
      await createUserAddress(t.orm, u.uId, { typeCode: 'P' });
      ids.push(u.uId);
    }
    const run = async (n: number) => {
      t.db.statements.length = 0;
      const res = await t.gql(query, { r: ids.slice(0, n).map((uId) => ({ __typename: 'User', uId })) }, gateway);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data._entities).toHaveLength(n);
      expect(res.body.data._entities.every((e: any) => e.addresses.length === 1)).toBe(true);
      return [...t.db.statements];
    };
    const one = await run(1);
    const hundred = await run(100);
    expect(hundred.filter((s) => /from "user_address"/.test(s))).toHaveLength(1);
    expect(hundred.length).toBe(one.length);
    expect(await t.countRows('user_address')).toBeGreaterThanOrEqual(100);
  });

  it('when the system token lacks the federation scope, then the reference is refused', async () => {
    const raw = await createSystemToken(t.orm, ['ingestion'], { name: 'Other' });
    const res = await t.gql(query, { r: [{ __typename: 'User', uId: OLIVIA }] }, { 'x-api-key': raw });
    expect(res.body.errors![0].extensions.errorCode).toBe('InsufficientPrivilegesException');
  });

  it('the SDL marks User as a federation entity keyed by uId', async () => {
    const res = await t.gql('{ _service { sdl } }');
    expect(res.body.data._service.sdl).toMatch(/type User implements Node @key\(fields: "uId"\)/);
  });
});
