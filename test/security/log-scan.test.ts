// Logs never hold credentials or address contents (issue 11, item 8). Every REST route of the
// route table is driven with a valid call, an invalid body, a malformed JSON body where it
// takes one, and a wrong credential of its kind; the OAuth token endpoint with the right and a
// wrong password and a refresh; GraphQL with an address in its variables; and the internal
// error path (a database constraint that refuses one address, so the error is logged). Then
// every captured log line is scanned for each token, password, secret, key and address string
// used. The scan only counts if the capture holds the request line of every call driven.
import { DEMO, OLIVIA, useTestApp } from '../kit';
import { DEMO_CLIENT, tokenRequest } from '../kit/oauth';
import { SWEEP, sendCall, type Call } from '../kit/route-sweep';
import type { Credential, RouteDef } from '../../src/rest/route';
import { ROUTES } from '../kit/routes';

const CLIENT = { client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.secret };
const PASSWORD = DEMO.password;
const COMPANY_KEY = DEMO.companyApiKey;
const INGESTION = DEMO.ingestionToken;
const { oliviaWork: OLIVIA_WORK, oliviaPersonal: OLIVIA_PERSONAL } = DEMO.addresses;
const DIRECTORY = DEMO.directories.staff;
const CONTACT_ADDRESS = DEMO.contactAddresses.staff;

/** Address contents no log line may hold: each string is used once, on one path. */
const ADDRESSES = {
  created: { street: 'Zyxwv Lane 42', suburb: 'Qoppa Flats', city: 'Vexbridge', postcode: 'ZQ-7731' },
  updated: { street: 'Jumbled Quay 917', suburb: 'Xanthic Rise', city: 'Wyrmford', postcode: 'QX-4402' },
  contact: { street: 'Kvetch Parade 88', suburb: 'Fjord Hollow', city: 'Plumbrook', postcode: 'VZ-1059' },
  graphql: { street: 'Quibble Terrace 7', suburb: 'Nyx Gardens', city: 'Ozmarsh', postcode: 'JX-6620' },
  invalid: { street: 'Brisk Zephyr Row 3', suburb: 'Gloam Vale', city: 'Yarrowdeep', postcode: 'KQ-3318' },
  malformed: { street: 'Waltz Quarry Lane 61', city: 'Hexmoor', postcode: 'ZZ-8846' },
  failing: { street: 'Crux Boom Street 13', suburb: 'Fizzle Downs', city: 'Quandary Cove', postcode: 'XB-5090' },
};
const full = (a: Record<string, string>) => ({ typeCode: 'W', name: 'Scan', stateCode: 'NSW', countryCode: 'AU', ...a });

/** Everything secret used, by what it is. Tokens are added as they are issued. */
const secrets = new Map<string, string>([
  [PASSWORD, 'password'],
  ['Zyxwv-Wrong-Passw0rd!', 'wrong password'],
  ['Zyxwv-Body-Passw0rd!', 'password in a request body'],
  [CLIENT.client_secret, 'client secret'],
  [COMPANY_KEY, 'company API key'],
  [INGESTION, 'system token'],
]);
const WRONG: Record<Exclude<Credential, 'none'>, Record<string, string>> = {
  user: { 'x-service-authtoken': 'zyxwv-wrong-service-token-0001' },
  system: { 'x-api-key': 'zyxwv-wrong-system-token-0002' },
  companyKey: { 'x-service-company-api-key': '5e0c1a52-7d4b-4c8e-9f1a-00000000dead' },
  userAndCompanyKey: {
    'x-service-authtoken': 'zyxwv-wrong-service-token-0003',
    'x-service-company-api-key': '5e0c1a52-7d4b-4c8e-9f1a-00000000beef',
  },
  bearer: { authorization: 'Bearer eyJhbGciOiJFUzI1NiJ9.eyJ6eXh3diI6MX0.enl4d3Ytd3Jvbmctc2lnbmF0dXJl' },
};
for (const headers of Object.values(WRONG))
  for (const v of Object.values(headers)) secrets.set(v.replace(/^Bearer /, ''), 'wrong credential');
for (const [path, a] of Object.entries(ADDRESSES)) for (const [field, v] of Object.entries(a)) secrets.set(v, `address ${field} (${path})`);

function keep(label: string, value: unknown): void {
  expect(typeof value).toBe('string');
  secrets.set(value as string, label);
  // A JWT's signature alone is as good as a secret (and is what a truncated log would keep).
  const parts = (value as string).split('.');
  if (parts.length === 3) secrets.set(parts[2], `${label} (signature)`);
}

const t = useTestApp();
/** Every request sent: its request id and path, and the REST operation it was routed to. */
const driven: { id: string; path: string; operation?: string }[] = [];
let access: string;
let userToken: string;

