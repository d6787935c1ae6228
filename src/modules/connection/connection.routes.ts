import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { Connection } from './connection.types';

/** A connection in a company's list: every field of the Connection type (connection.types.ts) and its requester, but the company. */
const COMPANY_CONNECTION_FIELDS = body(Connection, new Map([[Connection, { omit: ['company'] }]]));
/** A connection: every field of its type, without its edges. */
const CONNECTION_FIELDS = body(Connection, new Map([[Connection, { omit: ['company', 'requester'] }]]));

const decision = (operation: 'approveConnection' | 'declineConnection', verb: 'approve' | 'decline', description: string): DeclaredRoute =>
  route({
    at: `POST /rest/company/:companyId/connections/:userId/${verb}`,
    credential: 'user',
    document: doc`mutation ${operation}($companyId: Int!, $userId: Int!) { ${operation}(companyId: $companyId, userId: $userId) { ${CONNECTION_FIELDS} } }`,
    description:
      `${description} The deciding administrator is recorded. No request of the user: WSRecordNotFoundException; ` +
      'a caller who is not an administrator of the company: WSInsufficientPrivilegesException.',
    errors: [
      'WSInvalidParameterException',
      'WSInsufficientPrivilegesException',
      'WSRecordNotFoundException',
      'WSDiscoverableServiceException',
    ],
  });

export const connectionRoutes: DeclaredRoute[] = [
  route({
    at: 'POST /rest/user/connections',
    credential: 'user',
    document: doc`mutation requestConnection($companyId: Int!, $identifiers: [IdentifierValueInput!]) {
      requestConnection(companyId: $companyId, identifiers: $identifiers) { ${CONNECTION_FIELDS} }
    }`,
    description:
      'A pending request awaits vetting by the company. A requested one (profile data missing) is settled when the profile changes. ' +
      "A refused request (WSInvalidParameterException naming companyId) stores nothing. identifiers supplies values the criteria ask for (see getRecommendedCriteriaForEntity); they are stored as the caller's own.",
    errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSAlreadyExistsException', 'WSDiscoverableServiceException'],
  }),
  route({
    at: 'GET /rest/user/connections',
    credential: 'user',
    document: doc`query getUserConnections($status: String) { myConnections(status: $status) { ${CONNECTION_FIELDS} } }`,
    description: 'status (requested, pending, accepted or rejected) narrows the list; an empty array when the caller has asked no company.',
    errors: ['WSInvalidParameterException', 'WSDiscoverableServiceException'],
  }),
  route({
    at: 'GET /rest/company/:companyId/connections',
    credential: 'user',
    document: doc`query getCompanyConnections($companyId: Int!, $status: String) {
      companyConnections(companyId: $companyId, status: $status) { ${COMPANY_CONNECTION_FIELDS} }
    }`,
    description:
      'Each connection with its requester; status narrows the list. A caller who is not an administrator of the company: WSInsufficientPrivilegesException.',
    errors: ['WSInvalidParameterException', 'WSInsufficientPrivilegesException', 'WSDiscoverableServiceException'],
  }),
  decision('approveConnection', 'approve', 'The request becomes accepted; one in another status is WSInvalidParameterException.'),
  decision(
    'declineConnection',
    'decline',
    'The request becomes rejected (rejectionReason declined), and the user may ask again; one in another status is WSInvalidParameterException.',
  ),
];
