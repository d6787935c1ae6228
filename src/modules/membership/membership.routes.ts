import { route, type RouteDef } from '../../rest/route';
import { bodySelection } from '../../rest/body-selection';
import { MembershipDetails } from './membership.types';

export const membershipRoutes: RouteDef[] = [
  route({
    at: 'POST /rest/company/membership/details',
    credential: 'companyKey',
    document: `mutation createMembershipDetails($details: MembershipDetailsInput!) {
      createMembershipDetails(details: $details) { ${bodySelection(MembershipDetails, new Map())} }
    }`,
    description:
      "The user must exist, be active and have an accepted connection to the key's company. A second call for the same user replaces the record " +
      '(omitted optional fields become null). membershipId must have the format of the linked identifier definition.',
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
