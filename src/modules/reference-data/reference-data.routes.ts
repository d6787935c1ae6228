import { referenceList, type RouteDef } from '../../rest/route';

export const referenceDataRoutes: RouteDef[] = [
  referenceList(
    '/rest/refdata/timezones',
    `query getAllTimezones($countryCode: String) {
    timezones(countryCode: $countryCode) { timezoneId timezoneName timezoneDSTName dstOffsetHours offsetHours offsetMinutes dstOffsetMinutes } }`,
  ),
  referenceList('/rest/refdata/conditions', `query getConditions { conditions { conditionId conditionName } }`),
  referenceList('/rest/refdata/conditions/version', `query getConditionsVersion { conditionsVersion { version } }`),
  referenceList(
    '/rest/refdata/assessment-forms',
    `query getAssessmentForms($assessmentUuid: String) {
    assessmentForms(assessmentUuid: $assessmentUuid) { assessmentId assessmentUuid assessmentName fields { fieldId label type required options order } } }`,
  ),
  referenceList('/rest/refdata/countries', `query getCountries { countries { countryCode countryName } }`),
  referenceList(
    '/rest/refdata/states',
    `query getStates($countryCode: String!) { states(countryCode: $countryCode) { stateCode stateName countryCode } }`,
  ),
  referenceList(
    '/rest/refdata/field-definitions',
    `query getFieldDefinitions { fieldDefinitions { fieldId fieldCode fieldName fieldType isAddressField } }`,
  ),
  referenceList('/rest/refdata/professions', `query getProfessions { professions { professionId professionName } }`),
  referenceList(
    '/rest/refdata/specialties',
    `query getSpecialties($professionId: Int) { specialties(professionId: $professionId) { specialtyId specialtyName professionId } }`,
  ),
];
