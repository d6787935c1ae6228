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
import { UniqueConstraintViolationException, type EntityManager, type EntityName } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { ServiceError, invalidParameter } from '../../core/errors';
import { tableOf } from '../../db/lean';
import { Condition, Profession, Specialty } from '../reference-data';
import { User } from './user.entity';
import { Gender, Title } from './user-reference.entity';
import {
  PROFILE_FIELDS,
  PROFILE_FIELD_BY_NAME,
  READ_ONLY_PROFILE_FIELDS,
  normaliseProfileValue,
  type ProfileField,
  type ReferenceTable,
} from './profile.fields';
import type { UpdateUserProfileInput } from './profile.inputs';
import type { Hooks } from '../../core/hooks';
import { charLength, truncate } from '../../core/text';

const PROFESSION = PROFILE_FIELD_BY_NAME.get('uProfessionId')!;

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

/** The table and key column each reference field names an entry of. */
const REFERENCES: Record<ReferenceTable, [EntityName<object>, string]> = {
  title: [Title, 'titleId'],
  gender: [Gender, 'genderCode'],
  profession: [Profession, 'professionId'],
  specialty: [Specialty, 'specialtyId'],
  condition: [Condition, 'conditionId'],
};

interface ProfileWrite {
  sql: string;
  params: unknown[];
  /** The given reference fields, in field order: verdict column rN says whether the Nth names an entry. */
  refs: ProfileField[];
  /** The given and the erased fields, in that order: verdict column cN says whether the Nth changes. */
  candidates: ProfileField[];
}

/**
 * The statement of one update. Its text depends on which fields are given, so it is written per
 * request from the entities' metadata (src/db/lean.ts); values are `?` parameters, pushed in
 * the order they appear in the text.
 */
function profileWrite(em: EntityManager, callerId: number, given: Map<ProfileField, unknown>, toNull: Set<ProfileField>): ProfileWrite {
  const user = tableOf(em, User);
  const params: unknown[] = [];
  const p = (value: unknown) => (params.push(value), '?');
  const refs = [...given.keys()].filter((f) => f.ref);
  const candidates = [...given.keys(), ...toNull];
  const specialty = refs.find((f) => f.ref === 'specialty');
  const id = user.column('uId');

  const read = new Set([id, ...candidates.map((f) => user.column(f.prop))]);
  if (specialty) read.add(user.column('professionId'));
  const old = `select ${[...read].join(', ')} from ${user.table} where ${id} = ${p(callerId)} for update`;

  const verdicts = [`old.${id}`];
  refs.forEach((f, i) => {
    const [entity, key] = REFERENCES[f.ref!];
    const ref = tableOf(em, entity as EntityName<Record<string, unknown>>);
    verdicts.push(`exists(select 1 from ${ref.table} where ${ref.column(key)} = ${p(given.get(f))}) as r${i}`);
  });
  if (specialty) {
    const s = tableOf(em, Specialty);
    const givenProfession = given.get(PROFESSION);
    const profession = () => (givenProfession === undefined ? `old.${user.column('professionId')}` : p(givenProfession));
    const owner = () =>
      `(select ${s.column('professionId')} from ${s.table} where ${s.column('specialtyId')} = ${p(given.get(specialty))})`;
    verdicts.push(`(${profession()} is null or ${owner()} = ${profession()}) is true as fits`);
  }
  candidates.forEach((f, i) => {
    const column = `old.${user.column(f.prop)}`;
    verdicts.push(toNull.has(f) ? `${column} is not null as c${i}` : `${column} is distinct from ${p(given.get(f))} as c${i}`);
  });

  const set = candidates.map((f) => `${user.column(f.prop)} = ${toNull.has(f) ? 'null' : p(given.get(f))}`);
  set.push(`${user.column('updatedAt')} = ${p(new Date())}`);
  const guards = [
    ...refs.map((_, i) => `v.r${i}`),
    ...(specialty ? ['v.fits'] : []),
    `(${candidates.map((_, i) => `v.c${i}`).join(' or ')})`,
  ];
  const write = `update ${user.table} as u set ${set.join(', ')} from verdict as v where u.${id} = v.${id} and ${guards.join(' and ')}`;

  // A data-modifying WITH runs to completion whether or not the outer select reads it.
  const sql = `with old as (${old}), verdict as (select ${verdicts.join(', ')} from old), written as (${write}) select * from verdict`;
  return { sql, params, refs, candidates };
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
  const { sql, params, refs, candidates } = profileWrite(em, callerId, given, toNull);

  return em.transactional(
    async (tx) => {
      let verdict: Record<string, unknown> | undefined;
      try {
        [verdict] = await (tx as SqlEntityManager).execute<Record<string, unknown>[]>(sql, params);
      } catch (err) {
        // The unique index on lower(email) decides, so two users racing for one address cannot both win.
        if (err instanceof UniqueConstraintViolationException) throw invalidParameter('uEmail', 'uEmail is already used by another user.');
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
