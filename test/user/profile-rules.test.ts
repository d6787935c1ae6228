// The rules declared on UpdateUserProfileInput (src/modules/user/profile.inputs.ts): each kind
// refuses through GraphQL before anything is written, lengths count characters as PostgreSQL
// does, and the schema's descriptions state them. REST runs the same document (profile.test.ts).
import { expectUnchangedAfterEach, useTestApp, type NewUser } from '../kit';

const t = useTestApp();

const UPDATE = 'mutation($i: UpdateUserProfileInput!) { updateUserProfile(input: $i) { updatedFieldCount } }';
const EMOJI = '\u{1F600}';

describe('maxLength counts characters (code points), as the varchar column does', () => {
  it('when uFirstName is 100 emoji, then it is stored whole; 101 emoji is WSFieldLengthException naming uFirstName', async () => {
    const u = await t.newUser();
    const ok = await u.gql(UPDATE, { i: { uId: u.uId, uFirstName: EMOJI.repeat(100) } });
    expect(ok.body).toEqual({ data: { updateUserProfile: { updatedFieldCount: 1 } } });
    expect(await t.sql('select first_name, char_length(first_name) as n from app_user where u_id = ?', [u.uId])).toEqual([
      { first_name: EMOJI.repeat(100), n: 100 },
    ]);

    const long = await u.gql(UPDATE, { i: { uId: u.uId, uFirstName: EMOJI.repeat(101) } });
    expect(long.body.errors![0]).toMatchObject({
      message: 'uFirstName must be at most 100 characters.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSFieldLengthException', field: 'uFirstName' },
    });
    expect((await t.row('app_user', { u_id: u.uId })).first_name).toBe(EMOJI.repeat(100));
  });

  it('when uFirstName is 101 emoji through REST, then 400 WSFieldLengthException naming uFirstName', async () => {
    const u = await t.newUser();
    const res = await u.rest('PUT', '/rest/user/profile', { body: { uId: u.uId, uFirstName: EMOJI.repeat(101) } });
    expect(res).toMatchObject({
      status: 400,
      body: { errorCode: 'WSFieldLengthException', message: 'uFirstName must be at most 100 characters.', field: 'uFirstName' },
    });
  });
});

describe('each rule kind, through GraphQL, changes nothing', () => {
  let u: NewUser;
  beforeAll(async () => {
    u = await t.newUser({ firstName: 'Keep' });
  });
  expectUnchangedAfterEach(() => t.row('app_user', { u_id: u.uId }));

  it.each([
    ['a code list', 'uServiceTsAndCs', 'y', 'WSInvalidParameterException', 'uServiceTsAndCs must be one of Y, N.'],
    ['a least value', 'uTitleId', 0, 'WSInvalidParameterException', 'uTitleId must be at least 1.'],
    ['a least value', 'uProfessionId', -5, 'WSInvalidParameterException', 'uProfessionId must be at least 1.'],
    ['a pattern', 'uGenderCode', 'FF', 'WSInvalidParameterException', 'uGenderCode must be a single-letter gender code.'],
    ['a pattern', 'uEmail', 'not-an-email', 'WSInvalidParameterException', 'uEmail must be an e-mail address.'],
    ['a pattern', 'uCountryCode', 'AUS', 'WSInvalidParameterException', 'uCountryCode must be an ISO 3166-1 alpha-2 country code.'],
    ['the reference list', 'uCountryCode', 'ZZ', 'WSInvalidParameterException', 'uCountryCode must be an ISO 3166-1 alpha-2 country code.'],
    ['a pattern', 'uDateOfBirth', '12/04/1988', 'WSInvalidParameterException', 'uDateOfBirth must be a date in the form YYYY-MM-DD.'],
    ['the calendar', 'uDateOfBirth', '2023-02-29', 'WSInvalidParameterException', 'uDateOfBirth must be a date in the form YYYY-MM-DD.'],
    ['a pattern', 'uTimezoneId', '+05:00', 'WSInvalidParameterException', 'uTimezoneId must be an IANA time zone id.'],
    ['the zone list', 'uTimezoneId', 'Mars/Olympus', 'WSInvalidParameterException', 'uTimezoneId must be an IANA time zone id.'],
    ['a length', 'uTimezoneId', `A/${'b'.repeat(63)}`, 'WSFieldLengthException', 'uTimezoneId must be at most 64 characters.'],
    ['a length', 'uEmail', `${'a'.repeat(250)}@x.example`, 'WSFieldLengthException', 'uEmail must be at most 255 characters.'],
  ])('when a value breaks %s (%s = %p), then %s names it', async (_kind, field, value, code, message) => {
    const res = await u.gql(UPDATE, { i: { uId: u.uId, uFirstName: 'Changed', [field]: value } });
    expect(res.body.data).toBeNull();
    expect(res.body.errors![0]).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT', errorCode: code, field } });
  });

  it('when uEmail is blank, then WSInvalidParameterException names uEmail (the column always holds an address)', async () => {
    for (const uEmail of ['', '   ']) {
      const res = await u.gql(UPDATE, { i: { uId: u.uId, uEmail } });
      expect(res.body.errors![0]).toMatchObject({
        extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'uEmail' },
      });
    }
  });
});

describe('the schema states the rules', () => {
  it('describes each ruled input field with its rules', async () => {
    const res = await t.gql('{ __type(name: "UpdateUserProfileInput") { inputFields { name description } } }');
    const d = Object.fromEntries(res.body.data.__type.inputFields.map((f: any) => [f.name, f.description]));
    expect(d.uFirstName).toBe('First name. (at most 100 characters.)');
    expect(d.uInterests).toBe('Interests. (at most 2000 characters.)');
    expect(d.uTitleId).toBe('Title id (titles reference list). (at least 1.)');
    expect(d.uServiceTsAndCs).toBe('Service terms and conditions accepted. (one of Y, N.)');
    expect(d.uTimezoneId).toBe('IANA time zone id, e.g. Australia/Sydney. (at most 64 characters.)');
    expect(d.uTitle).toBe('Read-only: ignored (the title name comes from uTitleId).');
  });
});
