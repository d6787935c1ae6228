import { intParam, strParam, type RouteDef } from '../../rest/route';

const ECONSENT_SELECTION = 'consentTypeCode consentUUID companyId eventUUID consentValue consentRequired consentGiven';

const ECONSENT_SCHEMA = {
  type: 'object',
  properties: {
    consentTypeCode: { type: 'string', enum: ['C', 'DS'] },
    consentUUID: { type: 'string', format: 'uuid' },
    companyId: { type: ['integer', 'null'], description: 'Set on company consents.' },
    eventUUID: { type: ['string', 'null'], description: 'Set on event consents.' },
    consentValue: { type: 'string', description: 'The consent text.' },
    consentRequired: { type: 'boolean' },
    consentGiven: { type: 'boolean', description: 'Whether the caller has given the consent (an addition to the spec).' },
  },
  required: ECONSENT_SELECTION.split(' '),
};

export const consentRoutes: RouteDef[] = [
  {
    operation: 'getEConsents',
    method: 'GET',
    path: '/rest/user/econsents',
    credential: 'user',
    document: `query getEConsents($type: String, $companyId: Int, $eventUUID: String) {
      eConsents(type: $type, companyId: $companyId, eventUUID: $eventUUID) { ${ECONSENT_SELECTION} }
    }`,
    variables: (req) => ({ type: strParam(req.query.type), companyId: intParam(req.query.companyId), eventUUID: strParam(req.query.eventUUID) }),
    result: (data) => data.eConsents,
    openapi: {
      summary: 'List the consents of a company or of an event (12).',
      tags: ['User profile'],
      parameters: [
        { name: 'type', in: 'query', required: true, description: 'C (company) or E (event).', schema: { type: 'string', enum: ['C', 'E'] } },
        { name: 'companyId', in: 'query', description: 'Required when type is C.', schema: { type: 'integer' } },
        { name: 'eventUUID', in: 'query', description: 'Required when type is E.', schema: { type: 'string', format: 'uuid' } },
      ],
      response: { type: 'array', items: ECONSENT_SCHEMA },
      errors: ['WSInvalidParameterException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSUserServiceException'],
    },
  },
  {
    operation: 'setEConsent',
    method: 'PUT',
    path: '/rest/user/econsents/:consentUUID',
    credential: 'user',
    document: `mutation setEConsent($consentUUID: String!, $consentGiven: Boolean!) {
      setEConsent(consentUUID: $consentUUID, consentGiven: $consentGiven) { ${ECONSENT_SELECTION} }
    }`,
    variables: (req) => ({ consentUUID: strParam(req.params.consentUUID), consentGiven: req.body?.consentGiven }),
    result: (data) => data.setEConsent,
    openapi: {
      summary: "Give or withdraw the caller's consent.",
      description: 'Company, event and smart directory (DS) consents alike; a directory requires its required consents before its contact record is used.',
      tags: ['User profile'],
      parameters: [{ name: 'consentUUID', in: 'path', required: true, description: 'The consent answered.', schema: { type: 'string', format: 'uuid' } }],
      requestBody: { type: 'object', properties: { consentGiven: { type: 'boolean' } }, required: ['consentGiven'] },
      response: ECONSENT_SCHEMA,
      errors: ['WSInvalidParameterException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSRecordNotFoundException', 'WSUserServiceException'],
    },
  },
];
