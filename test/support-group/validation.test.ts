// createSupportGroup refusals: every credential, form field, asset and file rule answers its
// status and exact body, and leaves every table as it was (stored files included).
import {
  CARA,
  createApiKey,
  createCompany,
  CREATE_SUPPORT_GROUP,
  DEMO,
  fingerprint,
  grantCompanyRole,
  htmlPage,
  NORTHWIND,
  OLIVIA,
  png,
  SUPPORT_GROUP_PATH,
  supportGroupForm,
  uniquePdf,
  useTestApp,
  type Client,
  type FilePart,
} from '../kit';
import { loadConfig } from '../kit/src';

const KEY = { 'x-service-company-api-key': DEMO.companyApiKey };
const t = useTestApp();
// A second instance on the same database with small upload limits.
const small = useTestApp({ alongside: t, env: { UPLOAD_MAX_BYTES: '300000', UPLOAD_TILE_MAX_BYTES: '20000' } });
/** Cara (administrator of Northwind) with Northwind's active API key. */
const admin = t.as(CARA).with(KEY);
let otherKey: string;

beforeAll(async () => {
  // Cara also administers another company, which has its own key.
  const otherCompanyId = (await createCompany(t.orm)).companyId;
  await grantCompanyRole(t.orm, CARA, otherCompanyId, 'ADMIN');
  otherKey = await createApiKey(t.orm, otherCompanyId, { active: true });
  // A support group whose name and asset internal id later requests repeat.
  const taken = await admin.multipart(
    SUPPORT_GROUP_PATH,
    supportGroupForm({
      supportGroupPrefix: 'TAKEN',
      supportGroupName: 'Existing Group',
      assetName1: 'A',
      assetType1: 'html',
      assetInternalId1: 'taken-id',
    }),
  );
  expect(taken.status).toBe(200);
});

const invalid = (field: string, message: string) => [400, { errorCode: 'WSInvalidParameterException', message, field }];
const tooLong = (field: string, max: number) => [
  400,
  { errorCode: 'WSFieldLengthException', message: `${field} must be at most ${max} characters.`, field },
];
const limit = (field: string, message: string) => [400, { errorCode: 'WSLimitExceededException', message, field }];
const unsupported = (field: string, message: string) => [400, { errorCode: 'WSUnsupportedTypeException', message, field }];
const IMAGE_TYPES = 'image/png, image/jpeg, image/gif, image/webp';
/** The default UPLOAD_ALLOWED_TYPES, which both test instances use. */
const FILE_TYPES = loadConfig({ NODE_ENV: 'test' }).uploadAllowedTypes;

interface Case {
  text?: Record<string, string | undefined>;
  files?: () => Promise<Record<string, FilePart>>;
  /** Who sends the form (default: Cara with Northwind's key). */
  who?: () => Client;
  expected: unknown[];
}

