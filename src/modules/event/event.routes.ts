import { route, type RouteDef } from '../../rest/route';
import { bodySelection } from '../../rest/body-selection';
import { UserEventView } from './event.types';
// The company edge its resolver adds is declared before the body is derived (and left out of it).
import './event.graph';

/**
 * Every field of an event as listed for a user, in the specification's order: the UserEvent type's
 * (event.types.ts: the event's fields, then the invitation's) but for the invitation's, which the
 * specification places among the event's. The company edge is not in the body.
 */
export const USER_EVENT_FIELDS = bodySelection(
  UserEventView,
  new Map([
    [
      UserEventView,
      {
        first: ['eventInviteUUID'],
        after: {
          cId: ['eAttendeeId'],
          eHasEnded: ['eAttendeeInviteStatus', 'eAttendeeAttendingStatus', 'eAttendeeInvitesSent', 'eAttendeeRemindersSent'],
        },
        omit: ['company'],
      },
    ],
  ]),
).split(' ');

export const eventRoutes: RouteDef[] = [
  route({
    at: 'GET /rest/user/mi/:cId/events',
    credential: 'user',
    document: `query findEventsForUserAndCompany($cId: Int!, $version: Int!, $pageNum: Int) {
      userEvents(cId: $cId, version: $version, pageNum: $pageNum) { ${USER_EVENT_FIELDS.join(' ')} }
    }`,
    description:
      'version must be 1 (WSUnsupportedVersionException otherwise). pageNum counts from 1 (default 1); a page past the end is an empty array. ' +
      'Cancelled events are never listed; eHasEnded is Y once the end time has passed.',
    errors: [
      'WSInvalidParameterException',
      'WSUnsupportedVersionException',
      'WSInvalidAuthTokenException',
      'WSEventServiceException',
      'WSInternalException',
    ],
  }),
];
