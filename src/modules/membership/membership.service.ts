// createMembershipDetails (13): a company, through its API key, records a user's membership as
// the user's value for the identifier the key is linked to. One record per user and
// identifier: a second call replaces every field of the first (omitted optional fields
// become null), so the record always equals the company's latest statement.
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { invalidParameter, ServiceError } from '../../graphql/errors';
import { User } from '../user';
import { Company, type CompanyApiKey } from '../company';
import { hasAcceptedConnection, recheckOpenConnections } from '../connection';
import { IdentifierDefinition, UserIdentifier } from '../discovery';
import { matchesFormat } from '../discovery';
import type { MembershipDetails, MembershipDetailsInput } from './membership.types';

function toView(row: UserIdentifier, userId: number): MembershipDetails {
  return {
    userId,
    membershipId: row.value,
    status: row.status ?? null,
    statusDate: row.statusDate ?? null,
    customField1: row.customField1 ?? null,
    customField2: row.customField2 ?? null,
    customField3: row.customField3 ?? null,
    customField4: row.customField4 ?? null,
    customField5: row.customField5 ?? null,
  };
}

export async function createMembershipDetails(
  em: EntityManager,
  key: CompanyApiKey,
  company: Company,
  input: MembershipDetailsInput,
): Promise<MembershipDetails> {
  return em.transactional(async (tx) => {
    const def =
      key.membershipIdentifierId == null ? null : await tx.findOne(IdentifierDefinition, { identifierId: key.membershipIdentifierId });
    if (!def) throw new ServiceError('WSRecordNotFoundException', 'The company API key is not linked to a membership identifier.');
    if (!matchesFormat(def, input.membershipId)) {
      throw invalidParameter(
        'membershipId',
        `membershipId does not have the format of ${def.name}${def.formatDesc ? ` (e.g. ${def.formatDesc})` : ''}.`,
      );
    }
    // The lock serialises concurrent calls for one user, so the second updates the first's record.
    const user = await tx.findOne(User, { uId: input.userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!user) throw new ServiceError('WSUserNotFoundException');
    if (!user.active) throw new ServiceError('WSUserNotActiveException');
    if (!(await hasAcceptedConnection(tx, user.uId, company.companyId))) {
      throw new ServiceError('WSConnectionStatusNotActiveException', 'The user has no accepted connection with the company.');
    }
    const row =
      (await tx.findOne(UserIdentifier, { user, identifier: def })) ??
      tx.create(UserIdentifier, { user, identifier: def, value: input.membershipId });
    tx.assign(row, {
      value: input.membershipId,
      status: input.status ?? null,
      statusDate: input.statusDate ?? null,
      customField1: input.customField1 ?? null,
      customField2: input.customField2 ?? null,
      customField3: input.customField3 ?? null,
      customField4: input.customField4 ?? null,
      customField5: input.customField5 ?? null,
      sourceCompany: tx.getReference(Company, company.companyId),
    });
    await tx.flush();
    // A membership is an identifier value: it may settle the user's open requests elsewhere.
    await recheckOpenConnections(tx, user.uId);
    return toView(row, user.uId);
  });
}
