// `_entities` applies the rules of the root operations (docs/security.md, "Federation
// references"): what a caller could not read through the root fields resolves to null, for an
// anonymous caller, a logged-in user (Olivia, logged in through the token endpoint and
// loginUser), other users, and the router's system token of the `federation` scope. Every
// answer is the exact body /graphql returns, against the real database of the demo tenant.
import crypto from 'node:crypto';
import {
  createCompany,
  createEvent,
  createSystemToken,
  createTeam,
  createUser,
  DEMO,
  ENTITY_FIELDS,
  grantCompanyRole,
  PAT,
  useTestApp,
  type Caller,
  type Client,
} from '../kit';
import { passwordParams, tokenRequest } from '../kit/oauth';

const FEDERATION_TOKEN = `federation-${crypto.randomUUID()}`;
const t = useTestApp();
const ROUTER = t.with({ 'x-api-key': FEDERATION_TOKEN });
const INGESTION = t.with({ 'x-api-key': DEMO.ingestionToken });
const ANONYMOUS = t;
const pat = t.as(PAT);
const { northwind, southgate, hidden, closed } = DEMO.companies;
const { smartLibId: DEMO_LIBRARY, welcomePackEntryId: WELCOME_PACK } = DEMO.library;

const QUERY = `query($r:[_Any!]!){ _entities(representations:$r){ ${ENTITY_FIELDS} } }`;

const company = (companyId: number) => ({ __typename: 'Company', companyId });
const user = (uId: number) => ({ __typename: 'User', uId });
const event = (eventUUID: string) => ({ __typename: 'Event', eventUUID });
const library = (smartLibId: number) => ({ __typename: 'SmartLibrary', smartLibId });
const entry = (smartEntryId: number) => ({ __typename: 'SmartEntry', smartEntryId });
const directory = (directoryUUID: string) => ({ __typename: 'SmartDirectory', directoryUUID });

/** What each demo entity resolves to when visible. */
const NORTHWIND = { companyId: northwind, companyName: 'Northwind Health' };
const SOUTHGATE = { companyId: southgate, companyName: 'Southgate Clinics' };
const HIDDEN = { companyId: hidden, companyName: 'Hidden Harbour' };
const CLOSED = { companyId: closed, companyName: 'Closed Co' };
const OLIVIA = { uId: DEMO.users.olivia, uFirstName: 'Olivia' };
const CARA = { uId: DEMO.users.cara, uFirstName: 'Cara' };
const EVENT_1 = { eventUUID: DEMO.eventUuidOf(1), eName: 'Clinical skills workshop #1' };
const EVENT_2 = { eventUUID: DEMO.eventUuidOf(2), eName: 'Research evening #2' };
const LIBRARY = { smartLibId: DEMO_LIBRARY, smartLibName: 'Northwind Health library' };
const WELCOME = { smartEntryId: WELCOME_PACK, smartEntryName: 'Welcome pack' };
const STAFF = { directoryUUID: DEMO.directories.staff, directoryName: 'Northwind staff directory' };
const CARDIOLOGY = { directoryUUID: DEMO.directories.cardiology, directoryName: 'Northwind cardiology network' };

/** Olivia, logged in through the token endpoint and loginUser. */
let olivia: Caller;
/** An event of another company, to which Olivia is not invited. */
let strangerEvent: string;
/** An inactive directory of Northwind, and an active one of the inactive Closed Co. */
let inactiveDirectory: string;
let closedCompanyDirectory: string;

async function entities(representations: object[], who: Client) {
  const res = await who.gql(QUERY, { r: representations });
  expect(res.status).toBe(200);
  return res.body;
}

/** The errors of an answer as [path index, code], in path order. */
const errorsOf = (body: any) =>
  (body.errors ?? []).map((e: any) => [e.path[1], e.extensions.errorCode]).sort((a: any[], b: any[]) => a[0] - b[0]);

/** An anonymous caller resolves none of the representations, each with WSInvalidAuthTokenException. */
async function expectAnonymousRefused(representations: object[]) {
  const body = await entities(representations, ANONYMOUS);
  expect(body.data).toEqual({ _entities: representations.map(() => null) });
  expect(errorsOf(body)).toEqual(representations.map((_r, i) => [i, 'WSInvalidAuthTokenException']));
}

beforeAll(async () => {
  await createSystemToken(t.orm, ['federation'], { name: 'router', token: FEDERATION_TOKEN });
  // Olivia logs in as the app does: password grant at the token endpoint, then loginUser.
  const tokens = await tokenRequest(t, passwordParams('olivia@demo.example'));
  expect(tokens.status).toBe(200);
  const login = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
  expect(login.status).toBe(200);
  olivia = t.as(login.body.authToken);
  strangerEvent = (await createEvent(t.orm, southgate)).eventUUID;
  const [{ team_id: staffTeam }] = await t.sql('select team_id from smart_directory where directory_uuid = ?', [DEMO.directories.staff]);
  inactiveDirectory = crypto.randomUUID();
  closedCompanyDirectory = crypto.randomUUID();
  const closedTeam = await createTeam(t.orm, closed);
  await t.sql('update company set smart_directory_enabled = true where company_id = ?', [closed]);
  await t.sql(
    `insert into smart_directory (directory_uuid, company_id, team_id, directory_name, directory_type, directory_order, active)
     values (?, ?, ?, 'Retired directory', 'UNRESTRICTED', 'FL', false), (?, ?, ?, 'Closed Co directory', 'UNRESTRICTED', 'FL', true)`,
    [inactiveDirectory, northwind, staffTeam, closedCompanyDirectory, closed, closedTeam.teamId],
  );
});

