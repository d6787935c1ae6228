// Endpoints 7, 9 and 10: shapes, and every error identifier with its one documented trigger,
// each asserting status, body and that no row changed.
import crypto from 'node:crypto';
import {
  createContact,
  createContactAddress,
  createDirectory,
  createUser,
  createUserAddress,
  DEMO,
  NULL_ADDRESS,
  OLIVIA,
  OLIVIA_WORK_ADDRESS,
  useTestApp,
  type Client,
  type TestDirectory,
} from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);

const base = (dir: string) => `/rest/smartdirectory/${dir}/contactRecord/addresses`;
const list = (dir: string, who: Client) => who.rest('GET', base(dir));
const update = (dir: string, uuid: string, body: unknown, who: Client) => who.rest('PUT', `${base(dir)}/${uuid}`, { body });
const copy = (dir: string, body: unknown, who: Client) => who.rest('POST', `${base(dir)}/copyFromUser`, { body });
const addressTables = () => t.tableRows(['user_address', 'contact_address']);

/** A member with a consented contact record in a fresh directory, and one profile address of each type W and P. */
async function setup(options: Parameters<typeof createDirectory>[1] = {}) {
  const m = await t.newUser();
  const dir = await createDirectory(t.orm, { members: [m.uId], ...options });
  const contact = await createContact(t.orm, dir.uuid, m.uId);
  const work = await createUserAddress(t.orm, m.uId, { typeCode: 'W', city: 'Sydney' });
  const home = await createUserAddress(t.orm, m.uId, { typeCode: 'P', city: 'Glebe', postcode: '2037' });
  return { ...m, dir, contact, work, home };
}

/** Olivia's work address copied into a contact record: the same fields under the copy's uuid. */
const OLIVIA_WORK_COPY = (uuid: string) => ({ ...OLIVIA_WORK_ADDRESS, uuid });

describe('getAddressesForDirectoryContact (10)', () => {
  it('when Olivia reads her record in each demo directory, then her linked work address copy comes back, every field present', async () => {
    const staff = await list(DEMO.directories.staff, olivia);
    expect(staff).toMatchObject({ status: 200, body: [OLIVIA_WORK_COPY(DEMO.contactAddresses.staff)] });
    const cardiology = await list(DEMO.directories.cardiology.toUpperCase(), olivia);
    expect(cardiology.body).toEqual([OLIVIA_WORK_COPY(DEMO.contactAddresses.cardiology)]);
    const [row] = await t.sql('select user_address_uuid from contact_address where uuid = ?', [DEMO.contactAddresses.staff]);
    expect(row.user_address_uuid).toBe(DEMO.addresses.oliviaWork);
  });

  it('when asked through GraphQL, then the same addresses', async () => {
    const res = await olivia.gql(`{ directoryContactAddresses(directoryUUID: "${DEMO.directories.staff}") { uuid type country } }`);
    expect(res.body).toEqual({
      data: { directoryContactAddresses: [{ uuid: DEMO.contactAddresses.staff, type: 'Work', country: 'Australia' }] },
    });
  });
});

