import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { expectUnchangedAfterEach, OLIVIA, useTestApp, type Client, type NewUser } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);

// Each test changes its own row: t.newUser() is a fresh user, signed in.
const put = (who: Client, body: unknown) => who.rest('PUT', '/rest/user/profile', { body });

describe('findUserProfile (GET /rest/user/profile)', () => {
  it('when Olivia asks, then her whole profile comes back, names from reference data, nulls included', async () => {
    const res = await olivia.rest('GET', '/rest/user/profile');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      uId: OLIVIA,
      uTitleId: 6,
      uTitle: 'Dr',
      uGenderCode: 'F',
      uGenderName: 'Female',
      uFirstName: 'Olivia',
      uLastName: 'Nguyen',
      uEmail: 'olivia@demo.example',
      uCountryCode: 'AU',
      uCountryName: 'Australia',
      uPrimaryMobile: '+61 400 000 201',
      uInterests: 'Cardiac rehabilitation, trail running',
      uDietaryRequirements: null,
      uTreatmentNotes: null,
      uDateOfBirth: '1988-04-12',
      uCreationDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      uPhoto: null,
      uEnableLocation: false,
      uEnableNotifications: true,
      uAllowAllEmails: false,
      uAllowNewsletterEmail: true,
      uProfessionId: 101,
      uProfessionName: 'Doctor',
      uSpecialtyId: 201,
      uSpecialtyName: 'Cardiology',
      uConditionId: null,
      uConditionName: null,
      uOtherTitle: null,
      uOtherProfession: null,
      uOtherSpecialty: null,
      uSocialNetworkAId: null,
      uSocialNetworkBId: null,
      uSocialNetworkCId: null,
      uSocialNetworkCUrl: null,
      uTimezoneId: 'Australia/Sydney',
      uTimezoneName: 'Australian Eastern Standard Time',
      uServiceTsAndCs: 'Y',
      uServiceTrackingConsent: 'N',
      uCloudStorageConsent: 'Y',
      uSearchProviderConsent: null,
      uSocialNetworkAConsent: null,
    });
    expect(Object.keys(res.body)).toHaveLength(41);
  });

  it('when the token is missing or unknown, then 401 WSInvalidAuthTokenException', async () => {
    for (const who of [t, t.as('not-a-token')]) {
      const res = await who.rest('GET', '/rest/user/profile');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' });
    }
  });

  it('when asked through GraphQL, then the same profile comes back', async () => {
    const res = await olivia.gql('{ userProfile { uId uEmail uTitle uCountryName uSpecialtyName } }');
    expect(res.body).toEqual({
      data: {
        userProfile: { uId: OLIVIA, uEmail: 'olivia@demo.example', uTitle: 'Dr', uCountryName: 'Australia', uSpecialtyName: 'Cardiology' },
      },
    });
  });
});

