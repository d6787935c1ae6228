// Row factories: each test arranges its own rows, written straight to the database, with random
// suffixes on unique fields. One per entity; per-area builders below the core model.
import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import {
  Company,
  CompanyApiKey,
  CompanyConnection,
  CompanyRole,
  ConsentDefinition,
  ContactAddress,
  ContactRecord,
  DiscoveryCriterion,
  Event,
  EventAttendee,
  IdentifierDefinition,
  OAuthClient,
  ServiceAuthToken,
  SystemToken,
  SmartDirectory,
  Team,
  TeamMember,
  User,
  UserAddress,
  UserConsent,
  UserIdentifier,
  createSmartDirectory,
  createSmartLibrary,
  ensureTerms,
  grantPublisher,
  hashToken,
  newOpaqueToken,
  SERVICE_TOKEN_TTL_MS,
  type CompanyRoleName,
  type ConnectionStatus,
  type DirectoryType,
  type GrantType,
} from './src';
import { NORTHWIND } from './demo';

export const suffix = () => crypto.randomBytes(4).toString('hex');

// --- Users, companies, roles, teams, tokens ---

export async function createUser(orm: MikroORM, data: Partial<User> = {}): Promise<User> {
  const em = orm.em.fork();
  const user = em.create(User, {
    email: `user-${suffix()}@test.example`,
    authType: 'O',
    synchronised: true,
    firstName: 'Test',
    lastName: 'User',
    ...data,
  } as any);
  await em.flush();
  return user;
}

export async function createCompany(orm: MikroORM, data: Partial<Company> = {}): Promise<Company> {
  const em = orm.em.fork();
  const company = em.create(Company, { companyName: `Company ${suffix()}`, companyCountryCode: 'AU', ...data } as any);
  await em.flush();
  return company;
}

export async function grantCompanyRole(orm: MikroORM, userId: number, companyId: number, role: CompanyRoleName): Promise<void> {
  const em = orm.em.fork();
  em.create(CompanyRole, { user: em.getReference(User, userId), company: em.getReference(Company, companyId), role });
  await em.flush();
}

export async function createTeam(orm: MikroORM, companyId: number, memberIds: number[] = [], data: Partial<Team> = {}): Promise<Team> {
  const em = orm.em.fork();
  const team = em.create(Team, { company: em.getReference(Company, companyId), teamName: `Team ${suffix()}`, ...data } as any);
  for (const uId of memberIds) em.create(TeamMember, { team, user: em.getReference(User, uId) });
  await em.flush();
  return team;
}

/** A new service auth token for the user, as loginUser would issue it (t.as(user) keeps one per user per file). */
export async function tokenFor(orm: MikroORM, userId: number, ttlMs = SERVICE_TOKEN_TTL_MS): Promise<string> {
  const em = orm.em.fork();
  const token = newOpaqueToken();
  em.create(ServiceAuthToken, {
    tokenHash: hashToken(token),
    user: em.getReference(User, userId),
    expiresAt: new Date(Date.now() + ttlMs),
  });
  await em.flush();
  return token;
}

/** A system token (gateway, ingestion, reporting) with these scopes; the raw token is returned. */
export async function createSystemToken(
  orm: MikroORM,
  scopes: string[],
  o: { name?: string; token?: string; revokedAt?: Date } = {},
): Promise<string> {
  const em = orm.em.fork();
  const raw = o.token ?? `system-${crypto.randomUUID()}`;
  em.create(SystemToken, {
    tokenHash: hashToken(raw),
    name: o.name ?? 'Test system',
    scopes,
    ...(o.revokedAt ? { revokedAt: o.revokedAt } : {}),
  } as any);
  await em.flush();
  return raw;
}

/** A company API key (the raw UUID is returned); linked to a membership identifier when given. */
export async function createApiKey(orm: MikroORM, companyId: number, data: Partial<CompanyApiKey> = {}): Promise<string> {
  const em = orm.em.fork();
  const raw = crypto.randomUUID();
  em.create(CompanyApiKey, { keyHash: hashToken(raw), company: em.getReference(Company, companyId), ...data } as any);
  await em.flush();
  return raw;
}

