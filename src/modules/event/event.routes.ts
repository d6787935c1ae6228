import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { UserEventView } from './event.types';

/**
 * Every field of an event as listed for a user, in the specification's order: the UserEvent type's
 * (event.types.ts: the event's fields, then the invitation's) but for the invitation's, which the
 * specification places among the event's. The company edge is not in the body.
 */
export const USER_EVENT_FIELDS = body(
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
);

export const eventRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/user/mi/:cId/events',
    credential: 'user',
    document: doc`query findEventsForUserAndCompany($cId: Int!, $version: Int!, $pageNum: Int) {
      userEvents(cId: $cId, version: $version, pageNum: $pageNum) { ${USER_EVENT_FIELDS} }
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
