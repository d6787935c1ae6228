// updateUserProfile: each field's own rules ran on the input (profile.inputs.ts); the checks
// across fields run here first, then one statement does the rest (where a locked read, one read
// per given reference and the unit of work's update each took a statement before). It
//  - locks the user's row (FOR UPDATE), which makes updatedFieldCount exact under concurrency:
//    a second update of the same field waits, then compares with the value the first one wrote;
//  - checks that the given reference ids and codes exist and that a specialty belongs to the
//    profession (given, or else stored);
//  - compares each given value with the stored one and, only when every check passed and some
//    value differs, writes the named columns and nothing else, which is what lets two concurrent
//    updates of different fields both survive.
// It answers its verdicts, and the errors are raised from them in the order the checks had when
// each was its own query: references in field order, the specialty's profession, then the
// e-mail's unique index (the write itself). The statement runs in a transaction so that the
// change hooks run after the write and roll it back when they throw.
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { ServiceError, invalidParameter } from '../../core/errors';
import { profileWrite, type ProfileWriteParams } from './user.queries';
import {
  PROFILE_FIELDS,
  PROFILE_FIELD_BY_NAME,
  READ_ONLY_PROFILE_FIELDS,
  normaliseProfileValue,
  type ProfileField,
} from './profile.fields';
import type { UpdateUserProfileInput } from './profile.inputs';
import type { Hooks } from '../../core/hooks';
import { charLength, truncate } from '../../core/text';

const shown = (name: string) => (charLength(name) > 60 ? `${truncate(name, 60)}...` : name);

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
  // Nothing given and nothing erased: nothing to check or write.
  if (!given.size && !toNull.size) return 0;
  // The statement (user.queries.ts profileWrite), compiled once for the fields it names.
  const refs = [...given.keys()].filter((f) => f.ref);
  const candidates = [...given.keys(), ...toNull];
  const write = profileWrite({ candidates, erased: toNull, refs });
  const params: ProfileWriteParams = { callerId, now: new Date() };
  for (const [field, value] of given) params[field.name] = value;

  return em.transactional(
    async (tx) => {
      let verdict: Record<string, unknown> | undefined;
      try {
        [verdict] = await write.run(tx, params);
      } catch (err) {
        // The unique index on lower(email) decides, so two users racing for one address cannot both win.
        if (tx.getDriver().convertException(err as Error) instanceof UniqueConstraintViolationException)
          throw invalidParameter('uEmail', 'uEmail is already used by another user.');
        throw err;
      }
      if (!verdict) throw new Error(`User ${callerId} has no row.`);
      refs.forEach((field, i) => {
        if (!verdict[`r${i}`]) throw invalidParameter(field.name, `${field.name} does not name an entry of the ${field.ref} list.`);
      });
      if (verdict.fits === false) throw invalidParameter('uSpecialtyId', 'uSpecialtyId does not belong to the profession.');
      const changed = candidates.filter((_, i) => verdict[`c${i}`]);
      if (!changed.length) return 0;
      await hooks.emit('profileChanged', { em: tx, userId: callerId, changedFields: changed.map((f) => f.name) });
      return changed.length;
    },
    { clear: true },
  );
}