/** An OAuth client of the token endpoint, with a random id and secret. */
export async function createClient(
  orm: MikroORM,
  data: { grantTypes?: GrantType[]; redirectUris?: string[]; active?: boolean } = {},
): Promise<{ clientId: string; secret: string; redirectUri: string }> {
  const clientId = `client-${suffix()}`;
  const secret = crypto.randomBytes(24).toString('base64url');
  const redirectUri = data.redirectUris?.[0] ?? `com.test.${suffix()}:/oauth/ssosignedin`;
  const em = orm.em.fork();
  em.create(OAuthClient, {
    clientId,
    name: 'Test client',
    secretHash: hashToken(secret),
    grantTypes: data.grantTypes ?? ['password', 'authorization_code', 'refresh_token'],
    redirectUris: data.redirectUris ?? [redirectUri],
    active: data.active ?? true,
  });
  await em.flush();
  return { clientId, secret, redirectUri };
}

// --- Addresses ---

export async function createUserAddress(orm: MikroORM, userId: number, data: Partial<UserAddress> = {}): Promise<UserAddress> {
  const em = orm.em.fork();
  const address = em.create(UserAddress, {
    uuid: crypto.randomUUID(),
    user: em.getReference(User, userId),
    typeCode: 'W',
    name: 'Office',
    street: '1 Test Street',
    city: 'Sydney',
    stateCode: 'NSW',
    postcode: '2000',
    countryCode: 'AU',
    ...data,
  } as UserAddress);
  await em.flush();
  return address;
}

/** Every address field with null, so an expected body lists only what is set. */
export const NULL_ADDRESS = {
  name: null,
  street: null,
  city: null,
  suburb: null,
  stateCode: null,
  state: null,
  postcode: null,
  countryCode: null,
  country: null,
  email: null,
  phone: null,
  fax: null,
  mobile: null,
  department: null,
  division: null,
  jobTitle: null,
};

// --- Directories (through createSmartDirectory, the service the support group uses) ---

export interface DirectoryOptions {
  companyId?: number;
  enabled?: boolean;
  members?: number[];
  admins?: number[];
  type?: DirectoryType;
  order?: 'FL' | 'LF';
  fieldIds?: number[];
  syncUp?: boolean;
  active?: boolean;
  /** Required flags of its DS consents; default one required consent. */
  consents?: boolean[];
}

export interface TestDirectory {
  uuid: string;
  companyId: number;
  teamId: number;
  consentUUIDs: string[];
}

export async function createDirectory(orm: MikroORM, o: DirectoryOptions = {}): Promise<TestDirectory> {
  const companyId = o.companyId ?? (await createCompany(orm, { smartDirectoryEnabled: o.enabled ?? true })).companyId;
  const team = await createTeam(orm, companyId, o.members ?? []);
  if (o.admins?.length) {
    const em = orm.em.fork();
    for (const uId of o.admins)
      em.create(TeamMember, { team: em.getReference(Team, team.teamId), user: em.getReference(User, uId), isTeamAdmin: true });
    await em.flush();
  }
  const em = orm.em.fork();
  const directory = await createSmartDirectory(em, {
    companyId,
    teamId: team.teamId,
    name: `Directory ${suffix()}`,
    type: o.type ?? 'UNRESTRICTED',
    order: o.order ?? 'FL',
    fieldIds: o.fieldIds ?? [3, 4, 9],
    syncUp: o.syncUp ?? true,
    active: o.active ?? true,
    consents: (o.consents ?? [true]).map((required, i) => ({
      consentType: 'DS',
      name: `Consent ${i + 1}`,
      desc: 'Share my details.',
      required,
    })),
  });
  const consents = await em.find(ConsentDefinition, { directory }, { orderBy: { sortOrder: 'asc' } });
  return { uuid: directory.directoryUUID, companyId, teamId: team.teamId, consentUUIDs: consents.map((c) => c.consentUUID) };
}

/** A contact record for the user; with `consent` (default) every consent of the directory is given. */
export async function createContact(
  orm: MikroORM,
  directoryUUID: string,
  userId: number,
  o: { consent?: boolean; data?: Partial<ContactRecord> } = {},
): Promise<ContactRecord> {
  const em = orm.em.fork();
  const directory = em.getReference(SmartDirectory, directoryUUID);
  const user = em.getReference(User, userId);
  const record = em.create(ContactRecord, { directory, user, firstName: 'Test', lastName: `User${userId}`, ...o.data } as ContactRecord);
  if (o.consent ?? true) {
    for (const consent of await em.find(ConsentDefinition, { directory: directoryUUID }))
      em.create(UserConsent, { user, consent, given: true });
  }
  await em.flush();
  return record;
}

