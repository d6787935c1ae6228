import { intParam, strParam, type RouteDef } from '../../rest/route';

const str = { type: 'string' };
const int = { type: 'integer' };
const arrayOf = (properties: Record<string, unknown>) => ({
  type: 'array',
  items: { type: 'object', properties, required: Object.keys(properties) },
});
const countryCodeQuery = (required: boolean) => ({
  name: 'countryCode',
  in: 'query' as const,
  required,
  description: 'ISO 3166-1 alpha-2 country code, any case.',
  schema: { type: 'string', minLength: 2, maxLength: 2 },
});

const TIMEZONE = {
  timezoneId: str, timezoneName: str, timezoneDSTName: str,
  dstOffsetHours: int, offsetHours: int, offsetMinutes: int, dstOffsetMinutes: int,
};

export const referenceDataRoutes: RouteDef[] = [
  {
    operation: 'getAllTimezones',
    method: 'GET',
    path: '/rest/refdata/timezones',
    credential: 'none',
    document: `query getAllTimezones($countryCode: String) {
      timezones(countryCode: $countryCode) { timezoneId timezoneName timezoneDSTName dstOffsetHours offsetHours offsetMinutes dstOffsetMinutes }
    }`,
    variables: (req) => ({ countryCode: strParam(req.query.countryCode) }),
    result: (data) => data.timezones,
    etag: true,
    openapi: {
      summary: 'List IANA time zones, all or those of one country (19).',
      tags: ['Reference data'],
      parameters: [countryCodeQuery(false)],
      response: arrayOf(TIMEZONE),
      errors: ['WSInvalidParameterException', 'WSRefDataServiceException'],
    },
  },
  {
    operation: 'getConditions',
    method: 'GET',
    path: '/rest/refdata/conditions',
    credential: 'none',
    document: `query getConditions { conditions { conditionId conditionName } }`,
    variables: () => ({}),
    result: (data) => data.conditions,
    etag: true,
    openapi: {
      summary: 'List conditions for users and contacts (14).',
      tags: ['Reference data'],
      response: arrayOf({ conditionId: int, conditionName: { type: 'string', maxLength: 100 } }),
      errors: ['WSRefDataServiceException'],
    },
  },
  {
    operation: 'getConditionsVersion',
    method: 'GET',
    path: '/rest/refdata/conditions/version',
    credential: 'none',
    document: `query getConditionsVersion { conditionsVersion { version } }`,
    variables: () => ({}),
    result: (data) => data.conditionsVersion,
    etag: true,
    openapi: {
      summary: 'Data version of the conditions list (14).',
      tags: ['Reference data'],
      response: { type: 'object', properties: { version: int }, required: ['version'] },
      errors: ['WSRefDataServiceException'],
    },
  },
  {
    operation: 'getAssessmentForms',
    method: 'GET',
    path: '/rest/refdata/assessment-forms',
    credential: 'none',
    document: `query getAssessmentForms($assessmentUuid: String) {
      assessmentForms(assessmentUuid: $assessmentUuid) {
        assessmentId assessmentUuid assessmentName
        fields { fieldId label type required options order }
      }
    }`,
    variables: (req) => ({ assessmentUuid: strParam(req.query.assessmentUuid) }),
    result: (data) => data.assessmentForms,
    etag: true,
    openapi: {
      summary: 'List assessment forms with their fields, or the one with assessmentUuid (5).',
      tags: ['Reference data'],
      parameters: [{ name: 'assessmentUuid', in: 'query', required: false, description: 'UUID of one assessment.', schema: { type: 'string', format: 'uuid' } }],
      response: arrayOf({
        assessmentId: int,
        assessmentUuid: { type: 'string', format: 'uuid' },
        assessmentName: str,
        fields: arrayOf({
          fieldId: int, label: str,
          type: { type: 'string', enum: ['text', 'textarea', 'number', 'date', 'boolean', 'single_choice', 'multi_choice'] },
          required: { type: 'boolean' }, options: { type: 'array', items: str }, order: int,
        }),
      }),
      errors: ['WSInvalidParameterException', 'WSRefDataServiceException'],
    },
  },
  {
    operation: 'getCountries',
    method: 'GET',
    path: '/rest/refdata/countries',
    credential: 'none',
    document: `query getCountries { countries { countryCode countryName } }`,
    variables: () => ({}),
    result: (data) => data.countries,
    etag: true,
    openapi: {
      summary: 'List ISO 3166-1 countries.',
      tags: ['Reference data'],
      response: arrayOf({ countryCode: str, countryName: str }),
      errors: ['WSRefDataServiceException'],
    },
  },
  {
    operation: 'getStates',
    method: 'GET',
    path: '/rest/refdata/states',
    credential: 'none',
    document: `query getStates($countryCode: String!) { states(countryCode: $countryCode) { stateCode stateName countryCode } }`,
    variables: (req) => ({ countryCode: strParam(req.query.countryCode) }),
    result: (data) => data.states,
    etag: true,
    openapi: {
      summary: 'List ISO 3166-2 subdivisions of a country.',
      tags: ['Reference data'],
      parameters: [countryCodeQuery(true)],
      response: arrayOf({ stateCode: str, stateName: str, countryCode: str }),
      errors: ['WSInvalidParameterException', 'WSRefDataServiceException'],
    },
  },
  {
    operation: 'getFieldDefinitions',
    method: 'GET',
    path: '/rest/refdata/field-definitions',
    credential: 'none',
    document: `query getFieldDefinitions { fieldDefinitions { fieldId fieldCode fieldName fieldType isAddressField } }`,
    variables: () => ({}),
    result: (data) => data.fieldDefinitions,
    etag: true,
    openapi: {
      summary: 'List the fields a smart directory can show.',
      tags: ['Reference data'],
      response: arrayOf({ fieldId: int, fieldCode: str, fieldName: str, fieldType: str, isAddressField: { type: 'boolean' } }),
      errors: ['WSRefDataServiceException'],
    },
  },
  {
    operation: 'getProfessions',
    method: 'GET',
    path: '/rest/refdata/professions',
    credential: 'none',
    document: `query getProfessions { professions { professionId professionName } }`,
    variables: () => ({}),
    result: (data) => data.professions,
    etag: true,
    openapi: {
      summary: 'List professions.',
      tags: ['Reference data'],
      response: arrayOf({ professionId: int, professionName: str }),
      errors: ['WSRefDataServiceException'],
    },
  },
  {
    operation: 'getSpecialties',
    method: 'GET',
    path: '/rest/refdata/specialties',
    credential: 'none',
    document: `query getSpecialties($professionId: Int) { specialties(professionId: $professionId) { specialtyId specialtyName professionId } }`,
    variables: (req) => ({ professionId: intParam(req.query.professionId) }),
    result: (data) => data.specialties,
    etag: true,
    openapi: {
      summary: 'List specialties, all or those of one profession.',
      tags: ['Reference data'],
      parameters: [{ name: 'professionId', in: 'query', required: false, description: 'Only this profession.', schema: int }],
      response: arrayOf({ specialtyId: int, specialtyName: str, professionId: int }),
      errors: ['WSInvalidParameterException', 'WSRefDataServiceException'],
    },
  },
];
