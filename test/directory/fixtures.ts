// Directories, contact records and contact addresses for tests, written straight to the
// database (directories through createSmartDirectory, the service the support group uses).
import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { createCompany, createTeam } from '../factories';
import { createSmartDirectory } from '../../src/modules/directory/directory.service';
import { ContactAddress, ContactRecord, SmartDirectory, type DirectoryType } from '../../src/modules/directory/directory.entity';
import { ConsentDefinition, UserConsent } from '../../src/modules/consent/consent.entity';
import { Team, TeamMember } from '../../src/modules/team/team.entity';
import { User } from '../../src/modules/user/user.entity';
import { UserAddress } from '../../src/modules/address/address.entity';

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
  const companyId = o.companyId ?? (await createCompany(orm, { smartDirectoryEnabled: o.enabled ?? true } as any)).companyId;
  const team = await createTeam(orm, companyId, o.members ?? []);
  if (o.admins?.length) {
    const em = orm.em.fork();
    for (const uId of o.admins) em.create(TeamMember, { team: em.getReference(Team, team.teamId), user: em.getReference(User, uId), isTeamAdmin: true });
    await em.flush();
  }
  const em = orm.em.fork();
  const directory = await createSmartDirectory(em, {
    companyId, teamId: team.teamId, name: `Directory ${crypto.randomBytes(3).toString('hex')}`, type: o.type ?? 'UNRESTRICTED', order: o.order ?? 'FL',
    fieldIds: o.fieldIds ?? [3, 4, 9], syncUp: o.syncUp ?? true, active: o.active ?? true,
    consents: (o.consents ?? [true]).map((required, i) => ({ consentType: 'DS', name: `Consent ${i + 1}`, desc: 'Share my details.', required })),
  });
  const consents = await em.find(ConsentDefinition, { directory }, { orderBy: { sortOrder: 'asc' } });
  return { uuid: directory.directoryUUID, companyId, teamId: team.teamId, consentUUIDs: consents.map((c) => c.consentUUID) };
}

/** A contact record for the user; with `consent` (default) every consent of the directory is given. */
export async function createContact(orm: MikroORM, directoryUUID: string, userId: number, o: { consent?: boolean; data?: Partial<ContactRecord> } = {}): Promise<ContactRecord> {
  const em = orm.em.fork();
  const directory = em.getReference(SmartDirectory, directoryUUID);
  const user = em.getReference(User, userId);
  const record = em.create(ContactRecord, { directory, user, firstName: 'Test', lastName: `User${userId}`, ...o.data } as ContactRecord);
  if (o.consent ?? true) {
    for (const consent of await em.find(ConsentDefinition, { directory: directoryUUID })) em.create(UserConsent, { user, consent, given: true });
  }
  await em.flush();
  return record;
}

export async function createContactAddress(orm: MikroORM, contactId: number, data: Partial<ContactAddress> & { userAddressUuid?: string } = {}): Promise<ContactAddress> {
  const em = orm.em.fork();
  const { userAddressUuid, ...fields } = data;
  const address = em.create(ContactAddress, {
    uuid: crypto.randomUUID(), contactRecord: em.getReference(ContactRecord, contactId), typeCode: 'W', city: 'Sydney', countryCode: 'AU',
    userAddress: userAddressUuid ? em.getReference(UserAddress, userAddressUuid) : null, ...fields,
  } as ContactAddress);
  await em.flush();
  return address;
}

/** Every row of the address tables, for "nothing changed" assertions. */
export async function addressTables(orm: MikroORM): Promise<{ user: any[]; contact: any[] }> {
  const conn = orm.em.fork().getConnection();
  return {
    user: await conn.execute('select * from user_address order by uuid'),
    contact: await conn.execute('select * from contact_address order by uuid'),
  };
}
