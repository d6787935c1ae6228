// createMembershipDetails (13): a company, through its API key, records a user's membership as
// the user's value for the identifier the key is linked to. One record per user and
// identifier: a second call replaces every field of the first (omitted optional fields
// become null), so the record always equals the company's latest statement.
import { LockMode, type EntityManager } from '@mikro-orm/core';
import { invalidParameter, ServiceError } from '../../core/errors';
import { User } from '../user';
import { Company, type CompanyApiKey } from '../company';
import { hasAcceptedConnection, recheckOpenConnections } from '../connection';
import { IdentifierDefinition, UserIdentifier } from '../discovery';
import { matchesFormat } from '../discovery';
import { columnProps } from '../../db/sql';
import { fieldsOf } from '../../graphql/graph-fields';
import { MembershipDetailsInput, type MembershipDetails } from './membership.types';

type RecordField = keyof MembershipDetailsInput & keyof UserIdentifier & keyof MembershipDetails;

let recordFields: readonly RecordField[] | undefined;

/**
 * The fields the request, the stored record and its view share: each field of the input that is a
 * column of UserIdentifier of the same name (its status, date and free fields), in the input's
 * order, found once from the input's and the entity's metadata. The request writes them and the
 * view reads them back as they are, so a field added to the column and the input is carried
 * without being named here; the user and the membershipId (the record's value) are the service's.
 */
function fieldsOfRecord(em: EntityManager): readonly RecordField[] {
  if (recordFields) return recordFields;
  const columns = new Set(columnProps(em.getMetadata().get(UserIdentifier)).map((p) => p.name));
  return (recordFields = fieldsOf(MembershipDetailsInput)
    .map((f) => f.property)
    .filter((property): property is RecordField => columns.has(property)));
}

/** The record's fields of the input, absent as null: a second call replaces every field of the first. */
function recordValues(em: EntityManager, input: MembershipDetailsInput): Pick<UserIdentifier, RecordField> {
  return Object.fromEntries(fieldsOfRecord(em).map((field) => [field, input[field] ?? null]));
}

function toView(em: EntityManager, row: UserIdentifier, userId: number): MembershipDetails {
  const shared = Object.fromEntries(fieldsOfRecord(em).map((field) => [field, row[field] ?? null]));
  return { ...shared, userId, membershipId: row.value } as MembershipDetails;
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
      ...recordValues(tx, input),
      value: input.membershipId,
      sourceCompany: tx.getReference(Company, company.companyId),
    });
    await tx.flush();
    // A membership is an identifier value: it may settle the user's open requests elsewhere.
    await recheckOpenConnections(tx, user.uId);
    return toView(tx, row, user.uId);
  });
}
