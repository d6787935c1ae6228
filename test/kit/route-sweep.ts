// The authorization sweep's table: for every route of the route table, a valid call in the demo
// tenant (or 'public'), and what another user gets on it. Shared by the authorization sweep
// (test/security/authorization.test.ts) and the log scan (test/security/log-scan.test.ts).
import type { TestApp } from './app';
import type { Reply } from './http';
import type { RouteDef } from './src';
import { CARA, DEMO, NORTHWIND, OLIVIA } from './demo';
import { connect, createUser, createUserAddress } from './factories';
import { SUPPORT_GROUP_PATH, supportGroupForm } from './support-group';

const { smartLibId: LIBRARY, welcomePackEntryId: ENTRY } = DEMO.library;
const { southgate: SOUTHGATE } = DEMO.companies;
const OLIVIA_WORK = DEMO.addresses.oliviaWork;
const DIRECTORY = DEMO.directories.staff;
const CONTACT_ADDRESS = DEMO.contactAddresses.staff;

export interface Call {
  params?: Record<string, string | number>;
  query?: string;
  body?: unknown;
  /** Multipart form: these text parts plus one small PDF file part. */
  multipart?: Record<string, string>;
}

export interface Sweep {
  /** A call the rightful caller may make; a function makes a fresh fixture for each test that sends it. */
  call: Call | ((t: TestApp) => Promise<Call>);
  /** Another user (Pat) on data that is not theirs: expected status and identifier. */
  otherUser?: { status: number; errorCode: string } | { status: 200; body: unknown };
  /** Who may make the call (Olivia unless said): after Pat's refusal, the same call by them answers 2xx. */
  owner?: number;
}

const smartFileId = async (t: TestApp) =>
  (await t.sql('select min(smart_file_id) as id from smart_file where smart_entry_id = ?', [ENTRY]))[0].id;
/**
 * A QR code of a support group made for the call: Cara (Northwind's administrator) creates it with
 * Olivia as its team administrator, so Olivia may download it and Pat may not. A failed set-up
 * fails the test: an id that does not exist would answer Pat's call 404 whatever the rule.
 */