describe('updateUserProfile (PUT /rest/user/profile): diff semantics', () => {
  it('when a client sends back the profile it read, then nothing changes and updatedFieldCount is 0', async () => {
    const before = await t.row('app_user', { u_id: OLIVIA });
    const read = await olivia.rest('GET', '/rest/user/profile');
    const res = await put(olivia, read.body);
    expect(res).toMatchObject({ status: 200, body: { updatedFieldCount: 0 } });
    expect(await t.row('app_user', { u_id: OLIVIA })).toEqual(before);
  });

  it('when a client sends a profile missing filled fields (or with them null), then it loses nothing', async () => {
    const u = await t.newUser({ firstName: 'Ana', lastName: 'Silva', interests: 'Chess', countryCode: 'PT', primaryMobile: '+351 900' });
    const res = await put(u, { uId: u.uId, uFirstName: 'Ana', uLastName: null, uInterests: 'Chess and go' });
    expect(res).toMatchObject({ status: 200, body: { updatedFieldCount: 1 } });
    const row = await t.row('app_user', { u_id: u.uId });
    expect(row).toMatchObject({
      first_name: 'Ana',
      last_name: 'Silva',
      interests: 'Chess and go',
      country_code: 'PT',
      primary_mobile: '+351 900',
    });
  });

  it('when fieldsToNull names fields, then exactly those become null and only real changes are counted', async () => {
    const u = await t.newUser({ interests: 'Chess', dietaryRequirements: 'Vegan', treatmentNotes: null, countryCode: 'AU' });
    const res = await put(u, {
      uId: u.uId,
      fieldsToNull: ['uInterests', 'uTreatmentNotes', 'uCountryCode'],
      uFirstName: 'Renamed',
      uEnableLocation: true,
    });
    // uTreatmentNotes was already null: not a change.
    expect(res).toMatchObject({ status: 200, body: { updatedFieldCount: 4 } });
    const row = await t.row('app_user', { u_id: u.uId });
    expect(row).toMatchObject({
      interests: null,
      treatment_notes: null,
      country_code: null,
      dietary_requirements: 'Vegan',
      first_name: 'Renamed',
      enable_location: true,
      last_name: 'User',
    });
  });

  it('when values equal the stored ones (after normalisation), then they are not counted', async () => {
    const u = await t.newUser({ countryCode: 'AU', genderCode: 'F', firstName: 'Test' });
    const res = await put(u, { uId: u.uId, uCountryCode: 'au', uGenderCode: 'f', uFirstName: 'Test', uEnableNotifications: true });
    expect(res.body).toEqual({ updatedFieldCount: 0 });
  });

  it('when every writable field is set, then each is stored and counted once', async () => {
    const u = await t.newUser();
    const body = {
      uId: u.uId,
      uTitleId: 6,
      uGenderCode: 'X',
      uFirstName: 'Kim',
      uLastName: 'Lee',
      uEmail: `kim-${u.uId}@test.example`,
      uCountryCode: 'nz',
      uPrimaryMobile: '+64 21 000',
      uInterests: 'Sailing',
      uDietaryRequirements: 'None',
      uTreatmentNotes: 'n/a',
      uDateOfBirth: '1990-02-28',
      uPhoto: 'https://cdn.example/p.png',
      uEnableLocation: true,
      uEnableNotifications: false,
      uAllowAllEmails: true,
      uAllowNewsletterEmail: true,
      uProfessionId: 102,
      uSpecialtyId: 204,
      uConditionId: 301,
      uOtherTitle: 'Sir',
      uOtherProfession: 'Midwife',
      uOtherSpecialty: 'Neonatal',
      uSocialNetworkAId: 'a',
      uSocialNetworkBId: 'b',
      uSocialNetworkCId: 'c',
      uSocialNetworkCUrl: 'https://c.example/kim',
      uTimezoneId: 'Pacific/Auckland',
      uServiceTsAndCs: 'Y',
      uServiceTrackingConsent: 'N',
      uCloudStorageConsent: 'Y',
      uSearchProviderConsent: 'N',
      uSocialNetworkAConsent: 'Y',
      // Read-only fields are accepted and ignored.
      uTitle: 'Ignored',
      uCountryName: 'Ignored',
      uCreationDate: '2000-01-01',
      uTimezoneName: 'Ignored',
    };
    const res = await put(u, body);
    expect(res).toMatchObject({ status: 200, body: { updatedFieldCount: 32 } });
    const read = await u.rest('GET', '/rest/user/profile');
    expect(read.body).toMatchObject({
      uTitle: 'Dr',
      uGenderName: 'Non-binary',
      uCountryCode: 'NZ',
      uCountryName: 'New Zealand',
      uProfessionName: 'Nurse',
      uSpecialtyName: 'Intensive care',
      uConditionName: 'Asthma',
      uTimezoneName: 'New Zealand Standard Time',
      uDateOfBirth: '1990-02-28',
      uCreationDate: expect.not.stringMatching(/^2000/),
    });
    expect((await put(u, body)).body).toEqual({ updatedFieldCount: 0 });
  });

  it('when the e-mail changes only in case, then it is a change of this user, not a clash', async () => {
    const u = await t.newUser({ email: `Case-${Date.now()}@test.example` });
    const row = await t.row('app_user', { u_id: u.uId });
    const res = await put(u, { uId: u.uId, uEmail: row.email.toLowerCase() });
    expect(res.body).toEqual({ updatedFieldCount: 1 });
  });

  it('when two updates of different fields run concurrently, then both survive', async () => {
    const u = await t.newUser({ firstName: 'A', lastName: 'B' });
    for (let i = 0; i < 5; i++) {
      const [r1, r2] = await Promise.all([
        put(u, { uId: u.uId, uFirstName: `First${i}` }),
        put(u, { uId: u.uId, uInterests: `Interest${i}` }),
      ]);
      expect([r1.status, r2.status]).toEqual([200, 200]);
      expect([r1.body, r2.body]).toEqual([{ updatedFieldCount: 1 }, { updatedFieldCount: 1 }]);
      expect(await t.row('app_user', { u_id: u.uId })).toMatchObject({ first_name: `First${i}`, interests: `Interest${i}` });
    }
  });

  it('when two concurrent updates set the same field to the same value, then exactly one counts it', async () => {
    const u = await t.newUser({ lastName: 'Old' });
    const results = await Promise.all([put(u, { uId: u.uId, uLastName: 'New' }), put(u, { uId: u.uId, uLastName: 'New' })]);
    expect(results.map((r) => r.body.updatedFieldCount).sort()).toEqual([0, 1]);
  });

  it('when asked through GraphQL, then the mutation answers the count', async () => {
    const u = await t.newUser();
    const res = await u.gql('mutation($i: UpdateUserProfileInput!) { updateUserProfile(input: $i) { updatedFieldCount } }', {
      i: { uId: u.uId, uLastName: 'Gql', fieldsToNull: ['uFirstName'] },
    });
    expect(res.body).toEqual({ data: { updateUserProfile: { updatedFieldCount: 2 } } });
    expect(await t.row('app_user', { u_id: u.uId })).toMatchObject({ first_name: null, last_name: 'Gql' });
  });
});

