import type { EntityManager } from '@mikro-orm/core';
import { ServiceError, invalidParameter } from '../../core/errors';
import { parseUuid } from '../../core/uuid';
import { User } from '../user';
import {
  answersDirectoryConsents,
  companyConsentRows,
  ConsentDefinition,
  eventConsentRows,
  UserConsent,
  type EConsentRow,
} from '../directory';

export interface EConsentQuery {
  type?: string | null;
  companyId?: number | null;
  eventUUID?: string | null;
}

/** getEConsents: the active consents of one company (type=C) or one event (type=E), in display order, with the caller's answers. */
export function listEConsents(em: EntityManager, userId: number, q: EConsentQuery): Promise<EConsentRow[]> {
  if (q.type === 'C') {
    if (q.companyId == null) throw invalidParameter('companyId', 'companyId is required when type is C.');
    if (q.companyId < 1) throw invalidParameter('companyId', 'companyId must be a positive id.');
    if (q.eventUUID != null) throw invalidParameter('eventUUID', 'eventUUID is only accepted when type is E.');
    return companyConsentRows.run(em, { userId, companyId: q.companyId });
  }
  if (q.type === 'E') {
    if (q.eventUUID == null || q.eventUUID === '') throw invalidParameter('eventUUID', 'eventUUID is required when type is E.');
    parseUuid(q.eventUUID, 'eventUUID');
    if (q.companyId != null) throw invalidParameter('companyId', 'companyId is only accepted when type is C.');
    return eventConsentRows.run(em, { userId, eventUUID: q.eventUUID.toLowerCase() });
  }
  throw invalidParameter('type', 'type must be C (company) or E (event).');
}

/**
 * Records the caller's answer to one consent (insert or update in one statement, safe under
 * concurrency). A company or event consent is anyone's to answer; a directory's, its team members'
 * (answersDirectoryConsents): to anyone else it is a consent that does not exist, so that its text
 * and its directory are not told to someone who holds its UUID.
 */
export async function setEConsent(em: EntityManager, userId: number, consentUUID: string, given: boolean): Promise<ConsentDefinition> {
  parseUuid(consentUUID, 'consentUUID');
  const consent = await em.findOne(ConsentDefinition, { consentUUID: consentUUID.toLowerCase(), active: true });
  const directoryUUID = consent?.directory?.directoryUUID;
  if (!consent || (directoryUUID && !(await answersDirectoryConsents(em, userId, directoryUUID))))
    throw new ServiceError('WSRecordNotFoundException', 'No consent has this consentUUID.', { field: 'consentUUID' });
  await em.upsert(
    UserConsent,
    { user: em.getReference(User, userId), consent, given, updatedAt: new Date() },
    { onConflictFields: ['user', 'consent'], onConflictAction: 'merge', onConflictMergeFields: ['given', 'updatedAt'] },
  );
  return consent;
}