const qrCodeId = async (t: TestApp) => {
  const headers = { 'x-service-company-api-key': DEMO.companyApiKey };
  const res = await t.as(CARA).multipart(SUPPORT_GROUP_PATH, supportGroupForm(), headers);
  if (res.status !== 200 || typeof res.body?.qrCodeId !== 'number')
    throw new Error(`the sweep's support group was not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.qrCodeId as number;
};
/** A pending connection request of a new user to Northwind, which Cara may approve or decline. */
const pendingRequest = async (t: TestApp) => {
  const user = await createUser(t.orm);
  await connect(t.orm, user.uId, NORTHWIND, 'pending');
  return { params: { companyId: NORTHWIND, userId: user.uId } };
};

const forbidden = { status: 403, errorCode: 'WSInsufficientPrivilegesException' };
/** A browser's subscription JSON (a real P-256 point: the field rules run before the credential check). */
const PUSH_SUBSCRIPTION = {
  endpoint: 'https://push.example.org/sweep',
  keys: {
    p256dh: 'BJK5QiDo1C-svp3GygdSRbkrJI-wtmys-SlGu02KsA-QFh9Lai2g_EpPtZ6hJbcuDaVn3uFLw9Vypc1smofXwsA',
    auth: '776wqJmK1ciCEJgF0LX7sg',
  },
};

export const SWEEP: Record<string, Sweep | 'public'> = {
  getLoginScheme: 'public',
  getAllTimezones: 'public',
  getConditions: 'public',
  getConditionsVersion: 'public',
  getAssessmentForms: 'public',
  getCountries: 'public',
  getStates: 'public',
  getFieldDefinitions: 'public',
  getProfessions: 'public',
  getSpecialties: 'public',
  getTitles: 'public',
  getGenders: 'public',
  uploadSmartFile: { call: { multipart: {} } },
  uploadTileImage: { call: { multipart: {} } },
  createSmartEntry: {
    call: { body: { smartLibId: LIBRARY, smartEntryType: 'URL', smartEntryName: `Sweep entry`, smartEntryUrlLink: 'https://example.org' } },
    otherUser: forbidden,
  },
  updateSmartEntryAIIngestionFailure: {
    call: { params: { smartEntryId: ENTRY }, body: { smartlibId: LIBRARY, cId: NORTHWIND, aiIngestionError: 'boom' } },
  },
  downloadSmartFile: {
    call: async (t) => ({ params: { smartFileId: await smartFileId(t) } }),
    otherUser: { status: 404, errorCode: 'WSRecordNotFoundException' },
  },
  loginUser: { call: {} },
  logout: { call: {} },
  createSsoToken: { call: {} },
  getAuthSession: { call: {} },
  findUserProfile: { call: {} },
  updateUserProfile: { call: { body: { uId: OLIVIA, uFirstName: 'Sweep' } }, otherUser: forbidden },
  getUserAddresses: { call: {} },
  createUserAddress: { call: { body: { typeCode: 'O', name: 'Sweep' } } },
  updateUserAddressByAddressUUID: {
    call: { params: { addressUUID: OLIVIA_WORK }, body: { uuid: OLIVIA_WORK, city: 'Sweepville' } },
    otherUser: { status: 404, errorCode: 'WSAddressNotFoundException' },
  },
  deleteUserAddressByAddressUUID: {
    call: async (t) => ({ params: { addressUUID: (await createUserAddress(t.orm, OLIVIA, { typeCode: 'O' })).uuid } }),
    otherUser: { status: 404, errorCode: 'WSAddressNotFoundException' },
  },
  getEConsents: { call: { query: `type=C&companyId=${NORTHWIND}` } },
  // A consent of Olivia's directory: Pat, outside its team, is told no such consent exists.
  setEConsent: {
    call: async (t) => {
      const rows = await t.sql('select consent_uuid from consent_definition where directory_uuid = ? order by sort_order limit 1', [
        DIRECTORY,
      ]);
      return { params: { consentUUID: rows[0].consent_uuid }, body: { consentGiven: true } };
    },
    otherUser: { status: 404, errorCode: 'WSRecordNotFoundException' },
  },
  getAddressesForDirectoryContact: {
    call: { params: { directoryUUID: DIRECTORY } },
    otherUser: { status: 403, errorCode: 'WSUserNotInSmartDirectoryException' },
  },
  updateAddressForDirectoryContact: {
    call: { params: { directoryUUID: DIRECTORY, addressUUID: CONTACT_ADDRESS }, body: { uuid: CONTACT_ADDRESS, city: 'Sweepville' } },
    otherUser: { status: 403, errorCode: 'WSUserNotInSmartDirectoryException' },
  },
  // A new address: Olivia's work address is on her contact record already (copying it again is 409).
  copyAddressesFromUserToDirectoryContact: {
    call: async (t) => ({
      params: { directoryUUID: DIRECTORY },
      body: { addressUUIDs: [(await createUserAddress(t.orm, OLIVIA, { typeCode: 'O' })).uuid] },
    }),
    otherUser: { status: 403, errorCode: 'WSUserNotInSmartDirectoryException' },
  },
  findEventsForUserAndCompany: { call: { params: { cId: NORTHWIND }, query: 'version=1' }, otherUser: { status: 200, body: [] } },
  sendNotification: {
    call: { body: { broadcastType: 'GT', companyId: NORTHWIND, valueIds: [String(DEMO.teamId)], message: 'Sweep' } },
    otherUser: forbidden,
    owner: CARA,
  },
  getSentNotifications: { call: { query: `version=1&broadcastType=GT&companyId=${NORTHWIND}` }, otherUser: forbidden, owner: CARA },
  getSentScheduledNotifications: {
    call: { query: `version=1&broadcastType=GT&companyId=${NORTHWIND}` },
    otherUser: forbidden,
    owner: CARA,
  },
  getUserNotifications: { call: { query: 'version=1' }, otherUser: { status: 200, body: [] } },
  markNotificationRead: {
    call: { params: { notificationId: DEMO.sentIds.event } },
    otherUser: { status: 404, errorCode: 'WSNotificationNotFoundException' },
  },
  markAllNotificationsRead: { call: {}, otherUser: { status: 200, body: { updated: 0 } } },
  getVapidPublicKey: { call: {} },
  subscribePushNotifications: { call: { body: PUSH_SUBSCRIPTION } },
  unsubscribePushNotifications: { call: { query: `endpoint=${encodeURIComponent(PUSH_SUBSCRIPTION.endpoint)}` } },
  getRecommendedEntitiesForUser: { call: { body: { version: 2, entityType: ['company'] } } },
  getRecommendedCriteriaForEntity: { call: { body: { version: 1, entityType: 'company', entityId: String(SOUTHGATE) } } },
  requestConnection: { call: { body: { companyId: SOUTHGATE } } },
  getUserConnections: { call: {} },
  getCompanyConnections: { call: { params: { companyId: NORTHWIND } }, otherUser: forbidden, owner: CARA },
  approveConnection: { call: pendingRequest, otherUser: forbidden, owner: CARA },
  declineConnection: { call: pendingRequest, otherUser: forbidden, owner: CARA },
  createMembershipDetails: { call: { body: { userId: OLIVIA, membershipId: 'M-1' } } },
  createSupportGroup: {
    call: {
      multipart: {
        companyId: String(NORTHWIND),
        supportGroupPrefix: 'SWEEP',
        supportGroupName: 'Sweep group',
        teamAdminUserEmails: 'olivia@demo.example',
        directoryType: 'UNRESTRICTED',
        directoryOrder: 'FL',
        directoryFieldIds: '3,9',
        directoryConsents: JSON.stringify([{ consentType: 'DS', name: 'Listing', desc: 'List me.', required: true }]),
      },
    },
    otherUser: forbidden,
    owner: CARA,
  },
  downloadSupportGroupQrCode: {
    call: async (t) => ({ params: { qrCodeId: await qrCodeId(t) } }),
    otherUser: { status: 404, errorCode: 'WSRecordNotFoundException' },
  },
};

/** Sends a sweep call to the route with these headers; multipart calls carry one small PDF file part when they name no text part. */
export function sendCall(t: TestApp, route: RouteDef, call: Call, headers: Record<string, string>): Promise<Reply> {
  let path = route.path;
  for (const [k, v] of Object.entries(call.params ?? {})) path = path.replace(`:${k}`, encodeURIComponent(String(v)));
  if (call.query) path += `?${call.query}`;
  if (call.multipart) {
    const parts = Object.keys(call.multipart).length
      ? call.multipart
      : { file: { content: Buffer.from('%PDF-1.4\n%%EOF\n'), filename: 'x.pdf', type: 'application/pdf' } };
    return t.multipart(path, parts, headers);
  }
  return t.rest(route.method, path, { headers, body: call.body ?? (route.method === 'GET' || route.method === 'DELETE' ? undefined : {}) });
}
