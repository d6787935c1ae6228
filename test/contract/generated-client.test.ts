// What an integrator does with /openapi.json: generate TypeScript types with openapi-typescript,
// write a client with openapi-fetch against them, and run the getting-started walk-through
// (docs/getting-started.md) with it. The client below is type-checked against the generated
// types (a route, parameter or body field the document gets wrong fails the compile), then run
// against the service: the routes of the walk-through, then every other REST operation with the
// demo tenant's data (its calls are the examples of the document), and the token endpoint.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import createClient from 'openapi-fetch';
import { Ajv2020 } from 'ajv/dist/2020';
import { png, useTestApp } from '../kit';

const t = useTestApp();
const root = path.join(__dirname, '../..');

/** The client, as an integrator writes it: every call typed by the generated `paths`. */
const CLIENT = `
import type { Client } from 'openapi-fetch';
import type { paths } from './api';

type Call = { name: string; status: number; body: unknown };

/** What the host gives: a multipart body from a typed one (a binary part names its file), and a browser's Web Push keys. */
export interface Fixtures {
  multipart: (body: Record<string, unknown>) => FormData;
  pushKeys: { p256dh: string; auth: string };
}

export async function walk(client: Client<paths>, fixtures: Fixtures): Promise<Call[]> {
  const calls: Call[] = [];
  const note = <R extends { response: Response; data?: unknown; error?: unknown }>(name: string, r: R): R => {
    calls.push({ name, status: r.response.status, body: r.data ?? r.error ?? null });
    return r;
  };
  const form = { bodySerializer: (b: Record<string, string>) => new URLSearchParams(b).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } };

  note('getLoginScheme', await client.GET('/rest/user/login-scheme', { params: { query: { email: 'olivia@demo.example' } } }));
  const tokens = note('token', await client.POST('/as/token.oauth2', {
    body: { grant_type: 'password', scope: 'sso', client_id: 'demo-mobile', client_secret: 'demo-mobile-secret', username: 'olivia@demo.example', password: 'Demo-Passw0rd!' },
    ...form,
  }));
  const access: string = tokens.data!.access_token;
  note('refresh', await client.POST('/as/token.oauth2', {
    body: { grant_type: 'refresh_token', client_id: 'demo-mobile', client_secret: 'demo-mobile-secret', refresh_token: tokens.data!.refresh_token },
    ...form,
  }));
  note('badGrant', await client.POST('/as/token.oauth2', {
    body: { grant_type: 'password', scope: 'sso', client_id: 'demo-mobile', client_secret: 'demo-mobile-secret', username: 'olivia@demo.example', password: 'wrong' },
    ...form,
  }));
  const login = note('loginUser', await client.POST('/rest/user/login', { headers: { Authorization: 'Bearer ' + access } }));
  const user = { 'x-service-authtoken': login.data!.authToken };
  note('createSsoToken', await client.POST('/rest/user/sso-token', { headers: { Authorization: 'Bearer ' + access }, body: { audience: 'demo-partner' } }));

  note('getAllTimezones', await client.GET('/rest/refdata/timezones', { params: { query: { countryCode: 'au' } } }));
  note('getConditions', await client.GET('/rest/refdata/conditions'));
  note('getConditionsVersion', await client.GET('/rest/refdata/conditions/version'));
  note('getAssessmentForms', await client.GET('/rest/refdata/assessment-forms', { params: { query: { assessmentUuid: 'b0000000-0000-4000-8000-000000000001' } } }));
  note('getCountries', await client.GET('/rest/refdata/countries'));
  note('getStates', await client.GET('/rest/refdata/states', { params: { query: { countryCode: 'AU' } } }));
  note('getFieldDefinitions', await client.GET('/rest/refdata/field-definitions'));
  note('getProfessions', await client.GET('/rest/refdata/professions'));
  note('getSpecialties', await client.GET('/rest/refdata/specialties', { params: { query: { professionId: 101 } } }));
  note('getTitles', await client.GET('/rest/refdata/titles'));
  note('getGenders', await client.GET('/rest/refdata/genders'));

  note('findUserProfile', await client.GET('/rest/user/profile', { headers: user }));
  note('updateUserProfile', await client.PUT('/rest/user/profile', { headers: user, body: { uId: 2001, uInterests: 'Heart failure clinics' } }));
  note('getUserAddresses', await client.GET('/rest/user/addresses', { headers: user }));
  note('updateUserAddressByAddressUUID', await client.PUT('/rest/user/addresses/{addressUUID}', {
    headers: user,
    params: { path: { addressUUID: 'a0000000-0000-4000-8000-000000002002' } },
    body: { uuid: 'a0000000-0000-4000-8000-000000002002', postCode: '2010' },
  }));
  const created = note('createUserAddress', await client.POST('/rest/user/addresses', {
    headers: user,
    body: { typeCode: 'O', name: 'Holiday house', city: 'Byron Bay', stateCode: 'NSW', countryCode: 'au' },
  }));
  note('deleteUserAddressByAddressUUID', await client.DELETE('/rest/user/addresses/{addressUUID}', { headers: user, params: { path: { addressUUID: created.data!.uuid } } }));
  const consents = note('getEConsents', await client.GET('/rest/user/econsents', { headers: user, params: { query: { type: 'C', companyId: 1001 } } }));
  note('setEConsent', await client.PUT('/rest/user/econsents/{consentUUID}', {
    headers: user,
    params: { path: { consentUUID: consents.data![1].consentUUID } },
    body: { consentGiven: true },
  }));
  note('getEConsentsE', await client.GET('/rest/user/econsents', { headers: user, params: { query: { type: 'E', eventUUID: 'e0000000-0000-4000-8000-000000000001' } } }));

  const dir = 'd0000000-0000-4000-8000-000000001001';
  note('getAddressesForDirectoryContact', await client.GET('/rest/smartdirectory/{directoryUUID}/contactRecord/addresses', { headers: user, params: { path: { directoryUUID: dir } } }));
  note('updateAddressForDirectoryContact', await client.PUT('/rest/smartdirectory/{directoryUUID}/contactRecord/addresses/{addressUUID}', {
    headers: user,
    params: { path: { directoryUUID: dir, addressUUID: 'a0000000-0000-4000-8000-000000003001' } },
    body: { uuid: 'a0000000-0000-4000-8000-000000003001', phone: '+61 2 9000 0000' },
  }));
  note('copyAddressesFromUserToDirectoryContact', await client.POST('/rest/smartdirectory/{directoryUUID}/contactRecord/addresses/copyFromUser', {
    headers: user,
    params: { path: { directoryUUID: dir } },
    body: { addressUUIDs: ['a0000000-0000-4000-8000-000000002002'] },
  }));

  note('getRecommendedEntitiesForUser', await client.POST('/rest/user/recommended/entities', { headers: user, body: { version: 2, entityType: ['company'] } }));
  note('getRecommendedCriteriaForEntity', await client.POST('/rest/user/recommended/entityCriteria', { headers: user, body: { version: 1, entityType: 'company', entityId: '1002' } }));
  note('requestConnection', await client.POST('/rest/user/connections', { headers: user, body: { companyId: 1002 } }));
  note('getUserConnections', await client.GET('/rest/user/connections', { headers: user }));
  note('createMembershipDetails', await client.POST('/rest/company/membership/details', {
    headers: { 'x-service-company-api-key': '5e0c1a52-7d4b-4c8e-9f1a-000000001001' },
    body: { userId: 2001, membershipId: 'NWH-000123', status: 'Active' },
  }));

  note('findEventsForUserAndCompany', await client.GET('/rest/user/mi/{cId}/events', { headers: user, params: { path: { cId: 1001 }, query: { version: 1 } } }));
  note('getEventsPage2', await client.GET('/rest/user/mi/{cId}/events', { headers: user, params: { path: { cId: 1001 }, query: { version: 1, pageNum: 2 } } }));
  note('getUserNotifications', await client.GET('/rest/user/notifications', { headers: user, params: { query: { version: 1 } } }));
  note('markNotificationRead', await client.PUT('/rest/user/notifications/{notificationId}/read', { headers: user, params: { path: { notificationId: 6004 } } }));
  note('getUnreadNotifications', await client.GET('/rest/user/notifications', { headers: user, params: { query: { version: 1, unreadOnly: true } } }));

  const cara = note('caraToken', await client.POST('/as/token.oauth2', {
    body: { grant_type: 'password', scope: 'sso', client_id: 'demo-mobile', client_secret: 'demo-mobile-secret', username: 'cara@demo.example', password: 'Demo-Passw0rd!' },
    ...form,
  }));
  const caraLogin = note('caraLogin', await client.POST('/rest/user/login', { headers: { Authorization: 'Bearer ' + cara.data!.access_token } }));
  const admin = { 'x-service-authtoken': caraLogin.data!.authToken };
  note('sendNotification', await client.POST('/rest/notification/send', {
    headers: admin,
    body: { broadcastType: 'GT', companyId: 1001, valueIds: ['1101'], message: 'Ward meeting moved to 3 pm.' },
  }));
  note('getSentNotifications', await client.GET('/rest/notification/sent', { headers: admin, params: { query: { version: 1, broadcastType: 'GT', companyId: 1001 } } }));
  note('getSentScheduledNotifications', await client.GET('/rest/notification/scheduled/sent', { headers: admin, params: { query: { version: 1, broadcastType: 'GT', companyId: 1001 } } }));
  note('getCompanyConnections', await client.GET('/rest/company/{companyId}/connections', { headers: admin, params: { path: { companyId: 1001 } } }));

  // Pat (no connections) asks to join Northwind: Cara declines, Pat asks again, Cara approves.
  const patTokens = note('patToken', await client.POST('/as/token.oauth2', {
    body: { grant_type: 'password', scope: 'sso', client_id: 'demo-mobile', client_secret: 'demo-mobile-secret', username: 'pat@demo.example', password: 'Demo-Passw0rd!' },
    ...form,
  }));
  const patLogin = note('patLogin', await client.POST('/rest/user/login', { headers: { Authorization: 'Bearer ' + patTokens.data!.access_token } }));
  const pat = { 'x-service-authtoken': patLogin.data!.authToken };
  const asked = note('patRequestConnection', await client.POST('/rest/user/connections', { headers: pat, body: { companyId: 1001 } }));
  const decision = { path: { companyId: 1001, userId: asked.data!.userId } };
  note('declineConnection', await client.POST('/rest/company/{companyId}/connections/{userId}/decline', { headers: admin, params: decision }));
  note('patRequestAgain', await client.POST('/rest/user/connections', { headers: pat, body: { companyId: 1001 } }));
  note('approveConnection', await client.POST('/rest/company/{companyId}/connections/{userId}/approve', { headers: admin, params: decision }));

  const group = note('createSupportGroup', await client.POST('/rest/company/support-group', {
    headers: { ...admin, 'x-service-company-api-key': '5e0c1a52-7d4b-4c8e-9f1a-000000001001' },
    body: {
      companyId: 1001,
      supportGroupPrefix: 'HF',
      supportGroupName: 'Heart Failure Support',
      countryCode: 'AU',
      stateCode: 'NSW',
      teamAdminUserEmails: 'olivia@demo.example',
      directoryType: 'UNRESTRICTED',
      directoryOrder: 'FL',
      directoryFieldIds: '3,9',
      directoryConsents: JSON.stringify([{ consentType: 'DS', name: 'Directory listing', desc: 'List me in the support group directory.', required: true }]),
    },
    bodySerializer: fixtures.multipart,
  }));
  note('downloadSupportGroupQrCode', await client.GET('/rest/company/support-group/qrcodes/{qrCodeId}/image', {
    headers: admin,
    params: { path: { qrCodeId: group.data!.qrCodeId } },
    parseAs: 'arrayBuffer',
  }));

  const entry = note('createSmartEntry', await client.POST('/rest/smartlib/smartentry', {
    headers: user,
    body: { smartLibId: 3001, smartEntryType: 'URL', smartEntryName: 'Heart Foundation guide (generated client)', smartEntryUrlLink: 'https://www.heartfoundation.org.au', smartEntryTags: [{ smartTagName: 'guidelines' }] },
  }));
  note('updateSmartEntryAIIngestionFailure', await client.PUT('/rest/smartlib/smartentry/{smartEntryId}/ai-ingestion-failure', {
    headers: { 'x-api-key': 'demo-ingestion-token' },
    params: { path: { smartEntryId: entry.data!.smartEntryId } },
    body: { smartlibId: 3001, cId: 1001, aiIngestionError: 'timeout' },
  }));
  note('uploadSmartFile', await client.POST('/rest/smartlib/upload/file', {
    headers: user,
    body: { file: 'getting-started.pdf' },
    bodySerializer: fixtures.multipart,
  }));
  note('uploadTileImage', await client.POST('/rest/smartlib/upload/tile', { headers: user, body: { file: 'tile.png' }, bodySerializer: fixtures.multipart }));
  const tile = entry.data!.smartFiles.find((f) => f.smartFileType === 'THMB')!;
  note('downloadSmartFile', await client.GET('/rest/smartlib/files/{smartFileId}/content', {
    headers: user,
    params: { path: { smartFileId: tile.smartFileId } },
    parseAs: 'arrayBuffer',
  }));

  note('getAuthSession', await client.GET('/rest/user/session', { headers: user }));
  note('markAllNotificationsRead', await client.PUT('/rest/user/notifications/read', { headers: user }));
  note('getVapidPublicKey', await client.GET('/rest/user/push-subscriptions/vapid-public-key', { headers: user }));
  const subscription = { endpoint: 'https://push.example.org/send/olivia-phone', expirationTime: null, keys: fixtures.pushKeys };
  note('subscribePushNotifications', await client.POST('/rest/user/push-subscriptions', { headers: user, body: subscription }));
  note('unsubscribePushNotifications', await client.DELETE('/rest/user/push-subscriptions', { headers: user, params: { query: { endpoint: subscription.endpoint } } }));
  note('badCountryCode', await client.GET('/rest/refdata/timezones', { params: { query: { countryCode: 'aus' } } }));
  note('noToken', await client.GET('/rest/user/profile'));
  note('logout', await client.POST('/rest/user/logout', { headers: user }));
  note('loggedOut', await client.GET('/rest/user/profile', { headers: user }));
  note('logoutAgain', await client.POST('/rest/user/logout', { headers: user }));
  return calls;
}
`;

