import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { InboxNotification } from './inbox.types';

/** An inbox item: every field of its type (inbox.types.ts), in its order, null when empty. */
export const INBOX_SELECTION = body(InboxNotification, new Map());

const SERVICE_ERRORS = ['WSInvalidAuthTokenException', 'WSNotificationServiceException'];

export const inboxRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/user/notifications',
    credential: 'user',
    document: doc`query getUserNotifications($version: Int!, $pageNum: Int, $unreadOnly: Boolean) {
      inboxNotifications(version: $version, pageNum: $pageNum, unreadOnly: $unreadOnly) { ${INBOX_SELECTION} }
    }`,
    description: 'received is epoch milliseconds; notificationId is the sent notification (one item per notification in an inbox).',
    errors: ['WSInvalidParameterException', 'WSUnsupportedVersionException', ...SERVICE_ERRORS],
  }),
  route({
    at: 'PUT /rest/user/notifications/:notificationId/read',
    credential: 'user',
    document: doc`mutation markNotificationRead($notificationId: Int!) { markNotificationRead(notificationId: $notificationId) { updated } }`,
    summary: "Marks one notification of the caller's inbox read.",
    description: "Marking an item already read again keeps its first read time. Unknown ids and other users' notifications are 404.",
    status: 204,
    errors: ['WSInvalidParameterException', 'WSNotificationNotFoundException', ...SERVICE_ERRORS],
  }),
  route({
    at: 'PUT /rest/user/notifications/read',
    credential: 'user',
    document: doc`mutation markAllNotificationsRead { markAllNotificationsRead { updated } }`,
    description:
      'Answers {updated}: how many items went from unread to read (0 when none was unread). Items read before keep their first read time.',
    errors: SERVICE_ERRORS,
  }),
];
