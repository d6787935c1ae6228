// The user module's hand-written reads (docs/development.md, "Reads and writes"), their SQL in
// schema/sql/user.sql. The title and gender lists: every column of the entity (the entities double
// as the GraphQL types and have no field resolvers), in the order em.find gave; a handful of rows.
import { sql, type AliasedExpression, type Expression, type SqlBool } from 'kysely';
import { queriesOf } from '../../db/sql';
import { professionOfSpecialty, referenceExists } from '../reference-data';
import { PROFILE_FIELD_BY_NAME, type ProfileField, type ReferenceTable } from './profile.fields';
import { Gender, Title } from './user-reference.entity';
import { User } from './user.entity';

const { compiled, eb } = queriesOf({ Title, Gender, User });

/**
 * A user's row by id, every column: the principal of every authenticated request reads it
 * (src/modules/identity/principal.ts), a plain row rather than a managed entity.
 */
export const userRowById = compiled(
  (db, p: { uId: number }, { columns }) => db.selectFrom('User as u').select(columns(User, 'u')).where('u.uId', '=', p.uId).limit(1),
  { prepared: true },
);

/** Every title, by id. */
export const titleRows = compiled((db, _, { columns }) => db.selectFrom('Title as t').select(columns(Title, 't')).orderBy('t.titleId'), {
  prepared: true,
});

/** Every gender, by name. */
export const genderRows = compiled(
  (db, _, { columns }) => db.selectFrom('Gender as g').select(columns(Gender, 'g')).orderBy('g.genderName'),
  { prepared: true },
);

/**
 * Every user as a table to join (its columns under their own names, which the asker's query
 * names by property and selects under an alias of its own: the user's key, e-mail, names, whether notifications are on and
 * whether the account is active): what a message to a user is addressed and filled with.
 */
export const userContacts = () =>
  eb
    .selectFrom('User as user_u')
    .select(['user_u.uId', 'user_u.email', 'user_u.firstName', 'user_u.lastName', 'user_u.enableNotifications', 'user_u.active']);

/** What one profile update names: the given fields and the erased ones (each in its order), and the given reference fields. */
export interface ProfileWriteShape {
  /** The fields given a value, then those erased: verdict column cN says whether the Nth changes. */
  candidates: readonly ProfileField[];
  /** Which of the candidates are erased (set null). */
  erased: ReadonlySet<ProfileField>;
  /** The given reference fields, in field order: verdict column rN says whether the Nth names an entry. */
  refs: readonly ProfileField[];
}

/**
 * The parameters of a profile write: the caller's id, the time, and each given field's value under
 * the field's name.
 */
export type ProfileWriteParams = { callerId: number; now: Date } & Record<string, unknown>;

/** Whether reference list `list` has an entry of key `key`: the user module's own lists, or reference-data's. */
const referenceEntryExists = (list: ReferenceTable, key: Expression<unknown>): Expression<SqlBool> =>
  list === 'title'
    ? eb.exists(
        eb
          .selectFrom('Title as t')
          .select(sql.lit(1).as('one'))
          .where('t.titleId', '=', key as Expression<number>),
      )
    : list === 'gender'
      ? eb.exists(
          eb
            .selectFrom('Gender as g')
            .select(sql.lit(1).as('one'))
            .where('g.genderCode', '=', key as Expression<string>),
        )
      : referenceExists(list, key);

/**
 * The one statement of a profile update (profile.service.ts): locks the user's row (`old`), answers
 * its verdicts (each given reference names an entry, a given specialty fits the profession, which
 * candidates change) and, only when every check passed and some value differs, writes the named
 * columns and nothing else. A data-modifying WITH runs to completion whether or not the outer
 * select reads it. Its text depends on the fields named, so it is compiled once per shape.
 */
function profileWriteQuery({ candidates, erased, refs }: ProfileWriteShape) {
  const specialty = refs.find((f) => f.ref === 'specialty');
  const profession = candidates.find((f) => f.prop === 'professionId' && !erased.has(f));
  return compiled((db, p: ProfileWriteParams) => {
    const read = new Set<keyof User & string>(['uId', ...candidates.map((f) => f.prop)]);
    if (specialty) read.add('professionId');
    return db
      .with('old', (q) =>
        q
          .selectFrom('User as o')
          .select([...read].map((prop) => `o.${prop}` as 'o.uId'))
          .where('o.uId', '=', p.callerId)
          .forUpdate(),
      )
      .with('verdict', (q) =>
        q.selectFrom('old' as never).select(() => {
          const old = (prop: string) => sql.ref(`old.${prop}`);
          const verdicts: AliasedExpression<unknown, string>[] = [sql`${old('uId')}`.as('callerId')];
          refs.forEach((f, i) => verdicts.push(sql`${referenceEntryExists(f.ref!, sql.val(p[f.name]))}`.as(`r${i}`)));
          if (specialty) {
            const given = () => (profession ? sql`${p[profession.name]}::int` : old('professionId'));
            verdicts.push(
              sql`(${given()} is null or ${professionOfSpecialty(sql.val(p[specialty.name]))} = ${given()}) is true`.as('fits'),
            );
          }
          candidates.forEach((f, i) =>
            verdicts.push(
              (erased.has(f) ? sql`${old(f.prop)} is not null` : sql`${old(f.prop)} is distinct from ${p[f.name]}`).as(`c${i}`),
            ),
          );
          return verdicts as never;
        }),
      )
      .with('written', (q) =>
        q
          .updateTable('User')
          .set({
            ...Object.fromEntries(candidates.map((f) => [f.prop, erased.has(f) ? null : p[f.name]])),
            updatedAt: p.now,
          } as never)
          .from('verdict as v' as never)
          .where(
            () =>
              sql<SqlBool>`${sql.ref('User.uId')} = ${sql.ref('v.callerId')} and ${sql.join(
                [
                  ...refs.map((_, i) => sql.ref(`v.r${i}`)),
                  ...(specialty ? [sql.ref('v.fits')] : []),
                  sql`(${sql.join(
                    candidates.map((_, i) => sql.ref(`v.c${i}`)),
                    sql` or `,
                  )})`,
                ],
                sql` and `,
              )}`,
          ),
      )
      .selectFrom('verdict' as never)
      .selectAll()
      .$castTo<Record<string, unknown>>();
  });
}

/** The compiled write of each shape met, by its fields' names (a bounded set: the shapes clients send). */
const profileWrites = new Map<string, ReturnType<typeof profileWriteQuery>>();

/** The profile write of a shape, compiled on its first use. */
export function profileWrite(shape: ProfileWriteShape) {
  const key = shape.candidates.map((f) => `${shape.erased.has(f) ? '-' : '+'}${f.name}`).join(',');
  let query = profileWrites.get(key);
  if (!query) {
    if (profileWrites.size >= 1000) profileWrites.clear();
    profileWrites.set(key, (query = profileWriteQuery(shape)));
  }
  return query;
}

/** A profile write as committed text: a first name erased, a specialty and a title given (a shape with each kind of check). */
export const profileWriteExample = profileWrite({
  candidates: [
    PROFILE_FIELD_BY_NAME.get('uTitleId')!,
    PROFILE_FIELD_BY_NAME.get('uSpecialtyId')!,
    PROFILE_FIELD_BY_NAME.get('uFirstName')!,
  ],
  erased: new Set([PROFILE_FIELD_BY_NAME.get('uFirstName')!]),
  refs: [PROFILE_FIELD_BY_NAME.get('uTitleId')!, PROFILE_FIELD_BY_NAME.get('uSpecialtyId')!],
});
