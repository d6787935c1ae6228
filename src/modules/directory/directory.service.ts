// Creating directories (the support-group provisioning calls createSmartDirectory) and the
// caller's contact record in one.
import crypto from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { ServiceError, fieldTooLong, invalidParameter } from '../../core/errors';
import { Company } from '../company';
import { Team } from '../team';
import { User } from '../user';
import { FieldDefinition } from '../reference-data';
import { ConsentDefinition } from './consent.entity';
import {
  ContactRecord,
  DIRECTORY_ORDERS,
  DIRECTORY_TYPES,
  SmartDirectory,
  SmartDirectoryField,
  type DirectoryOrder,
  type DirectoryType,
} from './directory.entity';
import { requireDirectoryMember } from './directory.access';
import { charLength } from '../../core/text';

/** First and last name (field definitions 1 and 2) are part of every directory. */
export const DEFAULT_FIELD_IDS = [1, 2];

export interface DirectoryConsentSpec {
  /** Generated when omitted. */
  consentUUID?: string;
  /** Only DS (directory) consents are accepted. */
  consentType: string;
  name: string;
  desc: string;
  optionalDesc?: string | null;
  required: boolean;
}

export interface CreateSmartDirectoryInput {
  /** Generated when omitted. */
  directoryUUID?: string;
  companyId: number;
  teamId: number;
  name: string;
  type: string;
  order: string;
  /** directoryFieldIds; first and last name are added when missing. */
  fieldIds: number[];
  syncUp?: boolean;
  autoPopulateFromProfile?: boolean;
  active?: boolean;
  consents?: DirectoryConsentSpec[];
}

/**
 * Creates a directory with its fields and consents. Validation errors name the support-group
 * form fields (directoryType, directoryOrder, directoryFieldIds, directoryConsents). Flushes
 * `em`; call it inside the caller's transaction to make the directory part of a larger unit.
 */
export async function createSmartDirectory(em: EntityManager, input: CreateSmartDirectoryInput): Promise<SmartDirectory> {
  if (!DIRECTORY_TYPES.includes(input.type as DirectoryType))
    throw invalidParameter('directoryType', `directoryType must be one of ${DIRECTORY_TYPES.join(', ')}.`);
  if (!DIRECTORY_ORDERS.includes(input.order as DirectoryOrder))
    throw invalidParameter('directoryOrder', 'directoryOrder must be FL or LF.');
  if (!input.name) throw invalidParameter('directoryName', 'directoryName is required.');
  if (charLength(input.name) > 255) throw fieldTooLong('directoryName', 255);
  const fieldIds = [...new Set([...DEFAULT_FIELD_IDS, ...input.fieldIds])];
  if (fieldIds.some((id) => !Number.isInteger(id))) throw invalidParameter('directoryFieldIds', 'directoryFieldIds must be integers.');
  const consents = input.consents ?? [];
  for (const c of consents) {
    if (c.consentType !== 'DS') throw invalidParameter('directoryConsents', 'Directory consents must have consentType DS.');
    if (!c.name || !c.desc || typeof c.required !== 'boolean')
      throw invalidParameter('directoryConsents', 'Each directory consent needs name, desc and required.');
    if (charLength(c.name) > 255) throw fieldTooLong('directoryConsents', 255);
  }

  const company = await em.findOne(Company, { companyId: input.companyId });
  if (!company) throw invalidParameter('companyId', 'No company has this id.');
  const team = await em.findOne(Team, { teamId: input.teamId, company });
  if (!team) throw invalidParameter('teamId', 'The team is not a team of the company.');
  const fields = await em.find(FieldDefinition, { fieldId: { $in: fieldIds } });
  if (fields.length !== fieldIds.length)
    throw invalidParameter('directoryFieldIds', 'directoryFieldIds names an unknown field definition.');

  const directory = em.create(SmartDirectory, {
    directoryUUID: input.directoryUUID ?? crypto.randomUUID(),
    company,
    team,
    directoryName: input.name,
    directoryType: input.type as DirectoryType,
    directoryOrder: input.order as DirectoryOrder,
    syncUp: input.syncUp ?? false,
    autoPopulateFromProfile: input.autoPopulateFromProfile ?? false,
    active: input.active ?? true,
  });
  for (const field of fields) em.create(SmartDirectoryField, { directory, field });
  consents.forEach((c, i) =>
    em.create(ConsentDefinition, {
      consentUUID: c.consentUUID ?? crypto.randomUUID(),
      consentTypeCode: 'DS',
      directory,
      name: c.name,
      consentValue: c.desc,
      optionalDesc: c.optionalDesc ?? null,
      consentRequired: c.required,
      sortOrder: i + 1,
    }),
  );
  await em.flush();
  return directory;
}

/**
 * Creates the caller's contact record: names always (every directory shows them), the other
 * profile fields when the directory is filled from profiles.
 */
export async function createContactRecord(em: EntityManager, user: User, directoryUUID: string): Promise<ContactRecord> {
  const { directory, contactId } = await requireDirectoryMember(em, user.uId, directoryUUID);
  const exists = () => new ServiceError('WSAlreadyExistsException', 'The caller already has a contact record in this directory.');
  if (contactId !== null) throw exists();
  const profile = directory.autoPopulateFromProfile
    ? { email: user.email, mobile: user.primaryMobile ?? null, dateOfBirth: user.dateOfBirth ?? null }
    : {};
  const record = em.create(ContactRecord, {
    directory,
    user: em.getReference(User, user.uId),
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    ...profile,
  });
  try {
    await em.flush();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw exists();
    throw err;
  }
  return record;
}
