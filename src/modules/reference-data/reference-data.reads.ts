// Read models of the stored reference lists (docs/development.md, "Reads are read models"): fixed
// SQL written once from the entities' metadata, answering plain rows shaped like the GraphQL
// types (the entities double as those types and have no field resolvers), so no entity is
// hydrated for a list that is only read. The rows and their order are those em.find gave, so the
// REST bodies and their ETags are unchanged.
import { readQuery } from '../../db/lean';
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
export const conditionRows = readQuery<Condition, [], { id: number; name: string }>(
  (n) => {
    const c = n(Condition);
    return `select ${c.column('conditionId')} as id, ${c.column('conditionName')} as name from ${c.table} order by ${c.column('conditionName')}, ${c.column('conditionId')}`;
  },
  (row) => ({ conditionId: row.id, conditionName: row.name }),
  { prepared: true },
);

/** The version counter of one reference list ([] when it has none yet). */
export const listVersion = readQuery<number, [name: string], { version: number }>(
  (n) => {
    const v = n(ReferenceDataVersion);
    return `select ${v.column('version')} as version from ${v.table} where ${v.column('name')} = ?`;
  },
  (row) => row.version,
  { prepared: true },
);

/** Every profession, by name. */
export const professionRows = readQuery<Profession, [], { id: number; name: string }>(
  (n) => {
    const p = n(Profession);
    return `select ${p.column('professionId')} as id, ${p.column('professionName')} as name from ${p.table} order by ${p.column('professionName')}`;
  },
  (row) => ({ professionId: row.id, professionName: row.name }),
  { prepared: true },
);

/** Specialties, every one or those of one profession, by name. */
function specialties(filter: 'all' | 'profession') {
  return readQuery<Specialty, [] | [professionId: number], { id: number; name: string; profession: number }>(
    (n) => {
      const s = n(Specialty);
      const where = filter === 'profession' ? ` where ${s.column('professionId')} = ?` : '';
      return (
        `select ${s.column('specialtyId')} as id, ${s.column('specialtyName')} as name, ${s.column('professionId')} as profession ` +
        `from ${s.table}${where} order by ${s.column('specialtyName')}`
      );
    },
    (row) => ({ specialtyId: row.id, specialtyName: row.name, professionId: row.profession }),
    { prepared: true },
  );
}
export const specialtyRows = specialties('all');
export const professionSpecialtyRows = specialties('profession');

/** Every directory field definition, by id. */
export const fieldDefinitionRows = readQuery<
  FieldDefinition,
  [],
  { id: number; code: string; name: string; type: string; address: boolean }
>(
  (n) => {
    const f = n(FieldDefinition);
    return (
      `select ${f.column('fieldId')} as id, ${f.column('fieldCode')} as code, ${f.column('fieldName')} as name, ` +
      `${f.column('fieldType')} as type, ${f.column('isAddressField')} as address from ${f.table} order by ${f.column('fieldId')}`
    );
  },
  (row) => ({ fieldId: row.id, fieldCode: row.code, fieldName: row.name, fieldType: row.type, isAddressField: row.address }),
  { prepared: true },
);

/** An assessment form as the list reads it: its fields come from the assessmentFields loader. */
export type AssessmentFormRow = Pick<AssessmentForm, 'assessmentId' | 'assessmentUuid' | 'assessmentName'>;

function assessmentForms(filter: 'all' | 'uuid') {
  return readQuery<AssessmentFormRow, [] | [uuid: string], { id: number; uuid: string; name: string }>(
    (n) => {
      const a = n(AssessmentForm);
      const select = `select ${a.column('assessmentId')} as id, ${a.column('assessmentUuid')} as uuid, ${a.column('assessmentName')} as name from ${a.table}`;
      return filter === 'uuid' ? `${select} where ${a.column('assessmentUuid')} = ?` : `${select} order by ${a.column('assessmentId')}`;
    },
    (row) => ({ assessmentId: row.id, assessmentUuid: row.uuid, assessmentName: row.name }),
    { prepared: true },
  );
}
/** Every assessment form, by id. */
export const assessmentFormRows = assessmentForms('all');
/** The assessment form of one UUID (lower case), or none. */
export const assessmentFormByUuid = assessmentForms('uuid');

/** A question of an assessment form, with the id of its form. */
export type AssessmentFieldRow = Omit<AssessmentField, 'form'> & { assessmentId: number };

/** The fields of any number of assessment forms, in form order. */
export const assessmentFieldRows = readQuery<
  AssessmentFieldRow,
  [assessmentIds: number[]],
  { id: number; form: number; label: string; type: string; required: boolean; options: string[]; position: number }
>(
  (n) => {
    const f = n(AssessmentField);
    return (
      `select ${f.column('fieldId')} as id, ${f.column('form')} as form, ${f.column('label')} as label, ${f.column('fieldType')} as type, ` +
      `${f.column('required')} as required, ${f.column('options')} as options, ${f.column('fieldOrder')} as position ` +
      `from ${f.table} where ${f.column('form')} = any(?::int[]) order by ${f.column('fieldOrder')}, ${f.column('fieldId')}`
    );
  },
  (row) => ({
    fieldId: row.id,
    assessmentId: row.form,
    label: row.label,
    fieldType: row.type,
    required: row.required,
    options: row.options,
    fieldOrder: row.position,
  }),
  { prepared: true },
);