export async function createContactAddress(
  orm: MikroORM,
  contactId: number,
  data: Partial<ContactAddress> & { userAddressUuid?: string } = {},
): Promise<ContactAddress> {
  const em = orm.em.fork();
  const { userAddressUuid, ...fields } = data;
  const address = em.create(ContactAddress, {
    uuid: crypto.randomUUID(),
    contactRecord: em.getReference(ContactRecord, contactId),
    typeCode: 'W',
    city: 'Sydney',
    countryCode: 'AU',
    userAddress: userAddressUuid ? em.getReference(UserAddress, userAddressUuid) : null,
    ...fields,
  } as ContactAddress);
  await em.flush();
  return address;
}

// --- Discovery and connections ---

export interface Dims {
  countries?: string[];
  professions?: number[];
  specialties?: number[];
  identifiers?: number[];
}

export async function createCriterion(orm: MikroORM, companyId: number, dims: Dims = {}): Promise<DiscoveryCriterion> {
  const em = orm.em.fork();
  const c = em.create(DiscoveryCriterion, { company: em.getReference(Company, companyId), ...dims });
  await em.flush();
  return c;
}

export async function createIdentifier(orm: MikroORM, data: Partial<IdentifierDefinition> = {}): Promise<IdentifierDefinition> {
  const em = orm.em.fork();
  const def = em.create(IdentifierDefinition, {
    name: `ID ${suffix()}`,
    description: 'Test identifier',
    countryCode: 'AU',
    formatDesc: null,
    formatRegex: null,
    ...data,
  } as any);
  await em.flush();
  return def;
}

export async function giveIdentifier(orm: MikroORM, userId: number, identifierId: number, value = 'X1'): Promise<void> {
  const em = orm.em.fork();
  em.create(UserIdentifier, {
    user: em.getReference(User, userId),
    identifier: em.getReference(IdentifierDefinition, identifierId),
    value,
  });
  await em.flush();
}

export async function connect(orm: MikroORM, userId: number, companyId: number, status: ConnectionStatus): Promise<void> {
  const em = orm.em.fork();
  const now = new Date();
  em.create(CompanyConnection, {
    user: em.getReference(User, userId),
    company: em.getReference(Company, companyId),
    status,
    requestedAt: now,
    pendingAt: status === 'pending' ? now : null,
    acceptedAt: status === 'accepted' ? now : null,
    rejectedAt: status === 'rejected' ? now : null,
    rejectionReason: status === 'rejected' ? 'declined' : null,
  });
  await em.flush();
}

// --- Events ---

export async function createEvent(orm: MikroORM, companyId: number, data: Partial<Event> = {}): Promise<Event> {
  const em = orm.em.fork();
  const start = data.utcStart ?? new Date(Date.now() + 86_400_000);
  const event = em.create(Event, {
    eventUUID: crypto.randomUUID(),
    company: em.getReference(Company, companyId),
    name: `Event ${suffix()}`,
    timezoneId: 'Australia/Sydney',
    utcStart: start,
    utcEnd: new Date(start.getTime() + 3_600_000),
    ...data,
  } as any);
  await em.flush();
  return event;
}

export async function invite(orm: MikroORM, eId: number, userId: number, data: Partial<EventAttendee> = {}): Promise<EventAttendee> {
  const em = orm.em.fork();
  const row = em.create(EventAttendee, {
    inviteUUID: crypto.randomUUID(),
    event: em.getReference(Event, eId),
    user: em.getReference(User, userId),
    ...data,
  } as any);
  await em.flush();
  return row;
}

// --- Libraries ---

/** A new library (of Northwind unless told) with these publishers; answers its id. */
export async function createLibrary(
  orm: MikroORM,
  o: { companyId?: number; maxEntries?: number; publishers?: number[] } = {},
): Promise<number> {
  const em = orm.em.fork();
  const library = await createSmartLibrary(em, {
    companyId: o.companyId ?? NORTHWIND,
    smartLibName: `Library ${suffix()}`,
    maxEntries: o.maxEntries,
  });
  for (const uId of o.publishers ?? []) await grantPublisher(em, library.smartLibId, uId);
  return library.smartLibId;
}

export async function addTerms(orm: MikroORM, smartLibId: number, kind: 'folder' | 'filter' | 'category' | 'tag', names: string[]) {
  return ensureTerms(orm.em.fork(), kind, smartLibId, names);
}
