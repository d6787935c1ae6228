// The directory chain every contact operation walks, in the order the errors are checked:
// directory exists, its company has the feature, it is active, the caller is in its team,
// has a contact record there, has given its required consents, and (for address
// operations) the directory shows an address field.
import type { EntityManager } from '@mikro-orm/core';
import { ServiceError } from '../../graphql/errors';
import { TeamMember } from '../team/team.entity';
import { ConsentDefinition } from '../consent/consent.entity';
import { ContactRecord, SmartDirectory, SmartDirectoryField } from './directory.entity';

export interface DirectoryAccess {
  directory: SmartDirectory;
  member: TeamMember;
  contact: ContactRecord;
}

/** Directory found, feature enabled, active, caller a member of its team. */
export async function requireDirectoryMember(em: EntityManager, userId: number, directoryUUID: string): Promise<{ directory: SmartDirectory; member: TeamMember }> {
  const directory = await em.findOne(SmartDirectory, { directoryUUID }, { populate: ['company'] });
  if (!directory) throw new ServiceError('WSSmartDirectoryNotFoundException', 'No smart directory has this uuid.', { field: 'directoryUUID' });
  if (!directory.company.smartDirectoryEnabled) throw new ServiceError('WSSmartDirectoryNotEnabledForCompanyException');
  if (!directory.active) throw new ServiceError('WSSmartDirectoryInactiveException');
  const member = await em.findOne(TeamMember, { team: directory.team, user: userId });
  if (!member) throw new ServiceError('WSUserNotInSmartDirectoryException');
  return { directory, member };
}

/** Number of the directory's required consents the user has not given. */
export function missingRequiredConsents(em: EntityManager, userId: number, directoryUUID: string): Promise<number> {
  return em.count(ConsentDefinition, {
    directory: directoryUUID,
    consentRequired: true,
    active: true,
    answers: { $none: { user: userId, given: true } },
  });
}

/** The whole chain; `addresses` adds the address-field check of the address operations. */
export async function requireDirectoryContact(em: EntityManager, userId: number, directoryUUID: string, options: { addresses: boolean }): Promise<DirectoryAccess> {
  const { directory, member } = await requireDirectoryMember(em, userId, directoryUUID);
  const contact = await em.findOne(ContactRecord, { directory, user: userId });
  if (!contact) throw new ServiceError('WSUserContactNotFoundException');
  if (await missingRequiredConsents(em, userId, directoryUUID)) {
    throw new ServiceError('WSUserNotConsentedException', 'The required consents of this directory have not been given.');
  }
  if (options.addresses && !(await em.count(SmartDirectoryField, { directory, field: { isAddressField: true } }))) {
    throw new ServiceError('WSNoAddressFieldsInDirectoryException');
  }
  return { directory, member, contact };
}
