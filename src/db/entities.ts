// Every entity the ORM knows, in one list: the ORM, the schema check and the migration
// generator all read it.
import { Condition, ReferenceDataVersion, AssessmentForm, AssessmentField, Profession, Specialty, FieldDefinition } from '../modules/reference-data/reference-data.entity';

export const ENTITIES = [Condition, ReferenceDataVersion, AssessmentForm, AssessmentField, Profession, Specialty, FieldDefinition];
