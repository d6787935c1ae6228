// The reference-data module's hand-written reads (docs/development.md, "Reads and writes"), their
// SQL in schema/sql/reference-data.sql: the stored reference lists as plain rows of the entities'
// own types (the entities double as the GraphQL types and have no field resolvers), so no entity
// is hydrated for a list that is only read. The rows and their order are those em.find gave, so the
// REST bodies and their ETags are unchanged. Every list selects every column its entity maps.
import { sql, type Expression, type SqlBool } from 'kysely';
import { anyOf, queriesOf, type RowOf } from '../../db/sql';
import {
  AssessmentField,
  AssessmentForm,
  Condition,
  FieldDefinition,
  Profession,
  ReferenceDataVersion,
  Specialty,
} from './reference-data.entity';

const { compiled, eb } = queriesOf({
  AssessmentField,
  AssessmentForm,
  Condition,
  FieldDefinition,
  Profession,
  ReferenceDataVersion,
  Specialty,
});

/** Every condition, by name then id. */
export const conditionRows = compiled(
  (db, _, { columns }) =>
    db.selectFrom('Condition as c').select(columns(Condition, 'c')).orderBy('c.conditionName').orderBy('c.conditionId'),
  { prepared: true },
);

/** The version counter of one reference list (no row when it has none yet). */
export const listVersion = compiled(
  (db, p: { name: string }) => db.selectFrom('ReferenceDataVersion as v').select('v.version').where('v.name', '=', p.name),
  { prepared: true },
);

/** Every profession, by name. */
export const professionRows = compiled(
  (db, _, { columns }) => db.selectFrom('Profession as p').select(columns(Profession, 'p')).orderBy('p.professionName'),
  { prepared: true },
);

/** Every specialty, by name. */
export const specialtyRows = compiled(
  (db, _, { columns }) => db.selectFrom('Specialty as s').select(columns(Specialty, 's')).orderBy('s.specialtyName'),
  { prepared: true },
);

/** The specialties of one profession, by name. */
export const professionSpecialtyRows = compiled(
  (db, p: { professionId: number }, { columns }) =>
    db.selectFrom('Specialty as s').select(columns(Specialty, 's')).where('s.professionId', '=', p.professionId).orderBy('s.specialtyName'),
  { prepared: true },
);

/** Every directory field definition, by id. */
export const fieldDefinitionRows = compiled(
  (db, _, { columns }) => db.selectFrom('FieldDefinition as f').select(columns(FieldDefinition, 'f')).orderBy('f.fieldId'),
  { prepared: true },
);

/** An assessment form as the list reads it: its fields come from the assessmentFields loader. */
export type AssessmentFormRow = RowOf<AssessmentForm>;

/** Every assessment form, by id. */
export const assessmentFormRows = compiled(
  (db, _, { columns }) => db.selectFrom('AssessmentForm as a').select(columns(AssessmentForm, 'a')).orderBy('a.assessmentId'),
  { prepared: true },
);

/** The assessment form of one UUID (lower case), or none. */
export const assessmentFormByUuid = compiled(
  (db, p: { uuid: string }, { columns }) =>
    db.selectFrom('AssessmentForm as a').select(columns(AssessmentForm, 'a')).where('a.assessmentUuid', '=', p.uuid),
  { prepared: true },
);

/** A question of an assessment form, with the id of its form (`form`). */
export type AssessmentFieldRow = RowOf<AssessmentField>;

/** The fields of any number of assessment forms (an array of ids), in form order. */
export const assessmentFieldRows = compiled(
  (db, p: { assessmentIds: number[] }, { columns }) =>
    db
      .selectFrom('AssessmentField as f')
      .select(columns(AssessmentField, 'f'))
      .where('f.form', '=', anyOf(p.assessmentIds, 'int'))
      .orderBy('f.fieldOrder')
      .orderBy('f.fieldId'),
  { prepared: true },
);

/** Whether field `fieldId` is an address field: `exists (...)`. */
export const isAddressField = (fieldId: Expression<number>): Expression<SqlBool> =>
  eb.exists(
    eb
      .selectFrom('FieldDefinition as reference_fd')
      .select(sql.lit(1).as('one'))
      .where('reference_fd.fieldId', '=', fieldId)
      .where('reference_fd.isAddressField', '=', sql.lit(true)),
  );

/** The reference lists a profile field may name an entry of, by their key property. */
const REFERENCE_KEYS = { profession: 'professionId', specialty: 'specialtyId', condition: 'conditionId' } as const;

/** Whether list `list` has an entry of key `key`: `exists (...)`. */
export const referenceExists = (list: keyof typeof REFERENCE_KEYS, key: Expression<unknown>): Expression<SqlBool> => {
  const table = ({ profession: 'Profession', specialty: 'Specialty', condition: 'Condition' } as const)[list];
  return eb.exists(
    eb
      .selectFrom(`${table} as reference_r` as 'Profession as reference_r')
      .select(sql.lit(1).as('one'))
      .where(`reference_r.${REFERENCE_KEYS[list]}` as 'reference_r.professionId', '=', key as Expression<number>),
  );
};

/** The profession of specialty `specialtyId`, null when there is none: a scalar subquery. */
export const professionOfSpecialty = (specialtyId: Expression<unknown>): Expression<number | null> =>
  eb
    .selectFrom('Specialty as reference_s')
    .select('reference_s.professionId')
    .where('reference_s.specialtyId', '=', specialtyId as Expression<number>) as never;
