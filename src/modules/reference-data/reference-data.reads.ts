// Read models of the stored reference lists (docs/development.md, "Reads and writes"): fixed SQL
// written once from the entities' metadata, answering plain rows of the entities' own types (the
// entities double as the GraphQL types and have no field resolvers), so no entity is hydrated for
// a list that is only read. The rows and their order are those em.find gave, so the REST bodies
// and their ETags are unchanged. The short lists select every column of their entity and are
// mapped by its metadata; the lists that can run to hundreds of rows (conditions, specialties, the
// questions of forms) select their columns under the properties' names (TableNames.fields), which
// leaves no work per row.
import { readModel, selectAs } from '../../db/lean';
import { fieldsOf } from '../../graphql/graph-fields';
import {
  AssessmentField,
  AssessmentForm,
  Condition,
  FieldDefinition,
  Profession,
  ReferenceDataVersion,
  Specialty,
} from './reference-data.entity';

/** Every condition, by name then id. */
export const conditionRows = readModel<Condition>({
  sql: (n) => {
    const c = n(Condition);
    return `select ${c.fields('c')} from ${c.table} c order by c.${c.column('conditionName')}, c.${c.column('conditionId')}`;
  },
  prepared: true,
});

/** The version counter of one reference list ([] when it has none yet). */
export const listVersion = readModel<number, [name: string], Pick<ReferenceDataVersion, 'version'>>({
  sql: (n) => {
    const v = n(ReferenceDataVersion);
    return `select ${v.column('version')} as version from ${v.table} where ${v.column('name')} = ?`;
  },
  shape: (row) => row.version,
  prepared: true,
});

/** Every profession, by name. */
export const professionRows = readModel<Profession>({
  entity: Profession,
  sql: (n) => {
    const p = n(Profession);
    return `select ${p.columns()} from ${p.table} order by ${p.column('professionName')}`;
  },
  prepared: true,
});

/** Specialties, every one or those of one profession, by name. */
function specialties(filter: 'all' | 'profession') {
  return readModel<Specialty, [] | [professionId: number]>({
    sql: (n) => {
      const s = n(Specialty);
      const where = filter === 'profession' ? ` where s.${s.column('professionId')} = ?` : '';
      return `select ${s.fields('s')} from ${s.table} s${where} order by s.${s.column('specialtyName')}`;
    },
    prepared: true,
  });
}
export const specialtyRows = specialties('all');
export const professionSpecialtyRows = specialties('profession');

/** Every directory field definition, by id. */
export const fieldDefinitionRows = readModel<FieldDefinition>({
  entity: FieldDefinition,
  sql: (n) => {
    const f = n(FieldDefinition);
    return `select ${f.columns()} from ${f.table} order by ${f.column('fieldId')}`;
  },
  prepared: true,
});

/** An assessment form as the list reads it: its fields come from the assessmentFields loader. */
export type AssessmentFormRow = Pick<AssessmentForm, 'assessmentId' | 'assessmentUuid' | 'assessmentName'>;

function assessmentForms(filter: 'all' | 'uuid') {
  return readModel<AssessmentFormRow, [] | [uuid: string]>({
    entity: AssessmentForm,
    sql: (n) => {
      const a = n(AssessmentForm);
      const select = `select ${a.columns()} from ${a.table}`;
      return filter === 'uuid' ? `${select} where ${a.column('assessmentUuid')} = ?` : `${select} order by ${a.column('assessmentId')}`;
    },
    prepared: true,
  });
}
/** Every assessment form, by id. */
export const assessmentFormRows = assessmentForms('all');
/** The assessment form of one UUID (lower case), or none. */
export const assessmentFormByUuid = assessmentForms('uuid');

/** A question of an assessment form, with the id of its form. */
export type AssessmentFieldRow = Omit<AssessmentField, 'form'> & { assessmentId: number };

/**
 * The properties of the AssessmentField type's fields (every column but its form's key), from its
 * metadata; called once, when the statement is first written.
 */
const questionProps = () => fieldsOf(AssessmentField).map((f) => f.property as keyof AssessmentField & string);

/** The fields of any number of assessment forms, in form order. */
export const assessmentFieldRows = readModel<AssessmentFieldRow, [assessmentIds: number[]]>({
  sql: (n) => {
    const f = n(AssessmentField);
    return (
      `select ${f.fields('f', questionProps())}, ${selectAs(f, 'f', { assessmentId: 'form' }).join(', ')} from ${f.table} f ` +
      `where f.${f.column('form')} = any(?::int[]) order by f.${f.column('fieldOrder')}, f.${f.column('fieldId')}`
    );
  },
  prepared: true,
});
