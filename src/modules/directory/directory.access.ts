// The directory chain every contact operation walks, in the order the errors are checked:
// directory exists, its company has the feature, it is active, the caller is in its team,
// has a contact record there, has given its required consents, and (for address
// operations) the directory shows an address field.
import { readModel } from '../../db/lean';
import type { EntityManager } from '@mikro-orm/core';
import { ServiceError } from '../../core/errors';
import { Company } from '../company';
import { FieldDefinition } from '../reference-data';
import { TeamMember, teamMemberIdSql } from '../team';
import { ContactRecord, SmartDirectory } from './directory.entity';

export interface DirectoryAccess {
  directory: SmartDirectory;
  member: TeamMember;
  contact: ContactRecord;
}

/** What the chain finds, in one statement (null: no such directory). */
interface ChainRow {
  enabled: boolean;
  active: boolean;
  member_id: number | null;
  contact_id: number | null;
  missing_consents: number;
  address_fields: boolean;
}

/**
 * Every step of the chain in one statement: each contact operation (and the hot read of a
 * contact's addresses) pays one round trip for its checks instead of five. The errors are
 * still raised in the documented order, from the row. Every lookup in it is by key, so it is
 * prepared (src/db/lean.ts readModel's `prepared`): parsed and planned once per connection. The
 * team membership is the team module's read, the company and the field definitions are named by
 * their metadata (test/unit/sql-owners.test.ts).
 */
const chain = readModel<ChainRow, [userId: number, userId: number, userId: number, directoryUUID: string]>({
  sql: (n) => {
    const c = n(Company);
    const fd = n(FieldDefinition);
    return `select c.${c.column('smartDirectoryEnabled')} as enabled, d.active,
  ${teamMemberIdSql(n, 'd.team_id', '?')} as member_id,
  (select r.contact_id from contact_record r where r.directory_uuid = d.directory_uuid and r.user_id = ? limit 1) as contact_id,
  (select count(*)::int from consent_definition cd where cd.directory_uuid = d.directory_uuid and cd.consent_required and cd.active
     and not exists (select 1 from user_consent uc where uc.consent_id = cd.id and uc.user_id = ? and uc.given)) as missing_consents,
  exists (select 1 from smart_directory_field f join ${fd.table} fd on fd.${fd.column('fieldId')} = f.field_id
     where f.directory_uuid = d.directory_uuid and fd.${fd.column('isAddressField')}) as address_fields
from smart_directory d join ${c.table} c on c.${c.column('companyId')} = d.company_id
where d.directory_uuid = ?`;
  },
  prepared: true,
});

/** The chain's row for the caller; the first four checks (directory found, feature enabled, active, caller a member of its team). */
async function memberChain(em: EntityManager, userId: number, directoryUUID: string): Promise<ChainRow & { member_id: number }> {
  const [row] = await chain(em, userId, userId, userId, directoryUUID);
  if (!row) throw new ServiceError('WSSmartDirectoryNotFoundException', 'No smart directory has this uuid.', { field: 'directoryUUID' });
  if (!row.enabled) throw new ServiceError('WSSmartDirectoryNotEnabledForCompanyException');
  if (!row.active) throw new ServiceError('WSSmartDirectoryInactiveException');
  if (row.member_id === null) throw new ServiceError('WSUserNotInSmartDirectoryException');
  return row as ChainRow & { member_id: number };
}

/** Directory found, feature enabled, active, caller a member of its team: the directory (with
 * its company) and the caller's contact record id there, if any. */
export async function requireDirectoryMember(
  em: EntityManager,
  userId: number,
  directoryUUID: string,
): Promise<{ directory: SmartDirectory; contactId: number | null }> {
  const row = await memberChain(em, userId, directoryUUID);
  const directory = await em.findOneOrFail(SmartDirectory, directoryUUID, { populate: ['company'] });
  return { directory, contactId: row.contact_id };
}

/** The chain's checks; the ids of the caller's team membership and contact record. */
export async function checkDirectoryContact(
  em: EntityManager,
  userId: number,
  directoryUUID: string,
  options: { addresses: boolean },
): Promise<{ memberId: number; contactId: number }> {
  const row = await memberChain(em, userId, directoryUUID);
  if (row.contact_id === null) throw new ServiceError('WSUserContactNotFoundException');
  if (row.missing_consents > 0)
    throw new ServiceError('WSUserNotConsentedException', 'The required consents of this directory have not been given.');
  if (options.addresses && !row.address_fields) throw new ServiceError('WSNoAddressFieldsInDirectoryException');
  return { memberId: row.member_id, contactId: row.contact_id };
}

/** The whole chain; `addresses` adds the address-field check of the address operations. */
export async function requireDirectoryContact(
  em: EntityManager,
  userId: number,
  directoryUUID: string,
  options: { addresses: boolean },
): Promise<DirectoryAccess> {
  const { memberId, contactId } = await checkDirectoryContact(em, userId, directoryUUID, options);
  const contact = await em.findOneOrFail(ContactRecord, contactId, { populate: ['directory', 'directory.company'] });
  const member = await em.findOneOrFail(TeamMember, memberId);
  return { directory: contact.directory, member, contact };
}