describe('Company references', () => {
  const reps = [company(northwind), company(hidden), company(closed)];

  it('an anonymous caller resolves none: hidden and inactive companies no longer leak', async () => {
    await expectAnonymousRefused(reps);
  });

  it('Olivia resolves active companies that are not hidden walls; the hidden and the inactive one are null, without an error', async () => {
    const body = await entities(
      [...reps, company(southgate), company(999999), company(1e10), { __typename: 'Company', companyId: 'x' }],
      olivia,
    );
    expect(body).toEqual({ data: { _entities: [NORTHWIND, null, null, SOUTHGATE, null, null, null] } });
  });

  it('the router token resolves the same discoverable companies and never a hidden or inactive one', async () => {
    const body = await entities([...reps, company(southgate)], ROUTER);
    expect(body).toEqual({ data: { _entities: [NORTHWIND, null, null, SOUTHGATE] } });
  });

  it('a system token without the federation scope is refused', async () => {
    const body = await entities(reps, INGESTION);
    expect(body.data).toEqual({ _entities: [null, null, null] });
    expect(errorsOf(body).map(([, code]: [number, string]) => code)).toEqual([
      'InsufficientPrivilegesException',
      'InsufficientPrivilegesException',
      'InsufficientPrivilegesException',
    ]);
  });

  it('a user with a connection (any status, as myConnections lists it) or the ADMIN role sees the hidden or inactive company', async () => {
    const u = await t.newUser();
    await t.sql(
      `insert into company_connection (user_id, company_id, status, requested_at, rejected_at, rejection_reason) values (?, ?, 'rejected', now(), now(), 'declined')`,
      [u.uId, hidden],
    );
    await grantCompanyRole(t.orm, u.uId, closed, 'ADMIN');
    const pushOnly = await t.newUser();
    await grantCompanyRole(t.orm, pushOnly.uId, closed, 'PUSH_NOTIFICATION');
    expect(await entities(reps, u)).toEqual({ data: { _entities: [NORTHWIND, HIDDEN, CLOSED] } });
    expect(await entities(reps, pushOnly)).toEqual({ data: { _entities: [NORTHWIND, null, null] } });
    // The same as the root operation: myConnections hands out the hidden company of a rejected request.
    const mine = await u.gql('{ myConnections { status company { companyId companyName } } }');
    expect(mine.body).toEqual({ data: { myConnections: [{ status: 'rejected', company: HIDDEN }] } });
  });

  it('an inactive or hidden company created later is null for Pat and the router', async () => {
    const dark = await createCompany(t.orm, { companyName: 'Dark Co', hiddenWall: true, active: false });
    const r = [company(dark.companyId), company(northwind)];
    expect(await entities(r, pat)).toEqual({ data: { _entities: [null, NORTHWIND] } });
    expect(await entities(r, ROUTER)).toEqual({ data: { _entities: [null, NORTHWIND] } });
  });
});

describe('User references', () => {
  const reps = [user(DEMO.users.olivia), user(DEMO.users.cara), user(999999)];

  it('anonymous: none, with WSInvalidAuthTokenException', async () => {
    await expectAnonymousRefused(reps);
  });

  it('Olivia: her own profile only; another user is null with WSInsufficientPrivilegesException, known or not', async () => {
    const body = await entities(reps, olivia);
    expect(body.data).toEqual({ _entities: [OLIVIA, null, null] });
    expect(errorsOf(body)).toEqual([
      [1, 'WSInsufficientPrivilegesException'],
      [2, 'WSInsufficientPrivilegesException'],
    ]);
  });

  it('the router: every active user; a deactivated user and an unknown id are null', async () => {
    const gone = await createUser(t.orm, { firstName: 'Gone', active: false });
    const body = await entities([...reps, user(gone.uId)], ROUTER);
    expect(body).toEqual({ data: { _entities: [OLIVIA, CARA, null, null] } });
  });
});

describe('Event references', () => {
  it('anonymous: none, with WSInvalidAuthTokenException', async () => {
    await expectAnonymousRefused([event(EVENT_1.eventUUID)]);
  });

  it("Olivia: the events she is invited to; another company's event, unknown and malformed uuids are null", async () => {
    const body = await entities(
      [event(EVENT_1.eventUUID), event(EVENT_2.eventUUID.toUpperCase()), event(strangerEvent), event(crypto.randomUUID()), event('nope')],
      olivia,
    );
    expect(body).toEqual({ data: { _entities: [EVENT_1, EVENT_2, null, null, null] } });
  });

  it('Pat (not invited, no role) and the router: none, without an error', async () => {
    expect(await entities([event(EVENT_1.eventUUID), event(strangerEvent)], pat)).toEqual({ data: { _entities: [null, null] } });
    expect(await entities([event(EVENT_1.eventUUID), event(strangerEvent)], ROUTER)).toEqual({ data: { _entities: [null, null] } });
  });
});

