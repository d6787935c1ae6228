// The directory chain every contact operation walks, in the order the errors are checked:
// directory exists, its company has the feature, it is active, the caller is in its team,
// has a contact record there, has given its required consents, and (for address
// operations) the directory shows an address field.
import type { EntityManager } from '@mikro-orm/core';
import { ServiceError } from '../../core/errors';
import { TeamMember } from '../team';
import { ContactRecord, SmartDirectory } from './directory.entity';
import { directoryChain } from './directory.queries';

export interface DirectoryAccess {
  directory: SmartDirectory;
  member: TeamMember;
  contact: ContactRecord;
}

/**
 * What the chain finds, in one statement (directory.queries.ts directoryChain; none: no such
 * directory): each contact operation (and the hot read of a contact's addresses) pays one round
 * trip for its checks instead of five. The errors are still raised in the documented order, from
 * the row.
 */
type ChainRow = Awaited<ReturnType<typeof directoryChain.run>>[number];

/** What the checks read of a chain's row (directoryChain's, or directoryChains' for many directories). */
type Checked = Pick<ChainRow, 'enabled' | 'active' | 'memberId' | 'contactId' | 'missingConsents'> &
  Partial<Pick<ChainRow, 'addressFields'>>;

/** The refusal of the chain's first four checks (directory found, feature enabled, active, caller a member of its team), if any. */
function memberRefusal(row: Checked | undefined): ServiceError | null {
  if (!row) return new ServiceError('WSSmartDirectoryNotFoundException', 'No smart directory has this uuid.', { field: 'directoryUUID' });
  if (!row.enabled) return new ServiceError('WSSmartDirectoryNotEnabledForCompanyException');
  if (!row.active) return new ServiceError('WSSmartDirectoryInactiveException');
  if (row.memberId === null) return new ServiceError('WSUserNotInSmartDirectoryException');
  return null;
}

/**
 * The refusal of the whole chain, if any: the first four checks, then the caller's contact record,
 * its required consents, and (`addresses`) an address field in the directory.
 */
export function chainRefusal(row: Checked | undefined, addresses = false): ServiceError | null {
  const refusal = memberRefusal(row);
  if (refusal || !row) return refusal;
  if (row.contactId === null) return new ServiceError('WSUserContactNotFoundException');
  if (row.missingConsents > 0)
    return new ServiceError('WSUserNotConsentedException', 'The required consents of this directory have not been given.');
  if (addresses && !row.addressFields) return new ServiceError('WSNoAddressFieldsInDirectoryException');
  return null;
}

/** The chain's row for the caller, once the first four checks pass. */
async function memberChain(em: EntityManager, userId: number, directoryUUID: string): Promise<ChainRow & { memberId: number }> {
  const [row] = await directoryChain.run(em, { userId, directoryUUID });
  const refusal = memberRefusal(row);
  if (refusal) throw refusal;
  return row as ChainRow & { memberId: number };
}

/**
 * Whether the caller may answer the directory's consents (setEConsent): the chain's first four
 * checks pass (a member of an active directory's team, whose company has the feature), contact
 * record or not, since giving the required consents is what opens the directory to a member.
 */
export async function answersDirectoryConsents(em: EntityManager, userId: number, directoryUUID: string): Promise<boolean> {
  const [row] = await directoryChain.run(em, { userId, directoryUUID });
  return memberRefusal(row) === null;
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
  return { directory, contactId: row.contactId };
}

/** The chain's checks; the ids of the caller's team membership and contact record. */
export async function checkDirectoryContact(
  em: EntityManager,
  userId: number,
  directoryUUID: string,
  options: { addresses: boolean },
): Promise<{ memberId: number; contactId: number }> {
  const [row] = await directoryChain.run(em, { userId, directoryUUID });
  const refusal = chainRefusal(row, options.addresses);
  if (refusal) throw refusal;
  return { memberId: row.memberId!, contactId: row.contactId! };
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