describe('updateUserProfile: rejected requests change nothing', () => {
  let u: NewUser;
  beforeAll(async () => {
    u = await t.newUser({ firstName: 'Keep', countryCode: 'AU', professionId: 101, specialtyId: 201 });
  });
  expectUnchangedAfterEach(() => t.row('app_user', { u_id: u.uId }));

  const expectError = async (body: Record<string, unknown>, status: number, errorCode: string, field?: string, message?: string) => {
    const res = await put(u, { uId: u.uId, uFirstName: 'Changed', ...body });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ errorCode, message: message ?? expect.any(String), ...(field ? { field } : {}) });
  };

  it('when uId is another user, then 403 WSInsufficientPrivilegesException', async () => {
    await expectError({ uId: OLIVIA }, 403, 'WSInsufficientPrivilegesException', 'uId', 'uId must be the id of the calling user.');
  });

  it('when uId is missing or not an integer, then WSInvalidParameterException names uId', async () => {
    for (const body of [{ uFirstName: 'x' }, { uId: 'abc' }]) {
      const res = await put(u, body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'uId' });
    }
  });

  it('when there is no token, then 401', async () => {
    const res = await put(t, { uId: u.uId, uFirstName: 'x' });
    expect(res.status).toBe(401);
  });

  const bounds: [string, number][] = [
    ['uFirstName', 100],
    ['uLastName', 100],
    ['uPrimaryMobile', 30],
    ['uInterests', 2000],
    ['uDietaryRequirements', 2000],
    ['uTreatmentNotes', 2000],
    ['uPhoto', 1024],
    ['uOtherTitle', 100],
    ['uOtherProfession', 100],
    ['uOtherSpecialty', 100],
    ['uSocialNetworkAId', 255],
    ['uSocialNetworkBId', 255],
    ['uSocialNetworkCId', 255],
    ['uSocialNetworkCUrl', 1024],
  ];
  it.each(bounds)('when %s is longer than %i, then WSFieldLengthException names it; at the bound it is accepted', async (field, max) => {
    await expectError(
      { [field]: 'x'.repeat(max + 1) },
      400,
      'WSFieldLengthException',
      field,
      `${field} must be at most ${max} characters.`,
    );
    const ok = await t.newUser();
    const res = await put(ok, { uId: ok.uId, [field]: 'x'.repeat(max) });
    expect(res.body).toEqual({ updatedFieldCount: 1 });
  });

  it('when uEmail is longer than 255, then WSFieldLengthException', async () => {
    await expectError({ uEmail: `${'a'.repeat(250)}@x.example` }, 400, 'WSFieldLengthException', 'uEmail');
  });

  it.each([
    ['uDateOfBirth', '2023-02-30', 'uDateOfBirth must be a date in the form YYYY-MM-DD.'],
    ['uDateOfBirth', '1990-2-3', 'uDateOfBirth must be a date in the form YYYY-MM-DD.'],
    ['uDateOfBirth', '3000-01-01', 'uDateOfBirth cannot be in the future.'],
    ['uServiceTsAndCs', 'Yes', 'uServiceTsAndCs must be one of Y, N.'],
    ['uSocialNetworkAConsent', 'y', 'uSocialNetworkAConsent must be one of Y, N.'],
    ['uCountryCode', 'ZZ', 'uCountryCode must be an ISO 3166-1 alpha-2 country code.'],
    ['uCountryCode', 'AUS', 'uCountryCode must be an ISO 3166-1 alpha-2 country code.'],
    ['uTimezoneId', 'Mars/Olympus', 'uTimezoneId must be an IANA time zone id.'],
    ['uTimezoneId', '+05:00', 'uTimezoneId must be an IANA time zone id.'],
    ['uEmail', 'not-an-email', 'uEmail must be an e-mail address.'],
    ['uGenderCode', 'Z', 'uGenderCode does not name an entry of the gender list.'],
    ['uGenderCode', 'FF', 'uGenderCode must be a single-letter gender code.'],
    ['uTitleId', 999, 'uTitleId does not name an entry of the title list.'],
    ['uProfessionId', 999, 'uProfessionId does not name an entry of the profession list.'],
    ['uSpecialtyId', 999, 'uSpecialtyId does not name an entry of the specialty list.'],
    ['uConditionId', 999, 'uConditionId does not name an entry of the condition list.'],
    ['uConditionId', 0, 'uConditionId must be at least 1.'],
    ['uSpecialtyId', 204, 'uSpecialtyId does not belong to the profession.'],
  ])('when %s is %p, then WSInvalidParameterException names it', async (field, value, message) => {
    await expectError({ [field]: value }, 400, 'WSInvalidParameterException', field, message);
  });

  it('when a specialty is given with a profession it does not belong to, then WSInvalidParameterException', async () => {
    await expectError({ uProfessionId: 103, uSpecialtyId: 201 }, 400, 'WSInvalidParameterException', 'uSpecialtyId');
  });

  it.each([
    // "true" for a boolean and 42 for text are decoded as the legacy service did (test/foundation/legacy-decoding.test.ts).
    ['uEnableLocation', 'yes'],
    ['uAllowAllEmails', 1],
    ['uTitleId', 'six'],
    ['uFirstName', { text: 'Olivia' }],
  ])('when %s has the wrong type (%p), then WSInvalidParameterException names it', async (field, value) => {
    await expectError({ [field]: value }, 400, 'WSInvalidParameterException', field);
  });

  it('when a field is not a profile field, then it is ignored, as the legacy service ignored it', async () => {
    const res = await put(u, { uId: u.uId, uShoeSize: 42 });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { updatedFieldCount: 0 } });
  });

  it('when uEmail is already used by another user (any case), then WSInvalidParameterException names uEmail', async () => {
    await expectError(
      { uEmail: 'OLIVIA@demo.example' },
      400,
      'WSInvalidParameterException',
      'uEmail',
      'uEmail is already used by another user.',
    );
  });

  it.each([
    [['uShoeSize'], 'fieldsToNull: uShoeSize is not a profile field.'],
    [['uCountryName'], 'fieldsToNull: uCountryName is read-only.'],
    [['uId'], 'fieldsToNull: uId is read-only.'],
    [['uEmail'], 'fieldsToNull: uEmail cannot be null.'],
    [['uEnableLocation'], 'fieldsToNull: uEnableLocation cannot be null.'],
  ])('when fieldsToNull is %p, then WSInvalidParameterException names fieldsToNull', async (names, message) => {
    await expectError({ fieldsToNull: names }, 400, 'WSInvalidParameterException', 'fieldsToNull', message);
  });

  it('when a field has a value and is named in fieldsToNull, then WSInvalidParameterException names it', async () => {
    await expectError(
      { fieldsToNull: ['uInterests'], uInterests: 'x' },
      400,
      'WSInvalidParameterException',
      'uInterests',
      'uInterests has a value and is also named in fieldsToNull.',
    );
  });

  it('when fieldsToNull is not an array of strings, then WSInvalidParameterException', async () => {
    await expectError({ fieldsToNull: [1, 2] }, 400, 'WSInvalidParameterException', 'fieldsToNull');
  });

  it('when asked through GraphQL with a bad value, then the same code and field', async () => {
    const res = await u.gql('mutation($i: UpdateUserProfileInput!) { updateUserProfile(input: $i) { updatedFieldCount } }', {
      i: { uId: u.uId, uFirstName: 'x', uCountryCode: 'ZZ' },
    });
    expect(res.body.errors![0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 'WSInvalidParameterException',
      field: 'uCountryCode',
    });
  });
});

