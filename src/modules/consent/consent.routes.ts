import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { ConsentDefinition } from '../directory';

/**
 * An e-consent: the fields of the EConsent type in its order, but where the specification's body
 * departs from it. Whether the caller gave it (consentGiven) is GraphQL's: the specification's
 * e-consent has no such property, and strict clients refuse one they do not know.
 */
const ECONSENT_SELECTION = body(
  ConsentDefinition,
  new Map([
    [
      ConsentDefinition,
      {
        first: ['consentTypeCode', 'consentUUID', 'companyId'],
        omit: ['consentName', 'consentOptionalDesc', 'directoryUUID', 'consentGiven'],
      },
    ],
  ]),
);

export const consentRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/user/econsents',
    credential: 'user',
    document: doc`query getEConsents($type: String, $companyId: Int, $eventUUID: String) {
      eConsents(type: $type, companyId: $companyId, eventUUID: $eventUUID) { ${ECONSENT_SELECTION} }
    }`,
    description:
      'type C takes companyId and type E eventUUID, each required with its type and refused with the other (WSInvalidParameterException ' +
      'naming it). In the order the company or event gives them; an empty array when it asks none.',
    errors: ['WSInvalidParameterException', 'WSInvalidAuthTokenException', 'WSCacheServiceException', 'WSUserServiceException'],
  }),
  route({
    at: 'PUT /rest/user/econsents/:consentUUID',
    credential: 'user',
    document: doc`mutation setEConsent($consentUUID: String!, $consentGiven: Boolean!) {
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
