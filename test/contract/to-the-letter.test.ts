// Issue 39: the requests a legacy client sends where the service departed from the specification,
// each sent exactly as the table of the issue says, over REST and (where there is one) its GraphQL
// twin, asserting the whole answer.
import {
  DEMO,
  NORTHWIND,
  OLIVIA,
  createContact,
  createContactAddress,
  createDirectory,
  createUserAddress,
  newPublisher,
  useDemoApp,
  type Publisher,
} from '../kit';

const { t, olivia, cara } = useDemoApp();
const ingestion = t.with({ 'x-api-key': DEMO.ingestionToken });
const EMOJI = '\u{1F600}';

describe('row 3: searchTerms counts characters, and over its bound answers an identifier endpoint 3 lists', () => {
  const entities = (searchTerms: string) =>
    olivia.rest('POST', '/rest/user/recommended/entities', { body: { version: 2, entityType: ['company'], searchTerms } });

  it('when searchTerms is 128 emoji (256 UTF-16 units), then 200', async () => {
    expect(await entities(EMOJI.repeat(128))).toMatchObject({ status: 200, body: [] });
  });

  it('when searchTerms is 256 characters, then 400 WSInvalidParameterException naming it, over REST and GraphQL', async () => {
    const rest = await entities(EMOJI.repeat(256));
    expect([rest.status, rest.body]).toEqual([
      400,
      { errorCode: 'WSInvalidParameterException', message: 'searchTerms must be at most 255 characters.', field: 'searchTerms' },
    ]);
    const gql = await olivia.gql(
      'query($s: String) { recommendedEntities(version: 2, entityType: ["company"], searchTerms: $s) { entityId } }',
      {
        s: EMOJI.repeat(256),
      },
    );
    expect(gql.body.errors?.[0]).toMatchObject({
      message: 'searchTerms must be at most 255 characters.',
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'searchTerms' },
    });
  });
});

describe('rows 4 and 5: endpoint 2 names every bad input InvalidParameterException, and admits the largest body its rules accept', () => {
  let p: Publisher;
  let entryId: number;
  beforeAll(async () => {
    p = await newPublisher(t);
    const res = await p.rest('POST', '/rest/smartlib/smartentry', {
      body: { smartLibId: p.smartLibId, smartEntryType: 'URL', smartEntryName: 'Ingested', smartEntryUrlLink: 'https://ingest.example' },
    });
    entryId = res.body.smartEntryId;
  });
  const path = () => `/rest/smartlib/smartentry/${entryId}/ai-ingestion-failure`;
  const stored = async () => (await t.row('smart_entry', { smart_entry_id: entryId })).ai_ingestion_error as string | null;

  it.each([
    ['malformed JSON', '{"smartlibId": 1,'],
    ['the body null', 'null'],
  ])('when the body is %s, then 400 InvalidParameterException naming body', async (_what, rawBody) => {
    const res = await ingestion.rest('PUT', path(), { rawBody, headers: { 'content-type': 'application/json' } });
    expect([res.status, res.body]).toEqual([
      400,
      { errorCode: 'InvalidParameterException', message: 'The request body is not valid JSON.', field: 'body' },
    ]);
  });

  it('when aiIngestionError is 90,000 emoji (1.08 MB of escaped JSON), then 200 and it is stored whole', async () => {
    const error = EMOJI.repeat(90_000);
    const rawBody = JSON.stringify({ smartlibId: p.smartLibId, cId: NORTHWIND, aiIngestionError: error }).replace(
      /[\u{10000}-\u{10FFFF}]/gu,
      (c) => `\\u${c.charCodeAt(0).toString(16)}\\u${c.charCodeAt(1).toString(16)}`,
    );
    expect(rawBody.length).toBeGreaterThan(1_080_000);
    const res = await ingestion.rest('PUT', path(), { rawBody, headers: { 'content-type': 'application/json' } });
    expect([res.status, res.text]).toEqual([200, '']);
    expect(await stored()).toBe(error);
  });

  it('when the x-api-key is missing or unknown, then 401 InsufficientPrivilegesException (no WS-prefixed identifier)', async () => {
    const body = { smartlibId: p.smartLibId, cId: NORTHWIND, aiIngestionError: 'x' };
    for (const headers of [{}, { 'x-api-key': 'not-a-token' }] as Record<string, string>[]) {
      const res = await t.rest('PUT', path(), { body, headers });
      expect([res.status, res.body]).toEqual([
        401,
        { errorCode: 'InsufficientPrivilegesException', message: 'The x-api-key system token is missing or invalid.' },
      ]);
    }
  });

  it('when the body is larger than the route admits, then 413 InvalidParameterException naming body, and nothing is stored', async () => {
    const before = await stored();
    const rawBody = JSON.stringify({ smartlibId: p.smartLibId, cId: NORTHWIND, aiIngestionError: 'x'.repeat(3_000_000) });
    const res = await ingestion.rest('PUT', path(), { rawBody, headers: { 'content-type': 'application/json' } });
    expect([res.status, res.body]).toEqual([413, { errorCode: 'InvalidParameterException', message: expect.any(String), field: 'body' }]);
    expect(await stored()).toBe(before);
  });

  it('when aiIngestionError is over its bound on GraphQL, then InvalidParameterException too', async () => {
    const res = await ingestion.gql(
      'mutation($e: String!, $l: Int!, $c: Int!, $id: Int!) { updateSmartEntryAIIngestionFailure(smartEntryId: $id, smartlibId: $l, cId: $c, aiIngestionError: $e) }',
      { id: entryId, l: p.smartLibId, c: NORTHWIND, e: 'x'.repeat(100_001) },
    );
    expect(res.body.errors?.[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 'InvalidParameterException',
      field: 'aiIngestionError',
    });
  });
});