describe('profile change hooks', () => {
  it('when a profile changes, then every hook runs in the transaction with the changed field names', async () => {
    const u = await t.newUser({ countryCode: 'AU' });
    const calls: [number, string[], string | null][] = [];
    // Added beside the modules' own profileChanged handlers (the connection re-check).
    const off = t.app.services.hooks.add('profileChanged', async ({ em, userId, changedFields }) => {
      // The hook sees the new value: it runs after the write, inside the same transaction.
      const [row] = await (em as SqlEntityManager).execute('select country_code from app_user where u_id = ?', [userId]);
      calls.push([userId, changedFields, row.country_code]);
    });
    try {
      await put(u, { uId: u.uId, uCountryCode: 'NZ', uFirstName: 'Test' });
      await put(u, { uId: u.uId, uCountryCode: 'NZ' });
    } finally {
      off();
    }
    expect(calls).toEqual([[u.uId, ['uCountryCode'], 'NZ']]);
  });

  it('when a hook throws, then the update is rolled back', async () => {
    const u = await t.newUser({ countryCode: 'AU' });
    const off = t.app.services.hooks.add('profileChanged', async () => {
      throw new Error('boom');
    });
    try {
      const res = await put(u, { uId: u.uId, uCountryCode: 'NZ' });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ errorCode: 'WSInternalException', message: 'An internal error occurred.' });
    } finally {
      off();
    }
    expect((await t.row('app_user', { u_id: u.uId })).country_code).toBe('AU');
  });
});

describe('titles and genders', () => {
  it('lists the reference lists a profile refers to', async () => {
    const titles = await t.rest('GET', '/rest/refdata/titles');
    expect(titles.status).toBe(200);
    expect(titles.body).toContainEqual({ titleId: 6, titleName: 'Dr' });
    expect(titles.body).toHaveLength(8);
    const genders = await t.rest('GET', '/rest/refdata/genders');
    expect(genders.body.map((g: any) => g.genderCode).sort()).toEqual(['F', 'M', 'O', 'U', 'X']);
    expect(await t.sql('select count(*)::int as n from gender')).toEqual([{ n: 5 }]);
  });
});