describe('SmartLibrary and SmartEntry references', () => {
  const reps = [library(DEMO_LIBRARY), entry(WELCOME_PACK)];

  it('anonymous: none, with WSInvalidAuthTokenException', async () => {
    await expectAnonymousRefused(reps);
  });

  it('Olivia (a publisher of the demo library) reads the library and its entry; Pat and the router read neither', async () => {
    expect(await entities([...reps, library(999999), entry(999999)], olivia)).toEqual({
      data: { _entities: [LIBRARY, WELCOME, null, null] },
    });
    expect(await entities(reps, pat)).toEqual({ data: { _entities: [null, null] } });
    expect(await entities(reps, ROUTER)).toEqual({ data: { _entities: [null, null] } });
  });
});

describe('SmartDirectory references', () => {
  it('anonymous: none, with WSInvalidAuthTokenException', async () => {
    await expectAnonymousRefused([directory(DEMO.directories.staff)]);
  });

  it('Olivia: the directories she holds a consented contact record in; others null with the error Query.smartDirectory raises', async () => {
    const unknown = crypto.randomUUID();
    const body = await entities(
      [
        directory(DEMO.directories.staff),
        directory(DEMO.directories.cardiology),
        directory(inactiveDirectory),
        directory(unknown),
        directory(closedCompanyDirectory),
      ],
      olivia,
    );
    expect(body.data).toEqual({ _entities: [STAFF, CARDIOLOGY, null, null, null] });
    expect(errorsOf(body)).toEqual([
      [2, 'WSSmartDirectoryInactiveException'],
      [3, 'WSSmartDirectoryNotFoundException'],
      [4, 'WSUserNotInSmartDirectoryException'],
    ]);
    // The root operation answers the same.
    const root = await olivia.gql('query($d: String!) { smartDirectory(directoryUUID: $d) { directoryName } }', { d: inactiveDirectory });
    expect(root.body.errors![0].extensions.errorCode).toBe('WSSmartDirectoryInactiveException');
  });

  it('Pat (no team) resolves none, with WSUserNotInSmartDirectoryException', async () => {
    const body = await entities([directory(DEMO.directories.staff)], pat);
    expect(body.data).toEqual({ _entities: [null] });
    expect(errorsOf(body)).toEqual([[0, 'WSUserNotInSmartDirectoryException']]);
  });

  it('the router: active directories of active companies with the feature; an inactive directory, one of the inactive Closed Co and an unknown uuid are null', async () => {
    const body = await entities(
      [
        directory(DEMO.directories.staff),
        directory(DEMO.directories.cardiology),
        directory(inactiveDirectory),
        directory(closedCompanyDirectory),
        directory(crypto.randomUUID()),
      ],
      ROUTER,
    );
    expect(body).toEqual({ data: { _entities: [STAFF, CARDIOLOGY, null, null, null] } });
  });
});

describe('batching', () => {
  /** Every entity type, visible and invisible ones, `times` over. */
  const mixed = (times: number) =>
    Array.from({ length: times }, () => [
      company(northwind),
      company(hidden),
      company(closed),
      user(DEMO.users.olivia),
      event(EVENT_1.eventUUID),
      event(strangerEvent),
      library(DEMO_LIBRARY),
      entry(WELCOME_PACK),
      directory(DEMO.directories.staff),
      directory(DEMO.directories.cardiology),
    ]).flat();
  const visible = [NORTHWIND, null, null, OLIVIA, EVENT_1, null, LIBRARY, WELCOME, STAFF, CARDIOLOGY];

  it("a user's 100 mixed representations cost the statements of 10, and come back in order", async () => {
    await entities(mixed(1), olivia); // warms the token cache and the sliding expiry
    let small: any;
    let large: any;
    const ten = await t.countStatements(async () => (small = await entities(mixed(1), olivia)));
    const hundred = await t.countStatements(async () => (large = await entities(mixed(10), olivia)));
    expect(small).toEqual({ data: { _entities: visible } });
    expect(large).toEqual({ data: { _entities: Array.from({ length: 10 }, () => visible).flat() } });
    expect(hundred).toBe(ten);
  });

  it("the router's 100 mixed representations cost the statements of 10", async () => {
    const routerVisible = [NORTHWIND, null, null, OLIVIA, null, null, null, null, STAFF, CARDIOLOGY];
    let large: any;
    const ten = await t.countStatements(() => entities(mixed(1), ROUTER));
    const hundred = await t.countStatements(async () => (large = await entities(mixed(10), ROUTER)));
    expect(large).toEqual({ data: { _entities: Array.from({ length: 10 }, () => routerVisible).flat() } });
    expect(hundred).toBe(ten);
  });
});
