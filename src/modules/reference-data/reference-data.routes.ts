import { referenceList, type RouteDef } from '../../rest/route';
import { bodySelection } from '../../rest/body-selection';
import type { GraphType } from '../../graphql/graph-fields';
import { AssessmentForm, FieldDefinition, Specialty } from './reference-data.entity';
import { StateView, TimezoneView } from './reference-data.types';
// The fields of a form its resolver adds are declared before the body is derived.
import './reference-data.resolver';

/** The specification's timezone: whole hours only (the minutes, for zones off the hour, are GraphQL's). */
const TIMEZONE_BODY = new Map([[TimezoneView, { omit: ['offsetMinutes', 'dstOffsetMinutes'] }]]);

/** Every field of a list's item, in its type's order. */
const every = (type: GraphType) => bodySelection(type, new Map());

export const referenceDataRoutes: RouteDef[] = [
  referenceList(
    '/rest/refdata/timezones',
    `query getAllTimezones($countryCode: String) {
    timezones(countryCode: $countryCode) { ${bodySelection(TimezoneView, TIMEZONE_BODY)} } }`,
  ),
  referenceList('/rest/refdata/conditions', `query getConditions { conditions { conditionId conditionName } }`),
  referenceList('/rest/refdata/conditions/version', `query getConditionsVersion { conditionsVersion { version } }`),
  referenceList(
    '/rest/refdata/assessment-forms',
    `query getAssessmentForms($assessmentUuid: String) {
    assessmentForms(assessmentUuid: $assessmentUuid) { ${every(AssessmentForm)} } }`,
  ),
  referenceList('/rest/refdata/countries', `query getCountries { countries { countryCode countryName } }`),
  referenceList(
    '/rest/refdata/states',
    `query getStates($countryCode: String!) { states(countryCode: $countryCode) { ${every(StateView)} } }`,
  ),
  referenceList('/rest/refdata/field-definitions', `query getFieldDefinitions { fieldDefinitions { ${every(FieldDefinition)} } }`),
  referenceList('/rest/refdata/professions', `query getProfessions { professions { professionId professionName } }`),
  referenceList(
    '/rest/refdata/specialties',
    `query getSpecialties($professionId: Int) { specialties(professionId: $professionId) { ${every(Specialty)} } }`,
  ),
];
