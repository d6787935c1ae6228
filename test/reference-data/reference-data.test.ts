import crypto from 'node:crypto';
import { useTestApp } from '../kit';

const t = useTestApp();

/** WSInvalidParameterException naming `field`, as REST answers it. */
const invalid = (field: string, message: string) => ({ errorCode: 'WSInvalidParameterException', message, field });
/** The specification's timezone (REST). */
const SYDNEY = {
  timezoneId: 'Australia/Sydney',
  timezoneName: 'Australian Eastern Standard Time',
  timezoneDSTName: 'Australian Eastern Daylight Time',
  dstOffsetHours: 1,
  offsetHours: 10,
};
/** GraphQL's timezone adds the minutes, for zones off the whole hour. */
const SYDNEY_GRAPHQL = { ...SYDNEY, offsetMinutes: 600, dstOffsetMinutes: 60 };

describe('getAllTimezones (GET /rest/refdata/timezones)', () => {
  it("when the country code is lower case, then it answers that country's zones with the Sydney row", async () => {
    const res = await t.rest('GET', '/rest/refdata/timezones?countryCode=au');
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual(SYDNEY);
    expect(res.body.map((z: any) => z.timezoneId)).toEqual(
      expect.arrayContaining(['Australia/Perth', 'Australia/Adelaide', 'Australia/Brisbane']),
    );
    // Exactly the specification's five properties: a strict client refuses one it does not know.
    expect(res.body.every((z: any) => Object.keys(z).join() === 'timezoneId,timezoneName,timezoneDSTName,dstOffsetHours,offsetHours')).toBe(
      true,
    );
  });

  it('when no country is given, then every IANA zone is listed, zones off the hour in whole hours', async () => {
    const res = await t.rest('GET', '/rest/refdata/timezones');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(300);
    expect(res.body).toContainEqual({
      timezoneId: 'Asia/Kolkata',
      timezoneName: 'India Standard Time',
      timezoneDSTName: 'India Standard Time',
      dstOffsetHours: 0,
      offsetHours: 5,
    });
    expect(res.body.find((z: any) => z.timezoneId === 'Australia/Lord_Howe')).toEqual({
      timezoneId: 'Australia/Lord_Howe',
      timezoneName: expect.any(String),
      timezoneDSTName: expect.any(String),
      dstOffsetHours: 0,
      offsetHours: 10,
    });
  });

  it('when asked through GraphQL, then zones off the hour carry their minutes', async () => {
    const res = await t.gql(`{ timezones { timezoneId offsetMinutes dstOffsetMinutes } }`);
    expect(res.body.data!.timezones).toContainEqual({ timezoneId: 'Asia/Kolkata', offsetMinutes: 330, dstOffsetMinutes: 0 });
    expect(res.body.data!.timezones).toContainEqual({ timezoneId: 'Australia/Lord_Howe', offsetMinutes: 630, dstOffsetMinutes: 30 });
  });

  it('when the country code is well-formed but unknown, then the list is empty', async () => {
    const res = await t.rest('GET', '/rest/refdata/timezones?countryCode=ZZ');
    expect(res).toMatchObject({ status: 200, body: [] });
  });

  it.each(['aus', 'a', '12', 'a1'])('when the country code is %p, then WSInvalidParameterException names countryCode', async (code) => {
    const res = await t.rest('GET', `/rest/refdata/timezones?countryCode=${code}`);
    expect([res.status, res.body]).toEqual([400, invalid('countryCode', 'countryCode must be a two-letter ISO 3166-1 code.')]);
  });

  it('when the same list is asked again with its ETag, then the answer is 304 without a body', async () => {
    const first = await t.rest('GET', '/rest/refdata/timezones?countryCode=NZ');
    const etag = first.headers.get('etag')!;
    // The tag is the digest of the very bytes sent, which are JSON.
    expect(etag).toBe(`"${crypto.createHash('sha256').update(first.text).digest('base64url').slice(0, 27)}"`);
    expect(first.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(first.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(JSON.parse(first.text)).toEqual(first.body);
    const again = await t.rest('GET', '/rest/refdata/timezones?countryCode=NZ', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await t.rest('GET', '/rest/refdata/timezones?countryCode=AU', { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
  });

  it('when asked through GraphQL, then the same rows come back, with the minutes', async () => {
    const res = await t.gql(
      `{ timezones(countryCode: "au") { timezoneId timezoneName timezoneDSTName dstOffsetHours offsetHours offsetMinutes dstOffsetMinutes } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.data!.timezones).toContainEqual(SYDNEY_GRAPHQL);
    const bad = await t.gql(`{ timezones(countryCode: "aus") { timezoneId } }`);
    const badInput = { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'countryCode' };
    expect(bad.body.errors![0].extensions).toEqual(badInput);
  });
});

describe('getConditions and version', () => {
  it('lists conditions with id and name, ordered by name', async () => {
    const res = await t.rest('GET', '/rest/refdata/conditions');
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({ conditionId: 301, conditionName: 'Asthma' });
    expect(res.body).toHaveLength(8);
    const names = res.body.map((c: any) => c.conditionName);
    expect([...names].sort((a: string, b: string) => a.localeCompare(b))).toEqual(names);
  });

  it('answers the data version', async () => {
    const res = await t.rest('GET', '/rest/refdata/conditions/version');
    expect(res).toMatchObject({ status: 200, body: { version: 1 } });
  });

  it('when the list is asked again with its ETag, then 304 after one statement; a changed list has another ETag', async () => {
    const first = await t.rest('GET', '/rest/refdata/conditions');
    const etag = first.headers.get('etag')!;
    let again: any;
    const statements = await t.countStatements(async () => {
      again = await t.rest('GET', '/rest/refdata/conditions', { headers: { 'if-none-match': etag } });
    });
    expect(again.status).toBe(304);
    expect(statements).toBe(1);
    await t.sql(`insert into condition (condition_id, condition_name) values (399, 'Zz test condition')`);
    try {
      const changed = await t.rest('GET', '/rest/refdata/conditions', { headers: { 'if-none-match': etag } });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect(changed.body).toEqual([...first.body, { conditionId: 399, conditionName: 'Zz test condition' }]);
    } finally {
      await t.sql('delete from condition where condition_id = 399');
    }
  });

  it('when the version counter moves, then the data version follows it; with no counter row it is 1', async () => {
    const [stored] = await t.sql(`select version from reference_data_version where name = 'conditions'`);
    await t.sql(`update reference_data_version set version = 7 where name = 'conditions'`);
    try {
      expect((await t.rest('GET', '/rest/refdata/conditions/version')).body).toEqual({ version: 7 });
      await t.sql(`delete from reference_data_version where name = 'conditions'`);
      expect((await t.rest('GET', '/rest/refdata/conditions/version')).body).toEqual({ version: 1 });
    } finally {
      await t.sql(
        `insert into reference_data_version (name, version) values ('conditions', ?) on conflict (name) do update set version = excluded.version`,
        [stored?.version ?? 1],
      );
    }
  });
});

describe('getAssessmentForms (GET /rest/refdata/assessment-forms)', () => {
  it('lists every form with its fields in order', async () => {
    const res = await t.rest('GET', '/rest/refdata/assessment-forms');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(2);
    expect(res.body[0]).toEqual({
      assessmentId: 401,
      assessmentUuid: 'b0000000-0000-4000-8000-000000000001',
      assessmentName: 'Wellbeing check-in',
      fields: [
        {
          fieldId: 4101,
          label: 'How would you rate your wellbeing this week?',
          type: 'single_choice',
          required: true,
          options: ['Poor', 'Fair', 'Good', 'Very good'],
          order: 1,
        },
        { fieldId: 4102, label: 'Hours of sleep per night', type: 'number', required: true, options: [], order: 2 },
        { fieldId: 4103, label: 'Anything you would like to tell us?', type: 'textarea', required: false, options: [], order: 3 },
      ],
    });
  });

  it('when a uuid is given, then only that form comes back; an unknown one gives []', async () => {
    const one = await t.rest('GET', '/rest/refdata/assessment-forms?assessmentUuid=B0000000-0000-4000-8000-000000000002');
    expect(one.status).toBe(200);
    expect(one.body.map((f: any) => f.assessmentName)).toEqual(['Programme intake']);
    expect(one.body[0].fields.map((f: any) => f.order)).toEqual([1, 2, 3, 4]);
    const none = await t.rest('GET', '/rest/refdata/assessment-forms?assessmentUuid=c0000000-0000-4000-8000-000000000009');
    expect(none).toMatchObject({ status: 200, body: [] });
  });

  it('when the uuid is malformed, then WSInvalidParameterException', async () => {
    const res = await t.rest('GET', '/rest/refdata/assessment-forms?assessmentUuid=not-a-uuid');
    expect([res.status, res.body]).toEqual([400, invalid('assessmentUuid', 'assessmentUuid must be a UUID.')]);
  });

  it('loads the fields of all forms in one statement (batched)', async () => {
    const n = await t.countStatements(() => t.rest('GET', '/rest/refdata/assessment-forms'));
    expect(n).toBe(2);
  });
});

describe('countries, states, field definitions, professions, specialties', () => {
  it('lists ISO 3166-1 countries', async () => {
    const res = await t.rest('GET', '/rest/refdata/countries');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThanOrEqual(249);
    expect(res.body).toContainEqual({ countryCode: 'AU', countryName: 'Australia' });
  });

  it('lists ISO 3166-2 states of a country; requires a valid code', async () => {
    const res = await t.rest('GET', '/rest/refdata/states?countryCode=au');
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({ stateCode: 'NSW', stateName: 'New South Wales', countryCode: 'AU' });
    expect(res.body).toHaveLength(8);
    const missing = await t.rest('GET', '/rest/refdata/states');
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'countryCode' });
  });

  it('lists field definitions with first and last name first', async () => {
    const res = await t.rest('GET', '/rest/refdata/field-definitions');
    expect(res.status).toBe(200);
    expect(res.body.slice(0, 2)).toEqual([
      { fieldId: 1, fieldCode: 'firstName', fieldName: 'First name', fieldType: 'text', isAddressField: false },
      { fieldId: 2, fieldCode: 'lastName', fieldName: 'Last name', fieldType: 'text', isAddressField: false },
    ]);
    expect(res.body.filter((f: any) => f.isAddressField).map((f: any) => f.fieldCode)).toEqual(['addresses']);
  });

  it('lists professions and filters specialties by profession', async () => {
    const professions = await t.rest('GET', '/rest/refdata/professions');
    expect(professions.body).toContainEqual({ professionId: 101, professionName: 'Doctor' });
    const specialties = await t.rest('GET', '/rest/refdata/specialties?professionId=101');
    expect(specialties.body.map((s: any) => s.specialtyName)).toEqual(['Cardiology', 'Oncology', 'Paediatrics']);
    const bad = await t.rest('GET', '/rest/refdata/specialties?professionId=doctor');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'professionId' });
  });
});