describe('row 6: a null spelling of the postcode beside a valued one is absent', () => {
  it('when a user address update sends {"postcode": null, "postCode": "2037"}, then 200 with postcode 2037, over REST and GraphQL', async () => {
    const u = await t.newUser();
    const a = await createUserAddress(t.orm, u.uId, { typeCode: 'W', postcode: '2000' });
    const rest = await u.rest('PUT', `/rest/user/addresses/${a.uuid}`, { body: { uuid: a.uuid, postcode: null, postCode: '2037' } });
    expect(rest.status).toBe(200);
    expect(rest.body.postcode).toBe('2037');
    expect((await t.row('user_address', { uuid: a.uuid })).postcode).toBe('2037');
    const gql = await u.gql(
      'mutation($uuid: String!, $input: AddressInput!) { updateUserAddress(addressUUID: $uuid, input: $input) { postcode } }',
      { uuid: a.uuid, input: { uuid: a.uuid, postCode: null, postcode: '2040' } },
    );
    expect(gql.body).toEqual({ data: { updateUserAddress: { postcode: '2040' } } });
  });

  it('when a contact address update sends both spellings that way, then 200 with the valued one', async () => {
    const u = await t.newUser();
    const dir = await createDirectory(t.orm, { members: [u.uId] });
    const contact = await createContact(t.orm, dir.uuid, u.uId);
    const address = await createContactAddress(t.orm, contact.contactId, { typeCode: 'W', postcode: '2000' });
    const res = await u.rest('PUT', `/rest/smartdirectory/${dir.uuid}/contactRecord/addresses/${address.uuid}`, {
      body: { uuid: address.uuid, typeCode: 'W', postcode: null, postCode: '2037' },
    });
    expect(res.status).toBe(200);
    expect(res.body.postcode).toBe('2037');
  });
});

