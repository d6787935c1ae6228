// updateSmartEntryAIIngestionFailure (PUT /rest/smartlib/smartentry/{id}/ai-ingestion-failure,
// endpoint 2): system token with the ingestion scope, atomic counter, errors without WS prefix.
import { createSystemToken, DEMO, fingerprint, newPublisher, NORTHWIND, useTestApp, type Client, type Publisher } from '../kit';
import { SmartEntry } from '../../src/modules/library/library.entity';

const t = useTestApp();
const ingestion = t.with({ 'x-api-key': DEMO.ingestionToken });
let p: Publisher;
let entryId: number;
beforeAll(async () => {
  p = await newPublisher(t);
  const res = await p.rest('POST', '/rest/smartlib/smartentry', {
    body: { smartLibId: p.smartLibId, smartEntryType: 'URL', smartEntryName: 'Ingested', smartEntryUrlLink: 'https://ingest.example' },
  });
  entryId = res.body.smartEntryId;
  await createSystemToken(t.orm, ['reporting'], { name: 'Reporting', token: 'reporting-token' });
});

const path = (id: number | string = entryId) => `/rest/smartlib/smartentry/${id}/ai-ingestion-failure`;
const report = (body: unknown, who: Client = ingestion, id: number | string = entryId) => who.rest('PUT', path(id), { body });
const stored = async () => {
  const e = await t.orm.em.fork().findOneOrFail(SmartEntry, { smartEntryId: entryId });
  return { failures: e.aiIngestionFailures, error: e.aiIngestionError };
};
const body = (extra: Record<string, unknown> = {}) => ({
  smartlibId: p.smartLibId,
  cId: NORTHWIND,
  aiIngestionError: 'TimeoutError: model did not answer',
  ...extra,
});

describe('updateSmartEntryAIIngestionFailure', () => {
  it('when the ingestion process reports a failure, then 200 without payload, the error is stored and the count goes up by one', async () => {
    const before = await stored();
    const res = await report(body());
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect(await stored()).toEqual({ failures: before.failures + 1, error: 'TimeoutError: model did not answer' });
  });

  it('when the error is a long stack trace at the bound, then it is stored whole', async () => {
    const trace = `java.lang.IllegalStateException: boom\n${'\tat com.example.Ingest.run(Ingest.java:42)\n'.repeat(3000)}`.slice(
      0,
      100_000,
    );
    expect(trace.length).toBe(100_000);
    expect((await report(body({ aiIngestionError: trace }))).status).toBe(200);
    expect((await stored()).error).toBe(trace);
  });

  it('when 50 reports arrive at once, then the count goes up by exactly 50', async () => {
    const before = await stored();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => report(body({ aiIngestionError: `failure ${i}` }))));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    const after = await stored();
    expect(after.failures).toBe(before.failures + 50);
    expect(after.error).toMatch(/^failure \d+$/);
  });

  it('when called through GraphQL with the system token, then it answers true', async () => {
    const before = await stored();
    const res = await ingestion.gql(
      `mutation($id: Int!, $lib: Int!) { updateSmartEntryAIIngestionFailure(smartEntryId: $id, smartlibId: $lib, cId: ${NORTHWIND}, aiIngestionError: "via graphql") }`,
      { id: entryId, lib: p.smartLibId },
    );
    expect(res.body).toEqual({ data: { updateSmartEntryAIIngestionFailure: true } });
    expect((await stored()).failures).toBe(before.failures + 1);
  });
});

describe('updateSmartEntryAIIngestionFailure: every error leaves the entry unchanged', () => {
  async function rejected(send: () => Promise<{ status: number; body: any }>, status: number, error: Record<string, unknown>) {
    const before = await fingerprint(t.orm);
    const res = await send();
    expect({ status: res.status, body: res.body }).toEqual({ status, body: error });
    expect(await fingerprint(t.orm)).toEqual(before);
  }

  it('InsufficientPrivilegesException (401, as endpoint 2 names it): no x-api-key', () =>
    rejected(() => report(body(), t), 401, {
      errorCode: 'InsufficientPrivilegesException',
      message: 'The x-api-key system token is missing or invalid.',
    }));

  it('InsufficientPrivilegesException (401, as endpoint 2 names it): an unknown x-api-key', () =>
    rejected(() => report(body(), t.with({ 'x-api-key': 'not-a-token' })), 401, {
      errorCode: 'InsufficientPrivilegesException',
      message: 'The x-api-key system token is missing or invalid.',
    }));

  it('InsufficientPrivilegesException (403): a system token without the ingestion scope', () =>
    rejected(() => report(body(), t.with({ 'x-api-key': 'reporting-token' })), 403, {
      errorCode: 'InsufficientPrivilegesException',
      message: 'The system token lacks the ingestion scope.',
    }));

  it('InsufficientPrivilegesException (401, as endpoint 2 names it): a user auth token instead of a system token', () =>
    rejected(() => report(body(), p), 401, {
      errorCode: 'InsufficientPrivilegesException',
      message: 'The x-api-key system token is missing or invalid.',
    }));

  it.each([
    ['the entry is unknown', () => report(body(), ingestion, 99_999_999)],
    ["the library is not the entry's", () => report(body({ smartlibId: DEMO.library.smartLibId }))],
    ["the company is not the library's", () => report(body({ cId: DEMO.companies.southgate }))],
  ])('SmartEntryNotFoundException (404): when %s', (_when, send) =>
    rejected(send, 404, {
      errorCode: 'SmartEntryNotFoundException',
      message: 'No smart entry with this id in that library and company.',
      field: 'smartEntryId',
    }),
  );

  it.each([
    ['smartEntryId is not a number', () => report(body(), ingestion, 'abc'), 'smartEntryId', 'Invalid value for smartEntryId.'],
    ['smartEntryId is zero', () => report(body(), ingestion, 0), 'smartEntryId', 'smartEntryId must be a positive integer.'],
    ['smartlibId is missing', () => report({ cId: NORTHWIND, aiIngestionError: 'x' }), 'smartlibId', 'Invalid value for smartlibId.'],
    // Integer text ('1001') is the integer, as the legacy service decoded it; other text is not.
    ['cId is text', () => report(body({ cId: 'company 1001' })), 'cId', 'Invalid value for cId.'],
    ['cId is fractional', () => report(body({ cId: 1001.5 })), 'cId', 'Invalid value for cId.'],
    ['smartlibId is beyond 32 bits', () => report(body({ smartlibId: 2 ** 31 })), 'smartlibId', 'Invalid value for smartlibId.'],
    [
      'aiIngestionError is missing',
      () => report({ smartlibId: p.smartLibId, cId: NORTHWIND }),
      'aiIngestionError',
      'Invalid value for aiIngestionError.',
    ],
    ['aiIngestionError is blank', () => report(body({ aiIngestionError: '   ' })), 'aiIngestionError', 'aiIngestionError is required.'],
    [
      'aiIngestionError is over 100000 characters',
      () => report(body({ aiIngestionError: 'e'.repeat(100_001) })),
      'aiIngestionError',
      'aiIngestionError must be at most 100000 characters.',
    ],
    ['the body is not an object', () => report([1, 2]), 'body', 'The body must be a JSON object.'],
  ])('InvalidParameterException (400): when %s', (_when, send, field, message) =>
    rejected(send, 400, { errorCode: 'InvalidParameterException', message, field }),
  );
});
