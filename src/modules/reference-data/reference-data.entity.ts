// Tenant reference data that no package holds: conditions, professions, specialties,
// directory field definitions and assessment forms. Each entity doubles as its ObjectType.
import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Index } from '@mikro-orm/decorators/legacy';
import { Collection, PrimaryKeyProp, type Rel } from '@mikro-orm/core';
import { Field, Int, ObjectType } from 'type-graphql';
import { ruleText } from '../../graphql/rules';

/** Bound of the spec's Limits table (conditions), in characters: the column and its description read it. */
export const CONDITION_LIMITS = { conditionName: 100 } as const;

@ObjectType({ description: 'A medical condition users and contacts can be linked to.', simpleResolvers: true })
@Entity({ tableName: 'condition' })
export class Condition {
  [PrimaryKeyProp]?: 'conditionId';

  @Field(() => Int, { description: 'Id of the condition.' }) @PrimaryKey({ autoincrement: false }) conditionId!: number;

  @Field({ description: `Name of the condition. ${ruleText({ maxLength: CONDITION_LIMITS.conditionName })}` })
  @Property({ length: CONDITION_LIMITS.conditionName })
  conditionName!: string;
}

/** Version counters of reference lists whose clients cache them (conditions/version). */
@Entity({ tableName: 'reference_data_version' })
export class ReferenceDataVersion {
  [PrimaryKeyProp]?: 'name';

  @PrimaryKey({ length: 50 }) name!: string;

  @Property() version!: number;
}

@ObjectType({ description: 'A profession a user can hold.', simpleResolvers: true })
@Entity({ tableName: 'profession' })
export class Profession {
  [PrimaryKeyProp]?: 'professionId';

  @Field(() => Int, { description: 'Id of the profession.' }) @PrimaryKey({ autoincrement: false }) professionId!: number;

  @Field({ description: 'Name of the profession.' }) @Property({ length: 100 }) professionName!: string;
}

@ObjectType({ description: 'A specialty within a profession.', simpleResolvers: true })
@Entity({ tableName: 'specialty' })
export class Specialty {
  [PrimaryKeyProp]?: 'specialtyId';

  @Field(() => Int, { description: 'Id of the specialty.' }) @PrimaryKey({ autoincrement: false }) specialtyId!: number;

  @Field({ description: 'Name of the specialty.' }) @Property({ length: 100 }) specialtyName!: string;

  @Field(() => Int, { description: 'Profession the specialty belongs to.' }) @Property() professionId!: number;
}

@ObjectType({ description: 'A field a smart directory can show for its contacts.', simpleResolvers: true })
@Entity({ tableName: 'field_definition' })
export class FieldDefinition {
  [PrimaryKeyProp]?: 'fieldId';

  @Field(() => Int, { description: 'Id of the field definition, as used in directoryFieldIds.' })
  @PrimaryKey({ autoincrement: false })
  fieldId!: number;

  @Field({ description: 'Stable machine name of the field, e.g. firstName or addresses.' })
  @Property({ length: 50, unique: true })
  fieldCode!: string;

  @Field({ description: 'Display name of the field.' }) @Property({ length: 100 }) fieldName!: string;

  @Field({ description: 'Value type: text, email, phone, date or address.' }) @Property({ length: 20 }) fieldType!: string;

  @Field({ description: 'True when the field holds contact addresses.' }) @Property({ default: false }) isAddressField!: boolean;
}

@ObjectType({ description: 'An assessment form users fill in.', simpleResolvers: true })
@Entity({ tableName: 'assessment_form' })
export class AssessmentForm {
  [PrimaryKeyProp]?: 'assessmentId';

  @Field(() => Int, { description: 'Id of the assessment.' }) @PrimaryKey({ autoincrement: false }) assessmentId!: number;

  @Field({ description: 'UUID of the assessment.' }) @Property({ type: 'uuid', unique: true }) assessmentUuid!: string;

  @Field({ description: 'Name of the assessment.' }) @Property({ length: 255 }) assessmentName!: string;

  @OneToMany(() => AssessmentField, (f) => f.form)
  fields = new Collection<AssessmentField>(this);
}

@ObjectType({ description: 'A field (question) of an assessment form.', simpleResolvers: true })
@Entity({ tableName: 'assessment_field' })
@Index({ properties: ['form', 'fieldOrder'] })
export class AssessmentField {
  [PrimaryKeyProp]?: 'fieldId';

  @Field(() => Int, { description: 'Id of the field.' }) @PrimaryKey({ autoincrement: false }) fieldId!: number;

  @ManyToOne(() => AssessmentForm, { fieldName: 'assessment_id', deleteRule: 'cascade' }) form!: Rel<AssessmentForm>;

  @Field({ description: 'Question or label shown to the user.' }) @Property({ length: 500 }) label!: string;

  @Field({ name: 'type', simple: false, description: 'Answer type: text, textarea, number, date, boolean, single_choice or multi_choice.' })
  @Property({ length: 20 })
  fieldType!: string;

  @Field({ description: 'Whether an answer is required.' }) @Property() required!: boolean;

  @Field(() => [String], { description: 'Choices for single_choice and multi_choice fields; empty otherwise.' })
  @Property({ type: 'json' })
  options!: string[];

  @Field(() => Int, { name: 'order', simple: false, description: 'Position of the field in the form, from 1.' })
  @Property()
  fieldOrder!: number;
}
