// The rules declared on AddressInput (src/modules/address/address.inputs.ts): each kind refuses
// through GraphQL before the resolver body runs, counts characters as PostgreSQL does, and is
// stated in the schema's descriptions. REST runs the same documents (user-addresses.test.ts).
import { anUnchangedAddress, useTestApp } from '../kit';

const t = useTestApp();

const CREATE = 'mutation($i: AddressInput!) { createUserAddress(input: $i) { uuid name } }';
const UPDATE = 'mutation($u: String!, $i: AddressInput!) { updateUserAddress(addressUUID: $u, input: $i) { uuid name email countryCode } }';
const addressCount = (uId: number) => t.countRows('user_address', { user_id: uId });

// One emoji is one character for PostgreSQL and two UTF-16 units for JavaScript.
const EMOJI = '\u{1F3E0}';

describe('maxLength counts characters (code points), as the varchar column does', () => {
  it('when name is 255 emoji, then it is stored whole; 256 emoji is WSFieldLengthException naming name, nothing stored', async () => {
    const u = await t.newUser();
    const ok = await u.gql(CREATE, { i: { typeCode: 'W', name: EMOJI.repeat(255) } });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.createUserAddress.name).toBe(EMOJI.repeat(255));
    const [row] = await t.sql('select char_length(name) as n from user_address where uuid = ?', [ok.body.data.createUserAddress.uuid]);
    expect(row.n).toBe(255);

    const long = await u.gql(CREATE, { i: { typeCode: 'W', name: EMOJI.repeat(256) } });
    expect(long.body.errors![0]).toMatchObject({
      message: 'name must be at most 255 characters.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'name' },
    });
    expect(await addressCount(u.uId)).toBe(1);
  });

  it('when name is 256 emoji through REST, then 400 WSFieldLengthException naming name', async () => {
    const u = await t.newUser();
    const res = await u.rest('POST', '/rest/user/addresses', { body: { typeCode: 'W', name: EMOJI.repeat(256) } });
    expect(res).toMatchObject({
      status: 400,
      body: { errorCode: 'WSFieldLengthException', message: 'name must be at most 255 characters.', field: 'name' },
    });
    expect(await addressCount(u.uId)).toBe(0);
  });
});

describe('each rule kind, through GraphQL, leaves the address unchanged', () => {
  const address = anUnchangedAddress(t);

  it.each([
    ['a code list (typeCode)', { typeCode: 'X' }, 'WSInvalidParameterException', 'typeCode', 'typeCode must be one of W, P, O.'],
    [
      'a length before the code list (typeCode)',
      { typeCode: 'WP' },
      'WSFieldLengthException',
      'typeCode',
      'typeCode must be at most 1 characters.',
    ],
    ['a pattern (email)', { email: 'nope' }, 'WSInvalidParameterException', 'email', 'email must be an e-mail address.'],
    [
      'a pattern (countryCode form)',
      { countryCode: '1A' },
      'WSInvalidParameterException',
      'countryCode',
      'countryCode must be an ISO 3166-1 alpha-2 country code.',
    ],
    [
      'the reference list (countryCode assigned)',
      { countryCode: 'ZZ' },
      'WSInvalidParameterException',
      'countryCode',
      'countryCode must be an ISO 3166-1 alpha-2 country code.',
    ],
    [
      'a pattern (stateCode form)',
      { stateCode: 'AB-C' },
      'WSInvalidParameterException',
      'stateCode',
      'stateCode must be an ISO 3166-2 subdivision code.',
    ],
    ['a pattern (uuid)', { uuid: 'not-a-uuid' }, 'WSInvalidParameterException', 'uuid', 'uuid must be a UUID.'],
    ['a length (uuid, 50)', { uuid: 'x'.repeat(51) }, 'WSFieldLengthException', 'uuid', 'uuid must be at most 50 characters.'],
    [
      'a length (postCode spelling, 20)',
      { postCode: '1'.repeat(21) },
      'WSFieldLengthException',
      'postCode',
      'postCode must be at most 20 characters.',
    ],
  ])('when the input breaks %s, then %s names %s', async (_kind, fields, code, field, message) => {
    const res = await address.user.gql(UPDATE, { u: address.uuid, i: { uuid: address.uuid, name: 'Changed', ...fields } });
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors![0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT', errorCode: code, field } });
  });

  it("when the path uuid is over 50, then WSFieldLengthException names addressUUID (the body uuid's rule)", async () => {
    const res = await address.user.gql('mutation($u: String!) { deleteUserAddress(addressUUID: $u) }', { u: 'x'.repeat(51) });
    expect(res.body.errors![0]).toMatchObject({
      message: 'addressUUID must be at most 50 characters.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'addressUUID' },
    });
  });
});

describe('the schema states the rules', () => {
  it('describes each input field with its rules, and the Address type with the same bounds', async () => {
    const res = await t.gql(`{
      input: __type(name: "AddressInput") { inputFields { name description } }
      output: __type(name: "Address") { fields { name description } }
    }`);
    const input = Object.fromEntries(res.body.data.input.inputFields.map((f: any) => [f.name, f.description]));
    const output = Object.fromEntries(res.body.data.output.fields.map((f: any) => [f.name, f.description]));
    expect(input.name).toBe('Name of the address. (at most 255 characters.)');
    expect(input.typeCode).toBe('Work, Personal or Other, by its initial; required on create. (at most 1 characters; one of W, P, O.)');
    expect(input.city).toMatch(/\(at most 100 characters\.\)$/);
    expect(input.type).toBe('Ignored (derived from typeCode).');
    expect(output.name).toBe('Name of the address. (at most 255 characters.)');
    expect(output.jobTitle).toBe('Job title. (at most 50 characters.)');
    expect(output.typeCode).toBe('W (Work), P (Personal), O (Other).');
  });
});