const consent = (extra: Record<string, unknown> = {}) => ({
  consentType: 'DS',
  name: 'Listing',
  desc: 'List me.',
  required: true,
  ...extra,
});
const emails = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@demo.example`).join(',');

const CASES: Record<string, Case> = {
  // Credentials, then the caller's and the key's company.
  'no auth token': {
    who: () => t.with(KEY),
    expected: [401, { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' }],
  },
  'no company API key': {
    who: () => t.as(CARA),
    expected: [401, { errorCode: 'WSInvalidAuthTokenException', message: 'The company API key is missing or invalid.' }],
  },
  'an inactive company API key': {
    who: () => t.as(CARA).with({ 'x-service-company-api-key': DEMO.inactiveCompanyApiKey }),
    expected: [403, { errorCode: 'WSCompanyApiKeyNotActiveException', message: 'The company API key is not active.' }],
  },
  'a caller who is not an admin of companyId': {
    who: () => t.as(OLIVIA).with(KEY),
    expected: [
      403,
      { errorCode: 'WSInsufficientPrivilegesException', message: 'Only administrators of the company may create its support groups.' },
    ],
  },
  'a companyId the caller does not administer': {
    text: { companyId: String(DEMO.companies.southgate) },
    expected: [
      403,
      { errorCode: 'WSInsufficientPrivilegesException', message: 'Only administrators of the company may create its support groups.' },
    ],
  },
  'a key of another company than companyId': {
    who: () => t.as(CARA).with({ 'x-service-company-api-key': otherKey }),
    expected: [403, { errorCode: 'WSInsufficientPrivilegesException', message: 'The company API key is not a key of this company.' }],
  },
  // The form, in the specification's order.
  'companyId missing': { text: { companyId: undefined }, expected: invalid('companyId', 'Invalid value for companyId.') },
  'companyId not a number': { text: { companyId: 'abc' }, expected: invalid('companyId', 'Invalid value for companyId.') },
  'supportGroupPrefix missing': {
    text: { supportGroupPrefix: undefined },
    expected: invalid('supportGroupPrefix', 'Invalid value for supportGroupPrefix.'),
  },
  'supportGroupPrefix blank': {
    text: { supportGroupPrefix: '  ' },
    expected: invalid('supportGroupPrefix', 'supportGroupPrefix is required.'),
  },
  'supportGroupPrefix over 50 characters': { text: { supportGroupPrefix: 'P'.repeat(51) }, expected: tooLong('supportGroupPrefix', 50) },
  'supportGroupPrefix over 50 characters outside the BMP': {
    text: { supportGroupPrefix: '😀'.repeat(51) },
    expected: tooLong('supportGroupPrefix', 50),
  },
  'supportGroupName blank': { text: { supportGroupName: '' }, expected: invalid('supportGroupName', 'supportGroupName is required.') },
  'supportGroupName over 150 characters': { text: { supportGroupName: 'é'.repeat(151) }, expected: tooLong('supportGroupName', 150) },
  'supportGroupName with a control character': {
    text: { supportGroupName: 'Heart\u0007Group' },
    expected: invalid('supportGroupName', 'supportGroupName contains control characters.'),
  },
  'supportGroupName with a NUL': {
    text: { supportGroupName: 'Heart\u0000Group' },
    expected: invalid('supportGroupName', 'supportGroupName holds a character that is not text (NUL or an unpaired surrogate).'),
  },
  'supportGroupName already used by the company': {
    text: { supportGroupPrefix: 'TAKEN', supportGroupName: 'Existing Group' },
    expected: invalid('supportGroupName', 'The company already has a support group named "TAKEN Existing Group".'),
  },
  'countryCode unknown': {
    text: { countryCode: 'ZZ' },
    expected: invalid('countryCode', 'countryCode must be an ISO 3166-1 alpha-2 code from the countries list.'),
  },
  'countryCode over 2 characters': { text: { countryCode: 'AUS' }, expected: tooLong('countryCode', 2) },
  'stateCode without countryCode': {
    text: { stateCode: 'NSW' },
    expected: invalid('stateCode', 'stateCode needs the countryCode it belongs to.'),
  },
  'stateCode not of the country': {
    text: { countryCode: 'NZ', stateCode: 'NSW' },
    expected: invalid('stateCode', 'stateCode must be a subdivision of NZ from the states list.'),
  },
  'stateCode over 6 characters': { text: { countryCode: 'AU', stateCode: 'ABCDEFG' }, expected: tooLong('stateCode', 6) },
  'teamAdminUserEmails only commas': {
    text: { teamAdminUserEmails: ' , ,' },
    expected: invalid('teamAdminUserEmails', 'teamAdminUserEmails is required.'),
  },
  'teamAdminUserEmails not an address': {
    text: { teamAdminUserEmails: 'olivia@demo.example, not-an-email' },
    expected: invalid('teamAdminUserEmails', '"not-an-email" is not an e-mail address.'),
  },
  'teamAdminUserEmails over 255 characters': {
    text: { teamAdminUserEmails: `${'a'.repeat(250)}@demo.example` },
    expected: tooLong('teamAdminUserEmails', 255),
  },
  'teamAdminUserEmails with more than 50': {
    text: { teamAdminUserEmails: emails(51) },
    expected: limit('teamAdminUserEmails', 'At most 50 team admins.'),
  },
  'teamAdminUserEmails naming no user': {
    text: { teamAdminUserEmails: 'olivia@demo.example,nobody@demo.example' },
    expected: invalid('teamAdminUserEmails', 'nobody@demo.example is not a user with an accepted connection to the company.'),
  },
  'teamAdminUserEmails naming a user without an accepted connection': {
    text: { teamAdminUserEmails: 'Pat@Demo.Example' },
    expected: invalid('teamAdminUserEmails', 'Pat@Demo.Example is not a user with an accepted connection to the company.'),
  },
  'directoryType not in the list': {
    text: { directoryType: 'OPEN' },
    expected: invalid('directoryType', 'directoryType must be one of UNRESTRICTED, PARTIALLY_RESTRICTED, FULLY_RESTRICTED.'),
  },
  'directoryOrder not in the list': {
    text: { directoryOrder: 'XY' },
    expected: invalid('directoryOrder', 'directoryOrder must be one of FL, LF.'),
  },
  'directoryFieldIds not integers': {
    text: { directoryFieldIds: '3,abc' },
    expected: invalid('directoryFieldIds', '"abc" is not a field definition id.'),
  },
  'directoryFieldIds blank': { text: { directoryFieldIds: ',' }, expected: invalid('directoryFieldIds', 'directoryFieldIds is required.') },
  'directoryFieldIds unknown': {
    text: { directoryFieldIds: '3,999,998' },
    expected: invalid('directoryFieldIds', 'No field definition has the id 999, 998.'),
  },
  'autoPopulateFromProfile not true or false': {
    text: { autoPopulateFromProfile: 'yes' },
    expected: invalid('autoPopulateFromProfile', 'autoPopulateFromProfile must be true or false.'),
  },
  'directoryConsents missing': {
    text: { directoryConsents: undefined },
    expected: invalid('directoryConsents', 'Invalid value for directoryConsents.'),
  },
  'directoryConsents not JSON': {
    text: { directoryConsents: '[{' },
    expected: invalid('directoryConsents', 'directoryConsents is not valid JSON.'),
  },
  'directoryConsents not an array': {
    text: { directoryConsents: '{}' },
    expected: invalid('directoryConsents', 'directoryConsents must be a JSON array.'),
  },
  'directoryConsents with another consentType': {
    text: { directoryConsents: JSON.stringify([consent({ consentType: 'C' })]) },
    expected: invalid('directoryConsents', 'directoryConsents[0].consentType must be DS.'),
  },
  'directoryConsents without desc': {
    text: { directoryConsents: JSON.stringify([consent(), consent({ desc: ' ' })]) },
    expected: invalid('directoryConsents', 'directoryConsents[1].desc is required.'),
  },
  'directoryConsents with required not a boolean': {
    text: { directoryConsents: JSON.stringify([consent({ required: 'true' })]) },
    expected: invalid('directoryConsents', 'directoryConsents[0].required must be true or false.'),
  },
  'directoryConsents name over 255': {
    text: { directoryConsents: JSON.stringify([consent({ name: 'n'.repeat(256) })]) },
    expected: [
      400,
      {
        errorCode: 'WSFieldLengthException',
        message: 'directoryConsents[0].name must be at most 255 characters.',
        field: 'directoryConsents',
      },
    ],
  },
  'directoryConsents with more than 20': {
    text: { directoryConsents: JSON.stringify(Array.from({ length: 21 }, () => consent())) },
    expected: limit('directoryConsents', 'At most 20 directory consents.'),
  },
  // Assets.
  'an asset with a name but no type': {
    text: { assetName3: 'Guide' },
    expected: invalid('assetType3', 'assetType3 is required: an asset needs at least a name and a type.'),
  },
  'an asset with a type but no name': {
    text: { assetType3: 'html', assetDescription3: 'd' },
    expected: invalid('assetName3', 'assetName3 is required: an asset needs at least a name and a type.'),
  },
  'an asset of an unknown type': {
    text: { assetName2: 'Guide', assetType2: 'pdf' },
    expected: invalid('assetType2', 'assetType2 must be one of html, smartlib, smartdir.'),
  },
  'an asset numbered 11': {
    text: { assetName1: 'One', assetType1: 'html', assetName11: 'Eleven', assetType11: 'html' },
    expected: invalid('assetName11', 'Assets are numbered 1 to 10; assetName11 is out of range.'),
  },
  'an asset numbered 0': {
    text: { assetDescription0: 'zero' },
    expected: invalid('assetDescription0', 'Assets are numbered 1 to 10; assetDescription0 is out of range.'),
  },
  'an asset name over 255': { text: { assetName1: 'n'.repeat(256), assetType1: 'html' }, expected: tooLong('assetName1', 255) },
  'an asset description over 2000': {
    text: { assetName1: 'n', assetType1: 'html', assetDescription1: 'd'.repeat(2001) },
    expected: tooLong('assetDescription1', 2000),
  },
  'an asset internal id over 100': {
    text: { assetName1: 'n', assetType1: 'html', assetInternalId1: 'i'.repeat(101) },
    expected: tooLong('assetInternalId1', 100),
  },
  'two assets with one internal id': {
    text: {
      assetName1: 'a',
      assetType1: 'html',
      assetInternalId1: 'same',
      assetName2: 'b',
      assetType2: 'smartlib',
      assetInternalId2: 'same',
    },
    expected: invalid('assetInternalId2', 'assetInternalId2 repeats assetInternalId1.'),
  },
  'an internal id another asset of the company has': {
    text: { assetName1: 'a', assetType1: 'smartdir', assetInternalId1: 'taken-id' },
    expected: invalid('assetInternalId1', 'assetInternalId1 is already used by another asset of the company.'),
  },
  'a file of an asset without name and type': {
    text: { assetName1: 'a', assetType1: 'html' },
    files: async () => ({
      assetImageFile1: { content: await png(), filename: 'a.png' },
      assetImageFile4: { content: await png(), filename: 'b.png' },
    }),
    expected: invalid('assetName4', 'assetName4 is required: assetImageFile4 belongs to an asset without a name and a type.'),
  },
  // Files.
  'a team image that is a PDF': {
    files: async () => ({ teamImageFile: { content: uniquePdf(), filename: 'logo.png' } }),
    expected: unsupported('teamImageFile', `teamImageFile is not one of the accepted types (${IMAGE_TYPES}).`),
  },
  'an asset image that does not decode': {
    text: { assetName1: 'a', assetType1: 'html' },
    files: async () => ({
      assetImageFile1: { content: Buffer.concat([(await png()).subarray(0, 40), Buffer.alloc(200, 7)]), filename: 'broken.png' },
    }),
    expected: unsupported('assetImageFile1', 'The image could not be read.'),
  },
  'a version file of no accepted type': {
    text: { assetName1: 'a', assetType1: 'smartlib' },
    files: async () => ({ assetVersionFile1: { content: Buffer.from('plain text, no magic bytes'), filename: 'notes.pdf' } }),
    expected: unsupported('assetVersionFile1', `assetVersionFile1 is not one of the accepted types (${FILE_TYPES.join(', ')}).`),
  },
  'an HTML version file of an asset that is not html': {
    text: { assetName1: 'a', assetType1: 'smartdir' },
    files: async () => ({ assetVersionFile1: { content: htmlPage(), filename: 'page.html' } }),
    expected: unsupported('assetVersionFile1', `assetVersionFile1 is not one of the accepted types (${FILE_TYPES.join(', ')}).`),
  },
  'a team image over UPLOAD_TILE_MAX_BYTES': {
    who: () => small.as(CARA).with(KEY),
    files: async () => ({ teamImageFile: { content: Buffer.concat([await png(), Buffer.alloc(25_000)]), filename: 'big.png' } }),
    expected: [
      413,
      {
        errorCode: 'WSMaxFileUploadSizeException',
        message: 'The file exceeds the maximum upload size of 20000 bytes.',
        field: 'teamImageFile',
      },
    ],
  },
  'a version file over UPLOAD_MAX_BYTES': {
    who: () => small.as(CARA).with(KEY),
    text: { assetName2: 'a', assetType2: 'html' },
    files: async () => ({ assetVersionFile2: { content: Buffer.concat([uniquePdf(), Buffer.alloc(400_000)]), filename: 'big.pdf' } }),
    expected: [
      413,
      {
        errorCode: 'WSMaxFileUploadSizeException',
        message: 'The file exceeds the maximum upload size of 300000 bytes.',
        field: 'assetVersionFile2',
      },
    ],
  },
};

describe('createSupportGroup refusals (POST /rest/company/support-group)', () => {
  it.each(Object.entries(CASES))('when %s, then it is refused and nothing is stored', async (_name, c) => {
    const who = c.who?.() ?? admin;
    const before = await fingerprint(t.orm);
    const res = await who.multipart(SUPPORT_GROUP_PATH, supportGroupForm(c.text, c.files ? await c.files() : {}));
    expect([res.status, res.body]).toEqual(c.expected);
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the last of ten complete assets fails (its version file), then the whole support group is rolled back, stored files included', async () => {
    const text: Record<string, string> = {};
    const files: Record<string, FilePart> = { teamImageFile: { content: await png(90, 90), filename: 'team.png' } };
    for (let n = 1; n <= 10; n++) {
      Object.assign(text, { [`assetName${n}`]: `Asset ${n}`, [`assetType${n}`]: 'html', [`assetInternalId${n}`]: `late-${n}` });
      files[`assetImageFile${n}`] = { content: await png(30 + n, 30), filename: `i${n}.png` };
      files[`assetVersionFile${n}`] = { content: n === 10 ? Buffer.from('not a document') : uniquePdf(), filename: `v${n}.pdf` };
    }
    const before = await fingerprint(t.orm);
    t.db.statements.length = 0;
    const res = await admin.multipart(SUPPORT_GROUP_PATH, supportGroupForm(text, files));
    // It failed late: the QR code, the team image, ten images and nine version files had been stored.
    expect(t.db.statements.filter((q) => q.startsWith('insert into "stored_blob" ')).length).toBe(21);
    expect([res.status, res.body]).toEqual(
      unsupported(
        'assetVersionFile10',
        `assetVersionFile10 is not one of the accepted types (${[...FILE_TYPES, 'text/html', 'application/zip'].join(', ')}).`,
      ),
    );
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when the body is JSON instead of a multipart form, then WSInvalidParameterException names the body (415)', async () => {
    const before = await fingerprint(t.orm);
    const res = await admin.rest('POST', SUPPORT_GROUP_PATH, { body: { companyId: NORTHWIND } });
    expect([res.status, res.body]).toEqual([
      415,
      { errorCode: 'WSInvalidParameterException', message: 'The body must be multipart/form-data.', field: 'body' },
    ]);
    expect(await fingerprint(t.orm)).toEqual(before);
  });
});

describe('createSupportGroup refusals (GraphQL)', () => {
  const input = (assets: unknown[]) => ({
    companyId: NORTHWIND,
    supportGroupPrefix: 'G',
    supportGroupName: 'Refused',
    teamAdminUserEmails: 'olivia@demo.example',
    directoryType: 'UNRESTRICTED',
    directoryOrder: 'FL',
    directoryFieldIds: '3',
    directoryConsents: '[]',
    assets,
  });

  it.each([
    [
      'eleven assets',
      Array.from({ length: 11 }, (_, i) => ({ name: `A${i}`, type: 'html' })),
      'assetName11',
      'Assets are numbered 1 to 10; assetName11 is out of range.',
    ],
    [
      'two assets numbered alike',
      [
        { index: 2, name: 'a', type: 'html' },
        { index: 2, type: 'smartlib' },
      ],
      'assetType2',
      'Asset 2 is given twice.',
    ],
  ])(
    'when the input has %s, then WSInvalidParameterException names the asset field and nothing is stored',
    async (_name, assets, field, message) => {
      const before = await fingerprint(t.orm);
      const res = await admin.gql(CREATE_SUPPORT_GROUP, { input: input(assets) });
      expect(res.body).toEqual({
        data: null,
        errors: [
          expect.objectContaining({ message, extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field } }),
        ],
      });
      expect(await fingerprint(t.orm)).toEqual(before);
    },
  );

  it.each([
    [
      'a prefix of 51 emoji',
      { supportGroupPrefix: '😀'.repeat(51) },
      'WSFieldLengthException',
      'supportGroupPrefix',
      'supportGroupPrefix must be at most 50 characters.',
    ],
    [
      'a directory order not in the list',
      { directoryOrder: 'XY' },
      'WSInvalidParameterException',
      'directoryOrder',
      'directoryOrder must be one of FL, LF.',
    ],
    ['a companyId of 0', { companyId: 0 }, 'WSInvalidParameterException', 'companyId', 'companyId must be at least 1.'],
  ])('when the input has %s, then its rule names the field and nothing is stored', async (_name, change, code, field, message) => {
    const before = await fingerprint(t.orm);
    const res = await admin.gql(CREATE_SUPPORT_GROUP, { input: { ...input([]), ...change } });
    expect(res.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ message, extensions: { code: 'BAD_USER_INPUT', errorCode: code, field } })],
    });
    expect(await fingerprint(t.orm)).toEqual(before);
  });

  it('when an uploaded image is not an image, then WSUnsupportedTypeException names it and nothing is stored', async () => {
    const before = await fingerprint(t.orm);
    const res = await admin.gqlMultipart(
      CREATE_SUPPORT_GROUP,
      { input: input([{ name: 'a', type: 'html', imageFile: null }]) },
      {
        'input.assets.0.imageFile': { content: uniquePdf(), filename: 'x.png' },
      },
    );
    expect(res.body.errors[0]).toMatchObject({
      message: `assetImageFile1 is not one of the accepted types (${IMAGE_TYPES}).`,
      extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSUnsupportedTypeException', field: 'assetImageFile1' },
    });
    expect(await fingerprint(t.orm)).toEqual(before);
  });
});
