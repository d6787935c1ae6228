import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { MembershipDetails } from './membership.types';

export const membershipRoutes: DeclaredRoute[] = [
  route({
    at: 'POST /rest/company/membership/details',
    credential: 'companyKey',
    document: doc`mutation createMembershipDetails($details: MembershipDetailsInput!) {
      createMembershipDetails(details: $details) { ${body(MembershipDetails, new Map())} }
    }`,
    description:
      "The user must exist, be active and have an accepted connection to the key's company. A replacing call sets the optional fields it " +
      'omits to null. membershipId must have the format of the linked identifier definition.',
    errors: [
      'WSInvalidParameterException',
      'WSFieldLengthException',
      'WSRecordNotFoundException',
      'WSUserNotFoundException',
      'WSUserNotActiveException',
      'WSConnectionStatusNotActiveException',
      'WSMembershipServiceException',
    ],
  }),
];
