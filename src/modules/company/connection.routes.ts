import { intParam, strParam, type OpenApiParam, type RouteDef } from '../../rest/route';

const int = { type: 'integer' };
const ts = { type: 'integer', description: 'Epoch milliseconds.' };
const nullableTs = { type: ['integer', 'null'], description: 'Epoch milliseconds.' };
const nullableStr = { type: ['string', 'null'] };

const CONNECTION_FIELDS = 'companyId userId status requestedAt pendingAt acceptedAt rejectedAt rejectionReason updatedAt';
const CONNECTION_PROPS = {
  companyId: int,
  userId: int,
  status: { type: 'string', enum: ['requested', 'pending', 'accepted', 'rejected'] },
  requestedAt: ts,
  pendingAt: nullableTs,
  acceptedAt: nullableTs,
  rejectedAt: nullableTs,
  rejectionReason: { type: ['string', 'null'], enum: ['declined', 'criteria', null] },
  updatedAt: ts,
};
const CONNECTION = { type: 'object', properties: CONNECTION_PROPS, required: Object.keys(CONNECTION_PROPS) };
const REQUESTER_PROPS = {
  firstName: nullableStr,
  lastName: nullableStr,
  email: { type: 'string' },
  countryCode: nullableStr,
  professionId: { type: ['integer', 'null'] },
  specialtyId: { type: ['integer', 'null'] },
  identifiers: { type: 'array', items: { type: 'object', properties: { identifierId: int, value: { type: 'string' } }, required: ['identifierId', 'value'] } },
};
const COMPANY_CONNECTION = {
  type: 'object',
  properties: { ...CONNECTION_PROPS, requester: { type: 'object', properties: REQUESTER_PROPS, required: Object.keys(REQUESTER_PROPS) } },
  required: [...Object.keys(CONNECTION_PROPS), 'requester'],
};

const statusQuery: OpenApiParam = {
  name: 'status',
  in: 'query',
  required: false,
  description: 'Only connections in this status.',
  schema: { type: 'string', enum: ['requested', 'pending', 'accepted', 'rejected'] },
};
const companyIdPath: OpenApiParam = { name: 'companyId', in: 'path', description: 'Id of the company.', schema: int };
const userIdPath: OpenApiParam = { name: 'userId', in: 'path', description: 'Id of the requesting user.', schema: int };

function decision(operation: 'approveConnection' | 'declineConnection', verb: 'approve' | 'decline', summary: string): RouteDef {
  return {
    operation,
    method: 'POST',
    path: `/rest/company/:companyId/connections/:userId/${verb}`,
    credential: 'user',
    document: `mutation ${operation}($companyId: Int!, $userId: Int!) { ${operation}(companyId: $companyId, userId: $userId) { ${CONNECTION_FIELDS} } }`,
    variables: (req) => ({ companyId: intParam(req.params.companyId), userId: intParam(req.params.userId) }),
    result: (data) => data[operation],
    openapi: {
      summary,
      tags: ['Connections'],
      parameters: [companyIdPath, userIdPath],
      response: CONNECTION,
      errors: ['WSInvalidParameterException', 'WSInsufficientPrivilegesException', 'WSRecordNotFoundException', 'WSDiscoverableServiceException'],
    },
  };
}

export const connectionRoutes: RouteDef[] = [
  {
    operation: 'requestConnection',
    method: 'POST',
    path: '/rest/user/connections',
    credential: 'user',
    document: `mutation requestConnection($companyId: Int!, $identifiers: [IdentifierValueInput!]) {
      requestConnection(companyId: $companyId, identifiers: $identifiers) { ${CONNECTION_FIELDS} }
    }`,
    variables: (req) => ({ companyId: req.body?.companyId, identifiers: req.body?.identifiers }),
    result: (data) => data.requestConnection,
    openapi: {
      summary: 'The caller asks to connect to a company.',
      description:
        'Fully meeting a criterion: pending (awaiting vetting), or accepted where the company does not vet. Partly meeting one (profile data missing): requested, settled when the profile changes. ' +
        'Meeting none: WSInvalidParameterException (companyId), nothing stored. identifiers supplies values the criteria ask for (see getRecommendedCriteriaForEntity); they are stored as the caller\'s own.',
      tags: ['Connections'],
      requestBody: {
        type: 'object',
        properties: {
          companyId: int,
          identifiers: { type: 'array', maxItems: 10, items: { type: 'object', properties: { identifierId: int, value: { type: 'string', maxLength: 100 } }, required: ['identifierId', 'value'] } },
        },
        required: ['companyId'],
      },
      response: CONNECTION,
      errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSAlreadyExistsException', 'WSDiscoverableServiceException'],
    },
  },
  {
    operation: 'getUserConnections',
    method: 'GET',
    path: '/rest/user/connections',
    credential: 'user',
    document: `query getUserConnections($status: String) { myConnections(status: $status) { ${CONNECTION_FIELDS} } }`,
    variables: (req) => ({ status: strParam(req.query.status) }),
    result: (data) => data.myConnections,
    openapi: {
      summary: "The caller's connections, newest request first.",
      tags: ['Connections'],
      parameters: [statusQuery],
      response: { type: 'array', items: CONNECTION },
      errors: ['WSInvalidParameterException', 'WSDiscoverableServiceException'],
    },
  },
  {
    operation: 'getCompanyConnections',
    method: 'GET',
    path: '/rest/company/:companyId/connections',
    credential: 'user',
    document: `query getCompanyConnections($companyId: Int!, $status: String) {
      companyConnections(companyId: $companyId, status: $status) {
        ${CONNECTION_FIELDS}
        requester { firstName lastName email countryCode professionId specialtyId identifiers { identifierId value } }
      }
    }`,
    variables: (req) => ({ companyId: intParam(req.params.companyId), status: strParam(req.query.status) }),
    result: (data) => data.companyConnections,
    openapi: {
      summary: 'Connections of a company with the requesting users, oldest request first (company admins).',
      tags: ['Connections'],
      parameters: [companyIdPath, statusQuery],
      response: { type: 'array', items: COMPANY_CONNECTION },
      errors: ['WSInvalidParameterException', 'WSInsufficientPrivilegesException', 'WSDiscoverableServiceException'],
    },
  },
  decision('approveConnection', 'approve', 'A company admin accepts a pending request.'),
  decision('declineConnection', 'decline', 'A company admin rejects a requested or pending request.'),
];