describe('row 7: GA without brochureId lists the company asset-level records', () => {
  it('when Cara lists GA for Northwind without brochureId, then 200 with every GA record, the one just sent included', async () => {
    const sent = await cara.rest('POST', '/rest/notification/send', {
      body: { broadcastType: 'GA', companyId: NORTHWIND, brochureId: 77, valueIds: [DEMO.teamId], message: 'New brochure.' },
    });
    expect(sent.status).toBe(200);
    for (const path of ['/rest/notification/sent', '/rest/notification/scheduled/sent']) {
      const res = await cara.rest('GET', `${path}?version=1&broadcastType=GA&companyId=${NORTHWIND}`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
    }
    const all = await cara.rest('GET', `/rest/notification/sent?version=1&broadcastType=GA&companyId=${NORTHWIND}`);
    expect(all.body).toContainEqual(expect.objectContaining({ type: 'GA', brochureId: 77, message: 'New brochure.' }));
    const one = await cara.rest('GET', `/rest/notification/sent?version=1&broadcastType=GA&companyId=${NORTHWIND}&brochureId=78`);
    expect(one.body).toEqual([]);
  });
});

describe('row 8: notificationLog says Success', () => {
  it("when the demo's sent scheduled notification is read, then its notificationLog is Success", async () => {
    const res = await cara.rest('GET', `/rest/notification/scheduled/sent?version=1&broadcastType=GT&companyId=${NORTHWIND}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const record of res.body) expect(record.notificationLog).toBe('Success');
  });
});

describe('row 9: an empty value of an optional query parameter is absent', () => {
  it.each([
    ['/rest/refdata/assessment-forms?assessmentUuid=', '/rest/refdata/assessment-forms'],
    [`/rest/user/mi/${NORTHWIND}/events?version=1&pageNum=`, `/rest/user/mi/${NORTHWIND}/events?version=1`],
    [
      `/rest/notification/sent?version=1&broadcastType=GT&companyId=${NORTHWIND}&eventUUID=`,
      `/rest/notification/sent?version=1&broadcastType=GT&companyId=${NORTHWIND}`,
    ],
    ['/rest/refdata/timezones?countryCode=', '/rest/refdata/timezones'],
  ])('when %s, then the same answer as without it', async (withEmpty, without) => {
    const a = await cara.rest('GET', withEmpty);
    const b = await cara.rest('GET', without);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
  });

  it('when a required parameter is empty, then it is missing', async () => {
    const res = await cara.rest('GET', `/rest/notification/sent?version=1&broadcastType=GT&companyId=`);
    expect([res.status, res.body]).toEqual([
      400,
      { errorCode: 'WSInvalidParameterException', message: 'companyId is required for GT.', field: 'companyId' },
    ]);
  });
});

describe('row 10: a JSON body without its media type is read as JSON; another media type is 415', () => {
  const body = JSON.stringify({ uId: OLIVIA, firstName: 'Olivia' });

  it.each([['text/plain'], ['text/plain; charset=utf-8'], [undefined]])(
    'when the profile update comes as %s, then it is read',
    async (type) => {
      // A Buffer goes out with no content type at all (a string would be sent as text/plain).
      const res = await olivia.rest('PUT', '/rest/user/profile', {
        rawBody: type ? body : Buffer.from(body),
        headers: type ? { 'content-type': type } : {},
      });
      expect(res.status).toBe(200);
    },
  );

  it('when it comes as application/xml, then 415 naming body', async () => {
    const res = await olivia.rest('PUT', '/rest/user/profile', { rawBody: body, headers: { 'content-type': 'application/xml' } });
    expect([res.status, res.body]).toEqual([
      415,
      { errorCode: 'WSInvalidParameterException', message: 'The body must be JSON (application/json).', field: 'body' },
    ]);
  });
});

describe('row 11: a number that is not a supported version is WSUnsupportedVersionException', () => {
  const unsupported = (raw: string) => ({
    errorCode: 'WSUnsupportedVersionException',
    message: `Version ${raw} is not supported.`,
    field: 'version',
  });

  it.each(['2.5', '1.0', '3000000000'])('when version=%s on endpoints 17 and 18, then WSUnsupportedVersionException', async (v) => {
    const sent = await cara.rest('GET', `/rest/notification/sent?version=${v}&broadcastType=GT&companyId=${NORTHWIND}`);
    expect([sent.status, sent.body]).toEqual([400, unsupported(v)]);
    const events = await olivia.rest('GET', `/rest/user/mi/${NORTHWIND}/events?version=${v}`);
    expect([events.status, events.body]).toEqual([400, unsupported(v)]);
  });

  it('when version is 2.5 in the body of endpoint 3 and as a GraphQL variable, then WSUnsupportedVersionException', async () => {
    const rest = await olivia.rest('POST', '/rest/user/recommended/entities', { body: { version: 2.5, entityType: ['company'] } });
    expect([rest.status, rest.body]).toEqual([400, unsupported('2.5')]);
    const gql = await olivia.gql('query($version: Int!) { recommendedEntities(version: $version, entityType: ["company"]) { entityId } }', {
      version: 2.5,
    });
    expect(gql.body.errors?.[0].extensions).toEqual({
      code: 'BAD_USER_INPUT',
      errorCode: 'WSUnsupportedVersionException',
      field: 'version',
    });
  });

  it('when version is not a number, then WSInvalidParameterException', async () => {
    const res = await olivia.rest('GET', `/rest/user/mi/${NORTHWIND}/events?version=one`);
    expect([res.status, res.body]).toEqual([
      400,
      { errorCode: 'WSInvalidParameterException', message: 'Invalid value for version.', field: 'version' },
    ]);
  });
});