async function tokenEndpoint(id: string, params: Record<string, string>) {
  driven.push({ id, path: '/as/token.oauth2' });
  return tokenRequest(t, params, { 'x-request-id': id });
}

async function loginUser(id: string, bearer: string): Promise<string> {
  driven.push({ id, path: '/rest/user/login', operation: 'loginUser' });
  const res = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${bearer}`, 'x-request-id': id } });
  expect(res.status).toBe(200);
  keep('service auth token', res.body.authToken);
  return res.body.authToken;
}

it('the token endpoint: a wrong password is refused, the right one and a refresh issue tokens, and loginUser a service token', async () => {
  const password = { grant_type: 'password', scope: 'sso', ...CLIENT, username: 'olivia@demo.example' };
  const wrong = await tokenEndpoint('scan-token-wrong-password', { ...password, password: 'Zyxwv-Wrong-Passw0rd!' });
  expect({ status: wrong.status, error: wrong.body.error }).toEqual({ status: 400, error: 'invalid_grant' });
  const right = await tokenEndpoint('scan-token-password', { ...password, password: PASSWORD });
  expect(right.status).toBe(200);
  keep('access token', right.body.access_token);
  keep('refresh token', right.body.refresh_token);
  const refreshed = await tokenEndpoint('scan-token-refresh', {
    grant_type: 'refresh_token',
    ...CLIENT,
    refresh_token: right.body.refresh_token,
  });
  expect(refreshed.status).toBe(200);
  keep('access token', refreshed.body.access_token);
  keep('refresh token', refreshed.body.refresh_token);
  // A wrong client secret, and the replay of a rotated refresh token.
  const badClient = await tokenEndpoint('scan-token-bad-client', {
    ...password,
    password: PASSWORD,
    client_secret: 'zyxwv-wrong-client-secret',
  });
  secrets.set('zyxwv-wrong-client-secret', 'wrong client secret');
  expect(badClient.status).toBe(401);
  const replay = await tokenEndpoint('scan-token-replay', {
    grant_type: 'refresh_token',
    ...CLIENT,
    refresh_token: right.body.refresh_token,
  });
  expect(replay.status).toBe(400);

  const again = await tokenEndpoint('scan-token-password-2', { ...password, password: PASSWORD });
  access = again.body.access_token;
  keep('access token', access);
  keep('refresh token', again.body.refresh_token);
  userToken = await loginUser('scan-login', access);
});

/** The valid call of a public route (the sweep has none for them). */
const PUBLIC: Record<string, Call> = {
  getLoginScheme: { query: 'email=olivia%40demo.example' },
  getAllTimezones: { query: 'countryCode=au' },
  getStates: { query: 'countryCode=AU' },
};

/** Calls that carry the distinctive address contents; the rest come from the sweep. */
let createdUuid: string;
const OVERRIDES: Record<string, () => Call> = {
  createUserAddress: () => ({ body: { ...full(ADDRESSES.created), typeCode: 'O' } }),
  updateUserAddressByAddressUUID: () => ({ params: { addressUUID: OLIVIA_WORK }, body: { uuid: OLIVIA_WORK, ...ADDRESSES.updated } }),
  deleteUserAddressByAddressUUID: () => ({ params: { addressUUID: OLIVIA_PERSONAL } }),
  updateAddressForDirectoryContact: () => ({
    params: { directoryUUID: DIRECTORY, addressUUID: CONTACT_ADDRESS },
    body: { uuid: CONTACT_ADDRESS, ...ADDRESSES.contact },
  }),
  // The address created above (Olivia's work address is on the contact record already).
  copyAddressesFromUserToDirectoryContact: () => ({ params: { directoryUUID: DIRECTORY }, body: { addressUUIDs: [createdUuid] } }),
  createMembershipDetails: () => ({ body: { userId: OLIVIA, membershipId: 'NWH-000123' } }),
};
/** These must succeed, so their address contents went all the way through. */
const MUST_SUCCEED = [
  'createUserAddress',
  'updateUserAddressByAddressUUID',
  'getUserAddresses',
  'updateAddressForDirectoryContact',
  'copyAddressesFromUserToDirectoryContact',
  'getAddressesForDirectoryContact',
  'deleteUserAddressByAddressUUID',
  'createMembershipDetails',
  'updateSmartEntryAIIngestionFailure',
  'loginUser',
  'createSsoToken',
  'logout',
  'uploadSmartFile',
];

const INVALID_BODY = {
  ...full(ADDRESSES.invalid),
  typeCode: 'Q',
  uuid: 'not-a-uuid',
  password: 'Zyxwv-Body-Passw0rd!',
  smartLibId: 'x',
  companyId: 'x',
  userId: 'x',
  version: 'x',
  body: 42,
};
const MALFORMED = `{"password": "Zyxwv-Body-Passw0rd!", "street": "${ADDRESSES.malformed.street}", "city": "${ADDRESSES.malformed.city}", "postcode": "${ADDRESSES.malformed.postcode}"`;

async function validCall(route: RouteDef): Promise<Call> {
  if (OVERRIDES[route.operation]) return OVERRIDES[route.operation]();
  const sweep = SWEEP[route.operation];
  if (sweep === 'public') return PUBLIC[route.operation] ?? {};
  return typeof sweep.call === 'function' ? sweep.call(t) : sweep.call;
}

function pathOf(route: RouteDef, call: Call): string {
  let path = route.path;
  for (const [k, v] of Object.entries(call.params ?? {})) path = path.replace(`:${k}`, encodeURIComponent(String(v)));
  return path;
}

it('every route of the table, with a valid call, an invalid body, a malformed body and a wrong credential', async () => {
  // logout ends the login its token came from (the OAuth tokens too): it gets a login of its own.
  const own = await tokenEndpoint('scan-token-for-logout', {
    grant_type: 'password',
    scope: 'sso',
    ...CLIENT,
    username: 'olivia@demo.example',
    password: PASSWORD,
  });
  keep('access token', own.body.access_token);
  keep('refresh token', own.body.refresh_token);
  const logoutToken = await loginUser('scan-login-for-logout', own.body.access_token);
  const statuses: Record<string, number> = {};
  /** Answers other than expected, with the cause the service logged for them. */
  const unexpected: unknown[] = [];
  const note = (op: string, kind: string, res: { status: number; body: any }, ok: boolean) => {
    if (!ok)
      unexpected.push({
        op,
        kind,
        status: res.status,
        body: res.body,
        logged: t.logs.find((l) => l.requestId === `scan-${op}-${kind}` && l.level >= 50)?.err?.message,
      });
  };
  for (const route of ROUTES) {
    const op = route.operation;
    const headersFor = (credential: Credential): Record<string, string> => {
      const user = { 'x-service-authtoken': op === 'logout' ? logoutToken : userToken };
      switch (credential) {
        case 'none':
          return {};
        case 'user':
          return user;
        case 'system':
          return { 'x-api-key': INGESTION };
        case 'companyKey':
          return { 'x-service-company-api-key': COMPANY_KEY };
        case 'userAndCompanyKey':
          return { ...user, 'x-service-company-api-key': COMPANY_KEY };
        case 'bearer':
          return { authorization: `Bearer ${access}` };
      }
    };
    const send = async (kind: string, call: Call, headers: Record<string, string>) => {
      const id = `scan-${op}-${kind}`;
      driven.push({ id, path: pathOf(route, call), operation: op });
      return sendCall(t, route, call, { ...headers, 'x-request-id': id });
    };

    const valid = await validCall(route);
    const res = await send('valid', valid, headersFor(route.credential));
    statuses[op] = res.status;
    note(op, 'valid', res, res.status < 500);
    if (op === 'createUserAddress') createdUuid = res.body.uuid;
    if (op === 'loginUser') keep('service auth token', res.body.authToken);
    if (op === 'createSsoToken') keep('SSO token', res.body.ssoToken);

    const hasJsonBody = (route.method === 'POST' || route.method === 'PUT') && !route.multipart;
    const invalid: Call = {
      params: Object.fromEntries(Object.keys(valid.params ?? {}).map((k) => [k, 'not-an-id'])),
      query: valid.query ? 'version=zz&countryCode=zz&email=zz' : undefined,
    };
    if (route.multipart) invalid.multipart = { ...ADDRESSES.invalid, password: 'Zyxwv-Body-Passw0rd!' };
    else if (hasJsonBody) invalid.body = INVALID_BODY;
    const refused = await send('invalid', invalid, headersFor(route.credential));
    note(op, 'invalid', refused, refused.status < 500);
    if (hasJsonBody) {
      // Read by the route once the credential passed: refused (400) where the route takes a body,
      // not read at all where it takes none.
      const id = `scan-${op}-malformed`;
      driven.push({ id, path: pathOf(route, valid), operation: op });
      const malformed = await t.rest(route.method, pathOf(route, valid), {
        headers: { ...headersFor(route.credential), 'content-type': 'application/json', 'x-request-id': id },
        rawBody: MALFORMED,
      });
      note(op, 'malformed', malformed, valid.body === undefined ? malformed.status < 500 : malformed.status === 400);
    }
    if (route.credential !== 'none') {
      const wrong = await send('badcred', valid, WRONG[route.credential]);
      note(op, 'badcred', wrong, wrong.status === 401);
    }
  }
  for (const op of MUST_SUCCEED) note(op, 'valid', { status: statuses[op], body: 'expected 2xx' }, statuses[op] < 300);
  expect(unexpected).toEqual([]);
});

const ADDRESS_FIELDS = 'uuid street suburb city postcode';

it('GraphQL: an address in the variables of a valid and of an invalid operation', async () => {
  const create = `mutation scanAddress($input: AddressInput!) { createUserAddress(input: $input) { ${ADDRESS_FIELDS} } }`;
  driven.push({ id: 'scan-graphql-valid', path: '/graphql' });
  const ok = await t.gql(
    create,
    { input: full(ADDRESSES.graphql) },
    { 'x-service-authtoken': userToken, 'x-request-id': 'scan-graphql-valid' },
  );
  expect(ok.body.data.createUserAddress).toMatchObject({ street: ADDRESSES.graphql.street, postcode: ADDRESSES.graphql.postcode });
  driven.push({ id: 'scan-graphql-invalid', path: '/graphql' });
  const bad = await t.gql(
    create,
    { input: { ...full(ADDRESSES.graphql), typeCode: 'Q', street: ADDRESSES.graphql.street.repeat(30) } },
    { 'x-service-authtoken': userToken, 'x-request-id': 'scan-graphql-invalid' },
  );
  expect(bad.body.errors![0].extensions.errorCode).toMatch(/^WS/);
  driven.push({ id: 'scan-graphql-wrong-token', path: '/graphql' });
  const anonymous = await t.gql(
    create,
    { input: full(ADDRESSES.graphql) },
    { 'x-service-authtoken': WRONG.user['x-service-authtoken'], 'x-request-id': 'scan-graphql-wrong-token' },
  );
  expect(anonymous.body.errors![0].extensions.errorCode).toBe('WSInvalidAuthTokenException');
});

it('an internal error (the database refuses one address) answers WSInternalException and is logged, through REST and GraphQL', async () => {
  const conn = t.orm.em.fork().getConnection();
  await conn.execute(
    `alter table user_address add constraint log_scan_refuses check (street is distinct from '${ADDRESSES.failing.street}')`,
  );
  try {
    driven.push({ id: 'scan-internal-rest', path: '/rest/user/addresses', operation: 'createUserAddress' });
    const rest = await t.rest('POST', '/rest/user/addresses', {
      headers: { 'x-service-authtoken': userToken, 'x-request-id': 'scan-internal-rest' },
      body: full(ADDRESSES.failing),
    });
    expect(rest).toMatchObject({ status: 500, body: { errorCode: 'WSInternalException' } });
    driven.push({ id: 'scan-internal-graphql', path: '/graphql' });
    const gql = await t.gql(
      `mutation scanFailing($input: AddressInput!) { createUserAddress(input: $input) { uuid } }`,
      { input: full(ADDRESSES.failing) },
      { 'x-service-authtoken': userToken, 'x-request-id': 'scan-internal-graphql' },
    );
    expect(gql.body.errors![0].extensions.errorCode).toBe('WSInternalException');
  } finally {
    await conn.execute('alter table user_address drop constraint log_scan_refuses');
  }
  // The cause is logged (that is the line most likely to dump the failing values).
  expect(t.logs).toContainEqual(
    expect.objectContaining({ requestId: 'scan-internal-rest', msg: 'unhandled error in REST operation', level: 50 }),
  );
  expect(t.logs).toContainEqual(
    expect.objectContaining({ requestId: 'scan-internal-graphql', msg: 'unhandled error in GraphQL operation', level: 50 }),
  );
  const cause = JSON.stringify(t.logs.find((l) => l.requestId === 'scan-internal-rest' && l.level === 50));
  expect(cause).toContain('log_scan_refuses');
});

it('the capture holds the request line of every call driven', () => {
  expect(driven.length).toBeGreaterThan(3 * ROUTES.length);
  const lines = new Map(t.logs.filter((l) => l.msg === 'request').map((l) => [l.requestId, l]));
  const missing = driven.filter((d) => {
    const line = lines.get(d.id);
    return !line || line.path !== d.path || (d.operation !== undefined && line.operation !== d.operation);
  });
  expect(missing).toEqual([]);
  // Every route of the table was driven, each under its own operation name.
  for (const route of ROUTES) expect(lines.get(`scan-${route.operation}-valid`)?.operation).toBe(route.operation);
});

it('no log line holds a token, password, client secret, API key, system token or address content', () => {
  expect(secrets.size).toBeGreaterThan(40);
  expect([...secrets.values()].filter((label) => /token/.test(label)).length).toBeGreaterThan(10);
  const lines = t.logs.map((l) => JSON.stringify(l));
  const leaks: { what: string; msg: string; line: string }[] = [];
  for (const [secret, what] of secrets) {
    for (const line of lines) if (line.includes(secret)) leaks.push({ what, msg: JSON.parse(line).msg, line: line.slice(0, 300) });
  }
  expect(leaks).toEqual([]);
});
