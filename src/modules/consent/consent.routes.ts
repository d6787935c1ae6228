import { route, type RouteDef } from '../../rest/route';

const ECONSENT_SELECTION = 'consentTypeCode consentUUID companyId eventUUID consentValue consentRequired consentGiven';

export const consentRoutes: RouteDef[] = [
  route({
    at: 'GET /rest/user/econsents',
    credential: 'user',
    document: `query getEConsents($type: String, $companyId: Int, $eventUUID: String) {
      eConsents(type: $type, companyId: $companyId, eventUUID: $eventUUID) { ${ECONSENT_SELECTION} }
    }`,
    errors: ['WSInvalidParameterException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSUserServiceException'],
  }),
  route({
    at: 'PUT /rest/user/econsents/:consentUUID',
    credential: 'user',
    document: `mutation setEConsent($consentUUID: String!, $consentGiven: Boolean!) {
      setEConsent(consentUUID: $consentUUID, consentGiven: $consentGiven) { ${ECONSENT_SELECTION} }
    }`,
    description:
      'Company, event and smart directory (DS) consents alike; a directory requires its required consents before its contact record is used.',
    errors: [
      'WSInvalidParameterException',
      'WSInvalidAuthTokenException',
      'WSCacheServiceException',
      'WSRecordNotFoundException',
      'WSUserServiceException',
    ],
  }),
];
