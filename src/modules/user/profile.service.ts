// updateUserProfile: each field's own rules ran on the input (profile.inputs.ts); the checks
// across fields and against the reference data run here first, then, in one transaction with the
// user's row locked, write only the columns whose value really differs and run the change hooks.
// The lock makes updatedFieldCount exact under concurrency; writing only changed columns
// is what lets two concurrent updates of different fields both survive.
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { ServiceError, invalidParameter } from '../../graphql/errors';
import { Condition, Profession, Specialty } from '../reference-data';
import { User } from './user.entity';
import { Gender, Title } from './user-reference.entity';
import {
  PROFILE_FIELDS,
  PROFILE_FIELD_BY_NAME,
  READ_ONLY_PROFILE_FIELDS,
  normaliseProfileValue,
  type ProfileField,
} from './profile.fields';
import type { UpdateUserProfileInput } from './profile.inputs';
import type { Hooks } from '../../core/hooks';

const PROFESSION = PROFILE_FIELD_BY_NAME.get('uProfessionId')!;

const shown = (name: string) => (name.length > 60 ? `${name.slice(0, 60)}...` : name);

function parseFieldsToNull(names: string[] | null | undefined): Set<ProfileField> {
  const fields = new Set<ProfileField>();
  for (const name of names ?? []) {
    const field = PROFILE_FIELD_BY_NAME.get(name);
    if (!field) {
      const why = READ_ONLY_PROFILE_FIELDS.includes(name) || name === 'uId' ? 'is read-only' : 'is not a profile field';
      throw invalidParameter('fieldsToNull', `fieldsToNull: ${shown(name)} ${why}.`);
    }
    if (!field.nullable) throw invalidParameter('fieldsToNull', `fieldsToNull: ${name} cannot be null.`);
    fields.add(field);
  }
  return fields;
}

/** Ids and codes that must exist in a reference table: one query per given reference. */
async function checkReferences(em: EntityManager, given: Map<ProfileField, unknown>): Promise<Specialty | null> {
  let specialty: Specialty | null = null;
  for (const [field, value] of given) {
    if (!field.ref) continue;
    let found: unknown;
    switch (field.ref) {
      case 'title':
        found = await em.findOne(Title, { titleId: value as number });
        break;
      case 'gender':
        found = await em.findOne(Gender, { genderCode: value as string });
        break;
      case 'profession':
        found = await em.findOne(Profession, { professionId: value as number });
        break;
      case 'condition':
        found = await em.findOne(Condition, { conditionId: value as number });
        break;
      case 'specialty':
        found = specialty = await em.findOne(Specialty, { specialtyId: value as number });
        break;
    }
    if (!found) throw invalidParameter(field.name, `${field.name} does not name an entry of the ${field.ref} list.`);
  }
  return specialty;
}

/** Applies the update for the caller; answers the number of fields really changed. */
export async function updateUserProfile(em: EntityManager, hooks: Hooks, callerId: number, input: UpdateUserProfileInput): Promise<number> {
  if (input.uId !== callerId) {
    throw new ServiceError('WSInsufficientPrivilegesException', 'uId must be the id of the calling user.', { field: 'uId' });
  }
  const toNull = parseFieldsToNull(input.fieldsToNull);
  const given = new Map<ProfileField, unknown>();
  for (const field of PROFILE_FIELDS) {
    const raw = (input as unknown as Record<string, unknown>)[field.name];
    // Null means "no value given": a client sending back a read profile erases nothing.
    if (raw === undefined || raw === null) continue;
    if (toNull.has(field)) throw invalidParameter(field.name, `${field.name} has a value and is also named in fieldsToNull.`);
    given.set(field, normaliseProfileValue(field, raw));
  }
  const specialty = await checkReferences(em, given);

  return em.transactional(
    async (tx) => {
      const user = await tx.findOneOrFail(User, { uId: callerId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const current = user as unknown as Record<string, unknown>;
      const changed: ProfileField[] = [];
      for (const [field, value] of given) if (current[field.prop] !== value) changed.push(field);
      for (const field of toNull) if (current[field.prop] != null) changed.push(field);

      if (specialty) {
        const professionId = given.has(PROFESSION) ? (given.get(PROFESSION) as number) : user.professionId;
        if (professionId != null && specialty.professionId !== professionId) {
          throw invalidParameter('uSpecialtyId', 'uSpecialtyId does not belong to the profession.');
        }
      }
      if (!changed.length) return 0;

      for (const field of changed) current[field.prop] = toNull.has(field) ? null : given.get(field);
      try {
        await tx.flush();
      } catch (err) {
        // The unique index on lower(email) decides, so two users racing for one address cannot both win.
        if (err instanceof UniqueConstraintViolationException) throw invalidParameter('uEmail', 'uEmail is already used by another user.');
        throw err;
      }
      await hooks.emit('profileChanged', { em: tx, userId: callerId, changedFields: changed.map((f) => f.name) });
      return changed.length;
    },
    { clear: true },
  );
}
