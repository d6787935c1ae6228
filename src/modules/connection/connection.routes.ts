import { route, type RouteDef } from '../../rest/route';

const CONNECTION_FIELDS = 'companyId userId status requestedAt pendingAt acceptedAt rejectedAt rejectionReason updatedAt';

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
      companyConnections(companyId: $companyId, status: $status) {
        ${CONNECTION_FIELDS}
        requester { firstName lastName email countryCode professionId specialtyId identifiers { identifierId value } }
      }
    }`,
    errors: ['WSInvalidParameterException', 'WSInsufficientPrivilegesException', 'WSDiscoverableServiceException'],
  }),
  decision('approveConnection', 'approve'),
  decision('declineConnection', 'decline'),
];
