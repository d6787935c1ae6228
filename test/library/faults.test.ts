// Dependencies that do not answer: the token cache (WSCacheServiceException), the identity
// store during the privilege checks (WSAuthorisationServiceException), the library's own
// store (WSSmartLibraryServiceException / SmartLibraryServiceException). 503, nothing stored.
// The store failures are injected as the connection error the database driver raises.
import {
  DEMO,
  fingerprint,
  freePort,
  gqlUpload,
  newPublisher,
  NORTHWIND,
  upload,
  uniquePdf,
  uploadFile,
  UPLOAD_FILE,
  useTestApp,
  type Publisher,
} from '../kit';
import * as libraryService from '../../src/modules/library/library.service';
import * as uploadService from '../../src/modules/library/upload.service';
import * as ingestionService from '../../src/modules/library/ingestion.service';
import * as blobStore from '../../src/modules/storage/blob-store';

const connectionRefused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

const t = useTestApp();
let p: Publisher;
beforeAll(async () => {
  p = await newPublisher(t);
});
afterEach(() => jest.restoreAllMocks());

const entry = (name: string, extra: Record<string, unknown> = {}) => ({
  smartLibId: p.smartLibId,
  smartEntryType: 'URL',
  smartEntryName: name,
  smartEntryUrlLink: 'https://x.example',
  ...extra,
});

async function unchanged(send: () => Promise<{ status: number; body: any }>, status: number, body: Record<string, unknown>) {
  const before = await fingerprint(t.orm);
  const res = await send();
  expect({ status: res.status, body: res.body }).toEqual({ status, body });
  expect(await fingerprint(t.orm)).toEqual(before);
}

it('WSAuthorisationServiceException: when the publisher check cannot reach its store', async () => {
  jest.spyOn(libraryService, 'isPublisher').mockRejectedValue(connectionRefused());
  await unchanged(() => p.rest('POST', '/rest/smartlib/smartentry', { body: entry('Auth down') }), 503, {
    errorCode: 'WSAuthorisationServiceException',
    message: 'The authorisation service is unavailable.',
  });
});

it('WSSmartLibraryServiceException: when the library store fails after the checks, nothing is stored', async () => {
  const tempFilename = await uploadFile(p, uniquePdf());
  jest.spyOn(uploadService, 'findUpload').mockRejectedValue(connectionRefused());
  await unchanged(
    () =>
      p.rest('POST', '/rest/smartlib/smartentry', {
        body: { smartLibId: p.smartLibId, smartEntryType: 'PDF', smartEntryName: 'Store down', smartFileInfo: { tempFilename } },
      }),
    503,
    { errorCode: 'WSSmartLibraryServiceException', message: 'The smart library service is unavailable.' },
  );
  expect(t.logs.some((l) => /ECONNREFUSED/.test(JSON.stringify(l)))).toBe(false);
});

describe('when the token cache does not answer', () => {
  const cacheless = useTestApp(async () => ({ alongside: t, env: { REDIS_URL: `redis://127.0.0.1:${await freePort()}` } }));

  it('then createSmartEntry is 503 WSCacheServiceException and nothing is stored', () =>
    unchanged(() => cacheless.as(p).rest('POST', '/rest/smartlib/smartentry', { body: entry('Cache down') }), 503, {
      errorCode: 'WSCacheServiceException',
      message: 'The cache service is unavailable.',
    }));
});

it('SmartLibraryServiceException: when the entry store does not answer, the ingestion report is 503 and changes nothing', async () => {
  jest.spyOn(ingestionService, 'recordIngestionFailure').mockRejectedValue(connectionRefused());
  await unchanged(
    () =>
      t.rest('PUT', `/rest/smartlib/smartentry/${DEMO.library.welcomePackEntryId}/ai-ingestion-failure`, {
        headers: { 'x-api-key': DEMO.ingestionToken },
        body: { smartlibId: DEMO.library.smartLibId, cId: NORTHWIND, aiIngestionError: 'x' },
      }),
    503,
    { errorCode: 'SmartLibraryServiceException', message: 'The smart library service is unavailable.' },
  );
});

// A REST upload is staged while its form is read (stageStream) and adopted by the operation
// (adoptStaged); a GraphQL upload streams in during the operation (storeStream).
it.each([
  ['while its form is read (the file part being staged)', 'stageStream'],
  ['when the operation takes the staged file', 'adoptStaged'],
] as const)(
  'WSSmartLibraryServiceException: when an upload cannot be stored %s, the upload route is 503 and nothing is stored',
  async (_when, step) => {
    jest.spyOn(blobStore, step).mockRejectedValue(connectionRefused());
    await unchanged(() => upload(p, '/rest/smartlib/upload/file', uniquePdf(), 'x.pdf'), 503, {
      errorCode: 'WSSmartLibraryServiceException',
      message: 'The smart library service is unavailable.',
    });
  },
);

it('WSSmartLibraryServiceException: when a GraphQL upload cannot be stored, the error is the service exception and nothing is stored', async () => {
  // Fails as the database would: after reading the stream (the request finishes only once every part was read).
  jest.spyOn(blobStore, 'storeStream').mockImplementation(async (_em, source) => {
    source.resume();
    throw connectionRefused();
  });
  const before = await fingerprint(t.orm);
  const res = await gqlUpload(p, UPLOAD_FILE, uniquePdf(), 'x.pdf');
  expect(res.body.errors[0]).toMatchObject({
    message: 'The smart library service is unavailable.',
    extensions: { code: 'SERVICE_UNAVAILABLE', errorCode: 'WSSmartLibraryServiceException' },
  });
  expect(await fingerprint(t.orm)).toEqual(before);
});
