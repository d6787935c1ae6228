// The reference-data module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Reference data: conditions, professions, specialties, assessment forms, field definitions, and the ISO country, state and time-zone
// lists.
import { defineModule } from '../../core/module';
import {
  Condition,
  ReferenceDataVersion,
  AssessmentForm,
  AssessmentField,
  Profession,
  Specialty,
  FieldDefinition,
} from './reference-data.entity';
import { ReferenceDataResolver, AssessmentFormResolver } from './reference-data.resolver';
import { createReferenceDataLoaders } from './reference-data.loaders';
import { referenceDataRoutes } from './reference-data.routes';

export const referenceData = defineModule({
  name: 'reference-data',
  entities: [Condition, ReferenceDataVersion, AssessmentForm, AssessmentField, Profession, Specialty, FieldDefinition],
  resolvers: [ReferenceDataResolver, AssessmentFormResolver],
  loaders: createReferenceDataLoaders,
  tag: 'Reference data',
  routes: referenceDataRoutes,
  seeders: () => import('./reference-data.seeder.js').then((m) => [m.ReferenceDataSeeder]),
});

export { countryName, isValidTimezone, listCountries, listStates, listTimezones, stateName } from './iso';
export { Condition, FieldDefinition, Profession, ReferenceDataVersion, Specialty } from './reference-data.entity';
export { isAddressField, professionOfSpecialty, referenceExists } from './reference-data.queries';