let dir: string;
let doc: any;
type Fixtures = { multipart: (body: Record<string, unknown>) => FormData; pushKeys: { p256dh: string; auth: string } };
let walk: (client: unknown, fixtures: Fixtures) => Promise<{ name: string; status: number; body: any }[]>;

beforeAll(async () => {
  doc = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-client-'));
  fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
  fs.writeFileSync(path.join(dir, 'walk.ts'), CLIENT);
  // Its only imports are types: the compiled module needs nothing but its exports object.
  const js = ts.transpileModule(CLIENT, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2023 } }).outputText;
  const exports: Record<string, unknown> = {};
  (new vm.Script(`(function (exports) {${js}\n})`).runInThisContext() as (e: object) => void)(exports);
  walk = exports.walk as typeof walk;
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('the client generated by openapi-typescript type-checks (strict) with openapi-fetch', () => {
  const fetchTypes = path.join(root, 'node_modules/openapi-fetch/dist/index.d.mts');
  const program = ts.createProgram([path.join(dir, 'walk.ts')], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2023,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    types: [],
    paths: { 'openapi-fetch': [fetchTypes] },
  });
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
    return `${where ? `walk.ts:${where.line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  expect(problems).toEqual([]);
});

it('the generated client runs the getting-started walk-through: every call answers as the page shows', async () => {
  const client = createClient({ baseUrl: t.baseUrl });
  // What each call sent, in call order (one request a call): the operation, its path and query
  // parameters and its JSON body, for the examples.
  const sent: Sent[] = [];
  client.use({
    async onRequest({ request, schemaPath, params }) {
      const text = request.headers.get('content-type')?.includes('application/json') ? await request.clone().text() : '';
      sent.push({
        method: request.method.toLowerCase(),
        path: schemaPath,
        parameters: { ...params.path, ...params.query },
        body: text ? JSON.parse(text) : undefined,
      });
      return undefined;
    },
  });
  // The binary parts the walk names by file name.
  const files: Record<string, Blob> = {
    'getting-started.pdf': new Blob(['%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'], { type: 'application/pdf' }),
    'tile.png': new Blob([new Uint8Array(await png(64, 64, '#c0392b'))], { type: 'image/png' }),
  };
  const multipart = (body: Record<string, unknown>) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(body)) {
      if (value === undefined || value === null) continue;
      if (typeof value === 'string' && files[value]) form.append(name, files[value], value);
      else form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
    }
    return form;
  };
  // A browser's subscription keys: the user agent's of RFC 8291's example (section 5).
  const pushKeys = {
    p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
    auth: 'BTBZMqHH6r4Tts7J_aSIgg',
  };
  const calls = await walk(client, { multipart, pushKeys });
  const by = Object.fromEntries(calls.map((c) => [c.name, c]));
  expect(calls.map((c) => [c.name, c.status])).toEqual([
    ['getLoginScheme', 200],
    ['token', 200],
    ['refresh', 200],
    ['badGrant', 400],
    ['loginUser', 200],
    ['createSsoToken', 200],
    ['getAllTimezones', 200],
    ['getConditions', 200],
    ['getConditionsVersion', 200],
    ['getAssessmentForms', 200],
    ['getCountries', 200],
    ['getStates', 200],
    ['getFieldDefinitions', 200],
    ['getProfessions', 200],
    ['getSpecialties', 200],
    ['getTitles', 200],
    ['getGenders', 200],
    ['findUserProfile', 200],
    ['updateUserProfile', 200],
    ['getUserAddresses', 200],
    ['updateUserAddressByAddressUUID', 200],
    ['createUserAddress', 200],
    ['deleteUserAddressByAddressUUID', 204],
    ['getEConsents', 200],
    ['setEConsent', 200],
    ['getEConsentsE', 200],
    ['getAddressesForDirectoryContact', 200],
    ['updateAddressForDirectoryContact', 200],
    ['copyAddressesFromUserToDirectoryContact', 200],
    ['getRecommendedEntitiesForUser', 200],
    ['getRecommendedCriteriaForEntity', 200],
    ['requestConnection', 200],
    ['getUserConnections', 200],
    ['createMembershipDetails', 200],
    ['findEventsForUserAndCompany', 200],
    ['getEventsPage2', 200],
    ['getUserNotifications', 200],
    ['markNotificationRead', 204],
    ['getUnreadNotifications', 200],
    ['caraToken', 200],
    ['caraLogin', 200],
    ['sendNotification', 200],
    ['getSentNotifications', 200],
    ['getSentScheduledNotifications', 200],
    ['getCompanyConnections', 200],
    ['patToken', 200],
    ['patLogin', 200],
    ['patRequestConnection', 200],
    ['declineConnection', 200],
    ['patRequestAgain', 200],
    ['approveConnection', 200],
    ['createSupportGroup', 200],
    ['downloadSupportGroupQrCode', 200],
    ['createSmartEntry', 200],
    ['updateSmartEntryAIIngestionFailure', 200],
    ['uploadSmartFile', 200],
    ['uploadTileImage', 200],
    ['downloadSmartFile', 200],
    ['getAuthSession', 200],
    ['markAllNotificationsRead', 200],
    ['getVapidPublicKey', 200],
    ['subscribePushNotifications', 201],
    ['unsubscribePushNotifications', 204],
    ['badCountryCode', 400],
    ['noToken', 401],
    ['logout', 204],
    ['loggedOut', 401],
    ['logoutAgain', 401],
  ]);
  await recordOrCheckExamples(
    calls.map((c, i) => ({ ...c, request: sent[i] })),
    doc,
  );
  expect(by.token.body).toMatchObject({ token_type: 'Bearer', expires_in: expect.any(Number) });
  expect(by.badGrant.body).toEqual({ error: 'invalid_grant', error_description: 'The username or password is incorrect.' });
  expect(by.findUserProfile.body).toMatchObject({ uId: 2001, uFirstName: 'Olivia' });
  expect(by.getRecommendedEntitiesForUser.body.map((e: { entityId: string }) => e.entityId)).toEqual(['1007', '1002', '1003']);
  expect(by.findEventsForUserAndCompany.body).toHaveLength(20);
  expect(by.getEventsPage2.body).toHaveLength(5);
  expect(by.badCountryCode.body).toMatchObject({ errorCode: 'WSInvalidParameterException', field: 'countryCode' });
  expect(by.noToken.body).toMatchObject({ errorCode: 'WSInvalidAuthTokenException' });
  expect(by.createSsoToken.body).toMatchObject({ audience: 'demo-partner', ssoToken: expect.any(String) });
  expect(by.setEConsent.body).toMatchObject({ companyId: 1001, consentTypeCode: 'C' });
  expect(Object.keys(by.setEConsent.body)).not.toContain('consentGiven');
  expect([by.declineConnection.body, by.approveConnection.body]).toMatchObject([
    { companyId: 1001, userId: 2005, status: 'rejected', rejectionReason: 'declined' },
    { companyId: 1001, userId: 2005, status: 'accepted' },
  ]);
  expect(by.createSupportGroup.body).toMatchObject({
    productName: 'HF-AU-NSW Heart Failure Support',
    teamAdminUserEmails: ['olivia@demo.example'],
  });
  expect(new Uint8Array(by.downloadSupportGroupQrCode.body).subarray(1, 4)).toEqual(new TextEncoder().encode('PNG'));
  expect(by.uploadTileImage.body).toEqual({ tempImageName: expect.stringMatching(/\.png$/) });
  expect(by.downloadSmartFile.body.byteLength).toBeGreaterThan(0);
  expect(by.subscribePushNotifications.body).toEqual({
    endpoint: 'https://push.example.org/send/olivia-phone',
    registered: expect.any(Number),
  });
  expect(by.logoutAgain.body).toMatchObject({ errorCode: 'WSInvalidAuthTokenException' });
});

