// Users' own identifier values (e.g. a registration number a criterion asks for): checked
// against the identifier's format and stored one per user and identifier.
import type { EntityManager } from '@mikro-orm/core';
import { fieldTooLong, invalidParameter } from '../../core/errors';
import { charLength } from '../../core/text';
import { User } from '../user';
import { IdentifierDefinition, MEMBERSHIP_LIMITS, UserIdentifier } from './identifier.entity';

export interface IdentifierValue {
  identifierId: number;
  value: string;
}

/** The column's length: a membership record's membershipId is a value of the same column. */
export const IDENTIFIER_VALUE_MAX = MEMBERSHIP_LIMITS.membershipId;
const MAX_VALUES = 10;

/** Whether the value has the identifier's format; a definition without a usable pattern accepts any value. */
export function matchesFormat(def: IdentifierDefinition, value: string): boolean {
  if (!def.formatRegex) return true;
  let pattern: RegExp;
  try {
    pattern = new RegExp(def.formatRegex);
  } catch {
    return true;
  }
  return pattern.test(value);
}

/** Shape checks that need no database; trims values. */
export function checkIdentifierValues(values: IdentifierValue[]): IdentifierValue[] {
  if (values.length > MAX_VALUES) throw invalidParameter('identifiers', `At most ${MAX_VALUES} identifier values per request.`);
  const seen = new Set<number>();
  return values.map(({ identifierId, value }) => {
    if (seen.has(identifierId)) throw invalidParameter('identifierId', `Identifier ${identifierId} is given twice.`);
    seen.add(identifierId);
    const trimmed = value.trim();
    if (!trimmed) throw invalidParameter('value', 'An identifier value must not be empty.');
    if (charLength(trimmed) > IDENTIFIER_VALUE_MAX) throw fieldTooLong('value', IDENTIFIER_VALUE_MAX);
    return { identifierId, value: trimmed };
  });
}

/**
 * Stores the user's values (inserting or replacing their own), then flushes so that SQL
 * matching sees them. A value a company wrote (a membership record) is not overwritten.
 */
export async function storeIdentifierValues(em: EntityManager, userId: number, values: IdentifierValue[]): Promise<void> {
  const ids = values.map((v) => v.identifierId);
  const defs = new Map((await em.find(IdentifierDefinition, { identifierId: { $in: ids } })).map((d) => [d.identifierId, d]));
  const existing = new Map(
    (await em.find(UserIdentifier, { user: userId, identifier: { $in: ids } })).map((u) => [u.identifier.identifierId, u]),
  );
  for (const { identifierId, value } of values) {
    const def = defs.get(identifierId);
    if (!def) throw invalidParameter('identifierId', `Identifier ${identifierId} is not defined.`);
    if (!matchesFormat(def, value)) {
      throw invalidParameter(
        'value',
        `The value for ${def.name} does not have its format${def.formatDesc ? ` (e.g. ${def.formatDesc})` : ''}.`,
      );
    }
    const row = existing.get(identifierId);
    if (row?.sourceCompany) {
      if (row.value !== value) throw invalidParameter('identifierId', `${def.name} is managed by a company and cannot be changed here.`);
      continue;
    }
    if (row) row.value = value;
    else em.create(UserIdentifier, { user: em.getReference(User, userId), identifier: def, value });
  }
  await em.flush();
}
