import { route, type RouteDef } from '../../rest/route';
import { bodySelection } from '../../rest/body-selection';
import { Connection } from './connection.types';
// The edges its resolver adds (company, requester) are declared before the bodies are derived.
import './connection.resolver';

/** A connection in a company's list: every field of the Connection type (connection.types.ts) and its requester, but the company. */
const COMPANY_CONNECTION_FIELDS = bodySelection(Connection, new Map([[Connection, { omit: ['company'] }]]));
/** A connection: every field of its type, without its edges. */
const CONNECTION_FIELDS = bodySelection(Connection, new Map([[Connection, { omit: ['company', 'requester'] }]]));

const decision = (operation: 'approveConnection' | 'declineConnection', verb: 'approve' | 'decline'): RouteDef =>
  route({
    at: `POST /rest/company/:companyId/connections/:userId/${verb}`,
    credential: 'user',
    document: `mutation ${operation}($companyId: Int!, $userId: Int!) { ${operation}(companyId: $companyId, userId: $userId) { ${CONNECTION_FIELDS} } }`,
    errors: [
      'WSInvalidParameterException',
      'WSInsufficientPrivilegesException',
      'WSRecordNotFoundException',
      'WSDiscoverableServiceException',
    ],
  });

export const connectionRoutes: RouteDef[] = [
  route({
    at: 'POST /rest/user/connections',
    credential: 'user',
    document: `mutation requestConnection($companyId: Int!, $identifiers: [IdentifierValueInput!]) {
      requestConnection(companyId: $companyId, identifiers: $identifiers) { ${CONNECTION_FIELDS} }
    }`,
    description:
      'Fully meeting a criterion: pending (awaiting vetting), or accepted where the company does not vet. Partly meeting one (profile data missing): requested, settled when the profile changes. ' +
      "Meeting none: WSInvalidParameterException (companyId), nothing stored. identifiers supplies values the criteria ask for (see getRecommendedCriteriaForEntity); they are stored as the caller's own.",
    errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSAlreadyExistsException', 'WSDiscoverableServiceException'],
  }),
  route({
    at: 'GET /rest/user/connections',
    credential: 'user',
    document: `query getUserConnections($status: String) { myConnections(status: $status) { ${CONNECTION_FIELDS} } }`,
    errors: ['WSInvalidParameterException', 'WSDiscoverableServiceException'],
  }),
  route({
    at: 'GET /rest/company/:companyId/connections',
    credential: 'user',
    document: `query getCompanyConnections($companyId: Int!, $status: String) {
      companyConnections(companyId: $companyId, status: $status) { ${COMPANY_CONNECTION_FIELDS} }
    }`,
    errors: ['WSInvalidParameterException', 'WSInsufficientPrivilegesException', 'WSDiscoverableServiceException'],
  }),
  decision('approveConnection', 'approve'),
  decision('declineConnection', 'decline'),
];