const EXAMPLES_FILE = path.join(root, 'src/rest/openapi-examples.json');

/** Lists cut to their first two items: an example, not the data set. */
function cut(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(cut);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cut(v)]));
}

/** A request as the client's middleware saw it. */
interface Sent {
  method: string;
  path: string;
  parameters: Record<string, unknown>;
  body: unknown;
}

/** An operation's recorded examples (src/rest/openapi.ts puts them in the document). */
interface Recorded {
  request?: unknown;
  response?: unknown;
  parameters?: Record<string, unknown>;
  errors?: Record<string, unknown>;
}

/**
 * Each REST operation's examples in the document, from the calls of the walk: the first successful
 * call's JSON body and answer, each path and query parameter's first value in a successful call,
 * and the first JSON answer of each error status. With RECORD_OPENAPI_EXAMPLES=1 they are written
 * to src/rest/openapi-examples.json; otherwise the committed ones must still name operations,
 * parameters and statuses of the document and fit their schemas. The token endpoint's are
 * written by hand (openapi-token.ts).
 */
async function recordOrCheckExamples(calls: { name: string; status: number; body: unknown; request: Sent }[], document: any) {
  const operations = new Map<string, any>();
  for (const [p, ops] of Object.entries<any>(document.paths))
    for (const op of Object.values<any>(ops)) if (op?.operationId && p !== '/as/token.oauth2') operations.set(op.operationId, op);
  if (process.env.RECORD_OPENAPI_EXAMPLES) {
    const found = new Map<string, { success?: Recorded; parameters: Record<string, unknown>; errors: Record<string, unknown> }>();
    for (const c of calls) {
      const op = document.paths[c.request.path]?.[c.request.method];
      if (!operations.has(op?.operationId)) continue;
      const seen = found.get(op.operationId) ?? found.set(op.operationId, { parameters: {}, errors: {} }).get(op.operationId)!;
      const json = op.responses[String(c.status)]?.content?.['application/json'];
      if (c.status >= 300) {
        if (json) seen.errors[c.status] ??= c.body;
        continue;
      }
      for (const [name, value] of Object.entries(c.request.parameters)) if (value !== undefined) seen.parameters[name] ??= value;
      seen.success ??= {
        ...(c.request.body !== undefined ? { request: c.request.body } : {}),
        ...(json ? { response: cut(c.body) } : {}),
      };
    }
    const examples: Record<string, Recorded> = {};
    for (const [name, { success, parameters, errors }] of found) {
      const example: Recorded = {
        ...success,
        ...(Object.keys(parameters).length ? { parameters } : {}),
        ...(Object.keys(errors).length ? { errors } : {}),
      };
      if (Object.keys(example).length) examples[name] = example;
    }
    const prettier = await import('prettier');
    fs.writeFileSync(EXAMPLES_FILE, await prettier.format(JSON.stringify(examples), { filepath: EXAMPLES_FILE }));
    return;
  }
  const committed = JSON.parse(fs.readFileSync(EXAMPLES_FILE, 'utf8')) as Record<string, Recorded>;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  const problems: string[] = [];
  const check = (where: string, value: unknown, schema: unknown) => {
    if (schema === undefined) return void problems.push(`${where}: not in the document`);
    const validate = ajv.compile({ ...(schema as object), components: document.components });
    if (!validate(value)) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
  };
  for (const [name, example] of Object.entries(committed)) {
    const op = operations.get(name);
    if (!op) {
      problems.push(`${name}: no such operation`);
      continue;
    }
    const success = Object.keys(op.responses).find((s) => s.startsWith('2'))!;
    if (example.request !== undefined) check(`${name} request`, example.request, op.requestBody?.content?.['application/json']?.schema);
    if (example.response !== undefined)
      check(`${name} response`, example.response, op.responses[success].content?.['application/json']?.schema);
    for (const [parameter, value] of Object.entries(example.parameters ?? {}))
      check(`${name} parameter ${parameter}`, value, op.parameters.find((p: any) => p.name === parameter)?.schema);
    for (const [status, value] of Object.entries(example.errors ?? {}))
      check(`${name} ${status}`, value, op.responses[status]?.content?.['application/json']?.schema);
  }
  expect(problems).toEqual([]);
  // Every REST operation of the document has an example.
  expect(Object.keys(committed).sort()).toEqual([...operations.keys()].sort());
}

it('a query string that is not text is 400 on a route without parameters too, as every operation documents', async () => {
  const res = await fetch(`${t.baseUrl}/rest/refdata/titles?x=%FF`);
  expect({ status: res.status, body: await res.json() }).toMatchObject({
    status: 400,
    body: { errorCode: 'WSInvalidParameterException', field: 'x' },
  });
  expect(doc.paths['/rest/refdata/titles'].get.responses['400'].description).toBe('WSInvalidParameterException');
});
