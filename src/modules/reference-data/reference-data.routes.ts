import { referenceList, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import type { GraphType } from '../../graphql/graph-fields';
import { AssessmentForm, FieldDefinition, Specialty } from './reference-data.entity';
import { StateView, TimezoneView } from './reference-data.types';

/** The specification's timezone: whole hours only (the minutes, for zones off the hour, are GraphQL's). */
const TIMEZONE_BODY = new Map([[TimezoneView, { omit: ['offsetMinutes', 'dstOffsetMinutes'] }]]);

/** Every field of a list's item, in its type's order. */
const every = (type: GraphType) => body(type, new Map());

export const referenceDataRoutes: DeclaredRoute[] = [
  referenceList(
    '/rest/refdata/timezones',
    doc`query getAllTimezones($countryCode: String) {
    timezones(countryCode: $countryCode) { ${body(TimezoneView, TIMEZONE_BODY)} } }`,
    'Sorted by timezoneId. offsetHours is the standard UTC offset in whole hours, dstOffsetHours the daylight-saving addition (0 where none). ' +
      'countryCode is ISO 3166-1 alpha-2 in any case: one not of two letters is WSInvalidParameterException, a well-formed unknown one gives an empty array.',
  ),
  referenceList(
    '/rest/refdata/conditions',
    doc`query getConditions { conditions { conditionId conditionName } }`,
    'Sorted by conditionName: one list for users and contacts alike. GET /rest/refdata/conditions/version answers its data version.',
  ),
  referenceList(
    '/rest/refdata/conditions/version',
    doc`query getConditionsVersion { conditionsVersion { version } }`,
    'Answers {version}, an integer (1 when none was recorded), which a client holding the conditions list compares before reading it again.',
  ),
  referenceList(
    '/rest/refdata/assessment-forms',
    doc`query getAssessmentForms($assessmentUuid: String) {
    assessmentForms(assessmentUuid: $assessmentUuid) { ${every(AssessmentForm)} } }`,
    'Sorted by assessmentId, each form with its fields in their order. With assessmentUuid: an array of that one form, empty when no form has it.',
  ),
  referenceList(
    '/rest/refdata/countries',
    doc`query getCountries { countries { countryCode countryName } }`,
    'Every ISO 3166-1 alpha-2 code, sorted by English name: the country codes profiles and addresses carry.',
  ),
  referenceList(
    '/rest/refdata/states',
    doc`query getStates($countryCode: String!) { states(countryCode: $countryCode) { ${every(StateView)} } }`,
    'Sorted by name. stateCode is the part of the ISO 3166-2 code after the dash (NSW for AU-NSW), as addresses carry it. countryCode is ' +
      'required, in any case: one not of two letters is WSInvalidParameterException, a well-formed unknown one gives an empty array.',
  ),
  referenceList(
    '/rest/refdata/field-definitions',
    doc`query getFieldDefinitions { fieldDefinitions { ${every(FieldDefinition)} } }`,
    "Sorted by fieldId: the ids createSupportGroup's directoryFieldIds names (first and last name are added by default).",
  ),
  referenceList(
    '/rest/refdata/professions',
    doc`query getProfessions { professions { professionId professionName } }`,
    "Sorted by professionName: the values of a profile's uProfessionId and of the discovery criteria's profession.",
  ),
  referenceList(
    '/rest/refdata/specialties',
    doc`query getSpecialties($professionId: Int) { specialties(professionId: $professionId) { ${every(Specialty)} } }`,
    "Sorted by specialtyName: the values of a profile's uSpecialtyId. With professionId, only that profession's; an unknown one gives an empty array.",
  ),
];
