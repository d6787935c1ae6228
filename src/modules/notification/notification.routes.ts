import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './notification.lists';
import { ScheduledNotificationView, SentNotificationView } from './notification.types';

// The records' fields in their types' order (notification.types.ts), but those the specification's
// bodies leave out; the keyset cursor is for GraphQL paging (the REST lists page by pageNum).
const SENT_SELECTION = body(SentNotificationView, new Map([[SentNotificationView, { omit: ['notificationId', 'url', 'cursor'] }]]));
const SCHEDULED_SELECTION = body(
  ScheduledNotificationView,
  new Map([[ScheduledNotificationView, { omit: ['scheduleUTCDateTime', 'scheduleStatus', 'cursor'] }]]),
);

const LIST_VARS = `$version: Int!, $broadcastType: String!, $companyId: Int, $eventUUID: String, $notificationScheduleId: Int, $brochureId: Int,
  $pageNum: Int, $pageSize: Int, $after: String`;
const LIST_ARGS = `version: $version, broadcastType: $broadcastType, companyId: $companyId, eventUUID: $eventUUID,
  notificationScheduleId: $notificationScheduleId, brochureId: $brochureId, pageNum: $pageNum, pageSize: $pageSize, after: $after`;
const LIST_ERRORS = [
  'WSInvalidParameterException',
  'WSUnsupportedVersionException',
  'WSInvalidAuthTokenException',
  'WSInsufficientPrivilegesException',
  'WSEventCancelledException',
  'WSEventNotFoundException',
  'WSNotificationServiceException',
];
/** Endpoints 16 and 17 return the whole list (streamed) unless a page is asked for. */
const WHOLE_LIST = { unless: 'pageNum', after: 'after', pageSize: 'pageSize', cursor: 'cursor', batch: 500 };
const wholeListNote = `Without pageNum: every matching record, newest first, streamed. pageNum (from 1) and pageSize (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE}) page the list instead.`;

export const notificationRoutes: DeclaredRoute[] = [
  route({
    at: 'POST /rest/notification/send',
    credential: 'user',
    document: doc`mutation sendNotification($input: SendNotificationInput!) {
      sendNotification(input: $input) { sentNotification { ${SENT_SELECTION} } scheduledNotification { ${SCHEDULED_SELECTION} } }
    }`,
    description:
      'That role is PUSH_NOTIFICATION on companyId. Ad hoc: answers sentNotification; with scheduleLocalDateTime and scheduleTimezoneId: answers scheduledNotification.',
    errors: [
      'WSInvalidParameterException',
      'WSFieldLengthException',
      'WSLimitExceededException',
      'WSInvalidAuthTokenException',
      'WSInsufficientPrivilegesException',
      'WSEventNotFoundException',
      'WSEventCancelledException',
      'WSNotificationServiceException',
    ],
  }),
  route({
    at: 'GET /rest/notification/sent',
    credential: 'user',
    document: doc`query getSentNotifications(${LIST_VARS}) { sentNotifications(${LIST_ARGS}) { ${SENT_SELECTION} } }`,
    wholeList: WHOLE_LIST,
    description: wholeListNote,
    errors: LIST_ERRORS,
  }),
  route({
    at: 'GET /rest/notification/scheduled/sent',
    credential: 'user',
    document: doc`query getSentScheduledNotifications(${LIST_VARS}) { sentScheduledNotifications(${LIST_ARGS}) { ${SCHEDULED_SELECTION} } }`,
    wholeList: WHOLE_LIST,
    description: wholeListNote,
    errors: LIST_ERRORS,
  }),
];
