import type { RouteDef } from '../../rest/route';

const nullableStr = (maxLength: number) => ({ type: ['string', 'null'], maxLength });
const DETAILS_PROPS = {
  userId: { type: 'integer' },
  membershipId: { type: 'string', minLength: 1, maxLength: 100 },
  status: nullableStr(50),
  statusDate: { type: ['integer', 'null'], description: 'Epoch milliseconds.' },
  customField1: nullableStr(100),
  customField2: nullableStr(100),
  customField3: nullableStr(100),
  customField4: nullableStr(100),
  customField5: nullableStr(100),
};
const FIELDS = Object.keys(DETAILS_PROPS);

export const membershipRoutes: RouteDef[] = [
  {
    operation: 'createMembershipDetails',
    method: 'POST',
    path: '/rest/company/membership/details',
    credential: 'companyKey',
    document: `mutation createMembershipDetails($details: MembershipDetailsInput!) { createMembershipDetails(details: $details) { ${FIELDS.join(' ')} } }`,
    // Only the fields of the resource are moved; anything else in the body is ignored.
    variables: (req) => {
      const body = req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {};
      return { details: Object.fromEntries(FIELDS.map((f) => [f, body[f]])) };
    },
    result: (data) => data.createMembershipDetails,
    openapi: {
      summary: "Creates the user's membership record for the identifier the company API key is linked to (13).",
      description:
        'The user must exist, be active and have an accepted connection to the key\'s company. A second call for the same user replaces the record ' +
        '(omitted optional fields become null). membershipId must have the format of the linked identifier definition.',
      tags: ['Company administration'],
      requestBody: { type: 'object', properties: DETAILS_PROPS, required: ['userId', 'membershipId'] },
      response: { type: 'object', properties: DETAILS_PROPS, required: FIELDS },
      errors: [
        'WSInvalidParameterException', 'WSFieldLengthException', 'WSRecordNotFoundException', 'WSUserNotFoundException', 'WSUserNotActiveException',
        'WSConnectionStatusNotActiveException', 'WSMembershipServiceException',
      ],
    },
  },
];