describe('copyAddressesFromUserToDirectoryContact (9)', () => {
  it('when two profile addresses are copied, then both come back in request order, linked to their sources', async () => {
    const s = await setup();
    const res = await copy(s.dir.uuid, { addressUUIDs: [s.home.uuid, s.work.uuid.toUpperCase()] }, s);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        ...NULL_ADDRESS,
        uuid: expect.any(String),
        typeCode: 'P',
        type: 'Personal',
        name: 'Office',
        street: '1 Test Street',
        city: 'Glebe',
        stateCode: 'NSW',
        state: 'New South Wales',
        postcode: '2037',
        countryCode: 'AU',
        country: 'Australia',
      },
      {
        ...NULL_ADDRESS,
        uuid: expect.any(String),
        typeCode: 'W',
        type: 'Work',
        name: 'Office',
        street: '1 Test Street',
        city: 'Sydney',
        stateCode: 'NSW',
        state: 'New South Wales',
        postcode: '2000',
        countryCode: 'AU',
        country: 'Australia',
      },
    ]);
    expect(res.body[0].uuid).not.toBe(s.home.uuid);
    const rows = await t.sql('select uuid, user_address_uuid from contact_address where contact_id = ? order by type_code', [
      s.contact.contactId,
    ]);
    expect(rows).toEqual([
      { uuid: res.body[0].uuid, user_address_uuid: s.home.uuid },
      { uuid: res.body[1].uuid, user_address_uuid: s.work.uuid },
    ]);
    expect((await list(s.dir.uuid, s)).body.map((a: any) => a.uuid).sort()).toEqual(res.body.map((a: any) => a.uuid).sort());
  });

  it('when one of the addresses fails, then none is copied (all or nothing)', async () => {
    const s = await setup();
    const stranger = await createUserAddress(t.orm, (await createUser(t.orm)).uId, { typeCode: 'O' });
    const before = await addressTables();
    const notMine = await copy(s.dir.uuid, { addressUUIDs: [s.work.uuid, stranger.uuid] }, s);
    expect(notMine).toMatchObject({ status: 404, body: { errorCode: 'WSAddressNotFoundException', field: 'addressUUIDs' } });
    const second = await createUserAddress(t.orm, s.uId, { typeCode: 'W' });
    const full = await copy(s.dir.uuid, { addressUUIDs: [s.home.uuid, s.work.uuid, second.uuid] }, s);
    expect(full).toMatchObject({
      status: 409,
      body: {
        errorCode: 'WSAddressAlreadyFullException',
        message: 'The contact record already holds an address of type W.',
        field: 'typeCode',
      },
    });
    expect((await addressTables()).contact_address).toEqual(before.contact_address);
  });

  it('when the same copy is sent concurrently, then exactly one copy exists and the others are WSAlreadyExistsException', async () => {
    const s = await setup();
    const results = await Promise.all(Array.from({ length: 6 }, () => copy(s.dir.uuid, { addressUUIDs: [s.work.uuid] }, s)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.errorCode).toBe('WSAlreadyExistsException');
    const rows = await t.sql('select count(*)::int as n from contact_address where contact_id = ?', [s.contact.contactId]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('the database itself refuses a second copy of one user address, and a second address of one type, in a record', async () => {
    const s = await setup();
    await copy(s.dir.uuid, { addressUUIDs: [s.work.uuid] }, s);
    const conn = t.orm.em.fork().getConnection();
    const insert = (typeCode: string, source: string | null) =>
      conn.execute('insert into contact_address (uuid, type_code, contact_id, user_address_uuid) values (?, ?, ?, ?)', [
        crypto.randomUUID(),
        typeCode,
        s.contact.contactId,
        source,
      ]);
    await expect(insert('O', s.work.uuid)).rejects.toThrow(/contact_address_source_unique/);
    await expect(insert('W', null)).rejects.toThrow(/contact_address_type_unique/);
  });

  it('when asked through GraphQL, then the same copy semantics', async () => {
    const s = await setup();
    const q =
      'mutation($d: String!, $a: [String!]!) { copyUserAddressesToDirectoryContact(directoryUUID: $d, addressUUIDs: $a) { typeCode type } }';
    const res = await s.gql(q, { d: s.dir.uuid, a: [s.work.uuid] });
    expect(res.body).toEqual({ data: { copyUserAddressesToDirectoryContact: [{ typeCode: 'W', type: 'Work' }] } });
    const again = await s.gql(q, { d: s.dir.uuid, a: [s.work.uuid] });
    expect(again.body.errors![0].extensions).toEqual({ code: 'CONFLICT', errorCode: 'WSAlreadyExistsException', field: 'addressUUIDs' });
  });
});

describe('updateAddressForDirectoryContact (7)', () => {
  it('when fields are sent (postCode spelling, lower-case codes), then the contact address changes and the answer has every field', async () => {
    const s = await setup({ syncUp: false });
    const a = await createContactAddress(t.orm, s.contact.contactId, { typeCode: 'W', city: 'Sydney', phone: '1' });
    const res = await update(
      s.dir.uuid,
      a.uuid,
      { uuid: a.uuid, city: 'Melbourne', stateCode: 'vic', postCode: '3000', phone: null, type: 'echo' },
      s,
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...NULL_ADDRESS,
      uuid: a.uuid,
      typeCode: 'W',
      type: 'Work',
      city: 'Melbourne',
      stateCode: 'VIC',
      state: 'Victoria',
      postcode: '3000',
      countryCode: 'AU',
      country: 'Australia',
    });
  });

  it('when the typeCode changes to a free one, then it is accepted', async () => {
    const s = await setup({ syncUp: false });
    const a = await createContactAddress(t.orm, s.contact.contactId, { typeCode: 'W' });
    const res = await update(s.dir.uuid, a.uuid, { uuid: a.uuid, typeCode: 'O' }, s);
    expect(res.body).toMatchObject({ typeCode: 'O', type: 'Other' });
  });

  it('when asked through GraphQL, then the same', async () => {
    const s = await setup({ syncUp: false });
    const a = await createContactAddress(t.orm, s.contact.contactId);
    const res = await s.gql(
      'mutation($d: String!, $a: String!, $i: AddressInput!) { updateDirectoryContactAddress(directoryUUID: $d, addressUUID: $a, input: $i) { city postcode } }',
      { d: s.dir.uuid, a: a.uuid, i: { uuid: a.uuid, city: 'Perth', postCode: '6000' } },
    );
    expect(res.body).toEqual({ data: { updateDirectoryContactAddress: { city: 'Perth', postcode: '6000' } } });
  });

  it('when name is 255 emoji, then it is stored whole (characters, as the column counts them)', async () => {
    const s = await setup({ syncUp: false });
    const a = await createContactAddress(t.orm, s.contact.contactId);
    const name = '\u{1F3E5}'.repeat(255);
    const res = await update(s.dir.uuid, a.uuid, { uuid: a.uuid, name }, s);
    expect(res).toMatchObject({ status: 200, body: { name } });
    const [row] = await t.sql('select char_length(name) as n from contact_address where uuid = ?', [a.uuid]);
    expect(row.n).toBe(255);
  });
});

describe('every error identifier, in chain order, leaves every row unchanged', () => {
  let before: Awaited<ReturnType<typeof addressTables>>;
  beforeEach(async () => {
    before = await addressTables();
  });
  afterEach(async () => {
    expect(await addressTables()).toEqual(before);
  });

  const err = (status: number, errorCode: string, extra: Record<string, unknown> = {}) => ({
    status,
    body: { errorCode, message: expect.any(String), ...extra },
  });

  it('WSInvalidAuthTokenException: no token (before any other check, even a malformed uuid)', async () => {
    for (const res of [await list('not-a-uuid', t), await copy('not-a-uuid', { addressUUIDs: [] }, t), await update('x', 'y', {}, t)]) {
      expect(res).toMatchObject(err(401, 'WSInvalidAuthTokenException'));
    }
  });

  it('WSInvalidParameterException: a malformed directory uuid, before the directory is looked up', async () => {
    const res = await list('not-a-uuid', olivia);
    expect(res).toMatchObject({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: 'directoryUUID must be a UUID.', field: 'directoryUUID' },
    });
  });

  it.each([
    [{ addressUUIDs: [] }, 'addressUUIDs must be a non-empty array of address uuids.'],
    [{ addressUUIDs: DEMO.addresses.oliviaWork }, 'Invalid value for addressUUIDs.'],
    [{ addressUUIDs: ['nope'] }, 'addressUUIDs must be a UUID.'],
    [{ addressUUIDs: [DEMO.addresses.oliviaWork, DEMO.addresses.oliviaWork.toUpperCase()] }, 'addressUUIDs holds the same uuid twice.'],
    [{ addressUUIDs: [null] }, undefined],
    [{}, undefined],
  ])('WSInvalidParameterException: copy body %p', async (body, message) => {
    const res = await copy(DEMO.directories.staff, body, olivia);
    expect(res).toMatchObject({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: message ?? expect.any(String), field: 'addressUUIDs' },
    });
  });

  it.each([
    [{ typeCode: 'X' }, 'typeCode'],
    [{ countryCode: 'ZZ' }, 'countryCode'],
    [{ stateCode: 'VIC', countryCode: 'NZ' }, 'stateCode'],
    [{ email: 'nope' }, 'email'],
    [{ uuid: 'a0000000-0000-4000-8000-000000009999' }, 'uuid'],
    [{ uuid: null }, 'uuid'],
  ])('WSInvalidParameterException: update body %p, before the directory chain (unknown directory)', async (body, field) => {
    const res = await update(crypto.randomUUID(), DEMO.contactAddresses.staff, { uuid: DEMO.contactAddresses.staff, ...body }, olivia);
    expect(res).toMatchObject({ status: 400, body: { errorCode: 'WSInvalidParameterException', field } });
  });

  it('WSFieldLengthException: a field over its bound (city 101), or a uuid over 50, before the directory chain', async () => {
    const a = DEMO.contactAddresses.staff;
    const city = await update(crypto.randomUUID(), a, { uuid: a, city: 'x'.repeat(101) }, olivia);
    expect(city).toMatchObject({
      status: 400,
      body: { errorCode: 'WSFieldLengthException', message: 'city must be at most 100 characters.', field: 'city' },
    });
    const long = await copy(DEMO.directories.staff, { addressUUIDs: ['x'.repeat(51)] }, olivia);
    expect(long).toMatchObject({ status: 400, body: { errorCode: 'WSFieldLengthException', field: 'addressUUIDs' } });
  });

  it('WSFieldLengthException through GraphQL: name of 256 emoji (characters, not UTF-16 units), before the directory chain', async () => {
    const a = DEMO.contactAddresses.staff;
    const res = await olivia.gql(
      'mutation($d: String!, $a: String!, $i: AddressInput!) { updateDirectoryContactAddress(directoryUUID: $d, addressUUID: $a, input: $i) { uuid } }',
      { d: crypto.randomUUID(), a, i: { uuid: a, name: '\u{1F3E5}'.repeat(256) } },
    );
    expect(res.body.errors![0]).toMatchObject({
      message: 'name must be at most 255 characters.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'name' },
    });
  });

  it('WSLimitExceededException (400): more than 10 addressUUIDs, before the directory chain', async () => {
    const res = await copy(crypto.randomUUID(), { addressUUIDs: Array.from({ length: 11 }, () => crypto.randomUUID()) }, olivia);
    expect(res).toMatchObject({
      status: 400,
      body: { errorCode: 'WSLimitExceededException', message: 'At most 10 addresses can be copied at once.', field: 'addressUUIDs' },
    });
  });

  it('WSSmartDirectoryNotFoundException (404): no directory has the uuid', async () => {
    const unknown = crypto.randomUUID();
    for (const res of [await list(unknown, olivia), await copy(unknown, { addressUUIDs: [DEMO.addresses.oliviaPersonal] }, olivia)]) {
      expect(res).toMatchObject({
        status: 404,
        body: { errorCode: 'WSSmartDirectoryNotFoundException', message: 'No smart directory has this uuid.', field: 'directoryUUID' },
      });
    }
  });

  it('WSSmartDirectoryNotEnabledForCompanyException (403): the company lacks the feature (checked before inactive)', async () => {
    const m = await t.newUser();
    const dir = await createDirectory(t.orm, { enabled: false, active: false, members: [m.uId] });
    await createContact(t.orm, dir.uuid, m.uId);
    expect(await list(dir.uuid, m)).toMatchObject(err(403, 'WSSmartDirectoryNotEnabledForCompanyException'));
  });

  it('WSSmartDirectoryInactiveException (403): the directory is inactive (checked before membership)', async () => {
    const m = await t.newUser();
    const dir = await createDirectory(t.orm, { active: false });
    expect(await list(dir.uuid, m)).toMatchObject(err(403, 'WSSmartDirectoryInactiveException'));
  });

  it("WSUserNotInSmartDirectoryException (403): the caller is not in the directory's team", async () => {
    const s = await setup();
    const outsider = await t.newUser();
    before = await addressTables();
    expect(await list(s.dir.uuid, outsider)).toMatchObject(err(403, 'WSUserNotInSmartDirectoryException'));
    expect(await copy(s.dir.uuid, { addressUUIDs: [s.work.uuid] }, outsider)).toMatchObject(err(403, 'WSUserNotInSmartDirectoryException'));
  });

  it('WSUserContactNotFoundException (404): a team member without a contact record there', async () => {
    const m = await t.newUser();
    const dir = await createDirectory(t.orm, { members: [m.uId] });
    expect(await list(dir.uuid, m)).toMatchObject(err(404, 'WSUserContactNotFoundException'));
  });

  it('WSUserNotConsentedException (403): a required directory consent not given (optional ones do not count)', async () => {
    const m = await t.newUser();
    const dir = await createDirectory(t.orm, { members: [m.uId], consents: [true, false] });
    await createContact(t.orm, dir.uuid, m.uId, { consent: false });
    expect(await list(dir.uuid, m)).toMatchObject(err(403, 'WSUserNotConsentedException'));
    const give = await m.rest('PUT', `/rest/user/econsents/${dir.consentUUIDs[0]}`, { body: { consentGiven: true } });
    expect(give.status).toBe(200);
    expect(await list(dir.uuid, m)).toMatchObject({ status: 200, body: [] });
    await m.rest('PUT', `/rest/user/econsents/${dir.consentUUIDs[0]}`, { body: { consentGiven: false } });
    expect(await list(dir.uuid, m)).toMatchObject(err(403, 'WSUserNotConsentedException'));
  });

  it('WSNoAddressFieldsInDirectoryException (403): the directory shows no address field', async () => {
    const s = await setup({ fieldIds: [3, 4] });
    before = await addressTables();
    expect(await list(s.dir.uuid, s)).toMatchObject(err(403, 'WSNoAddressFieldsInDirectoryException'));
    expect(await copy(s.dir.uuid, { addressUUIDs: [s.work.uuid] }, s)).toMatchObject(err(403, 'WSNoAddressFieldsInDirectoryException'));
  });

  it("WSContactNotFoundException (404): updating an address that is not on the caller's contact record", async () => {
    const s = await setup();
    const other = await setup();
    const theirs = await createContactAddress(t.orm, other.contact.contactId);
    before = await addressTables();
    for (const uuid of [theirs.uuid, crypto.randomUUID()]) {
      const res = await update(s.dir.uuid, uuid, { uuid, city: 'Stolen' }, s);
      expect(res).toMatchObject({
        status: 404,
        body: {
          errorCode: 'WSContactNotFoundException',
          message: 'No address of your contact record in this directory has this uuid.',
          field: 'addressUUID',
        },
      });
    }
  });

  it("WSAddressNotFoundException (404): copying a user address that is not the caller's", async () => {
    const s = await setup();
    const stranger = await createUserAddress(t.orm, (await createUser(t.orm)).uId);
    before = await addressTables();
    const res = await copy(s.dir.uuid, { addressUUIDs: [stranger.uuid] }, s);
    expect(res).toMatchObject({
      status: 404,
      body: {
        errorCode: 'WSAddressNotFoundException',
        message: `No address of the caller has the uuid ${stranger.uuid}.`,
        field: 'addressUUIDs',
      },
    });
  });

  it('WSAlreadyExistsException (409): the user address was already copied here, reported before WSAddressAlreadyFullException', async () => {
    const s = await setup();
    await copy(s.dir.uuid, { addressUUIDs: [s.work.uuid] }, s);
    before = await addressTables();
    // Copying it again would also be a second W address: the earlier rule wins.
    const res = await copy(s.dir.uuid, { addressUUIDs: [s.home.uuid, s.work.uuid] }, s);
    expect(res).toMatchObject({
      status: 409,
      body: {
        errorCode: 'WSAlreadyExistsException',
        message: `The user address ${s.work.uuid} has already been copied to this contact record.`,
        field: 'addressUUIDs',
      },
    });
  });

  it('WSAddressAlreadyFullException (409): a second address of a typeCode the record holds, by copy or by update', async () => {
    const s = await setup();
    const held = await createContactAddress(t.orm, s.contact.contactId, { typeCode: 'W' });
    const other = await createContactAddress(t.orm, s.contact.contactId, { typeCode: 'O' });
    before = await addressTables();
    expect(await copy(s.dir.uuid, { addressUUIDs: [s.work.uuid] }, s)).toMatchObject(
      err(409, 'WSAddressAlreadyFullException', { field: 'typeCode' }),
    );
    expect(await update(s.dir.uuid, other.uuid, { uuid: other.uuid, typeCode: 'W', city: 'X' }, s)).toMatchObject(
      err(409, 'WSAddressAlreadyFullException', { field: 'typeCode' }),
    );
    expect(held.typeCode).toBe('W');
  });

  it('the chain stops at the first failing check: an outsider whose company lacks the feature hears about the feature', async () => {
    const m = await t.newUser();
    const dir: TestDirectory = await createDirectory(t.orm, { enabled: false });
    expect(await list(dir.uuid, m)).toMatchObject(err(403, 'WSSmartDirectoryNotEnabledForCompanyException'));
  });
});
