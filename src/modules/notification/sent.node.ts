// SentNotification and ScheduledNotification as Nodes, keyed by notificationId and
// notificationScheduleId: node(id:) answers the records the caller finds in sentNotifications and
// sentScheduledNotifications (a manager of the record's company's notifications, ADMIN or
// PUSH_NOTIFICATION; an event's record only while its event is not cancelled; a scheduled record
// once processed, SENT or FAILED). A record sendNotification has just scheduled is not processed
// yet, so, as in the list, node does not answer it until it is. One statement per type for any
// number of ids.
import { nodeIntKey, type NodeType } from '../../graphql/node';
import type { Context } from '../../context';
import { readScheduledByIds, readSentByIds } from './notification.lists';
import type { ScheduledNotificationView, SentNotificationView } from './notification.types';

/** A Node type keyed by one integer id, loaded by one statement given the caller and the ids. */
function byIntegerId<T extends object>(
  keyOf: (record: T) => number,
  read: (ctx: Context, userId: number, ids: number[]) => Promise<T[]>,
): NodeType {
  return {
    key: (record: T) => String(keyOf(record)),
    async load(keys, ctx) {
      const { user } = await ctx.auth.requireUser();
      const ids = [...new Set(keys.map(nodeIntKey).filter((id) => id !== null))];
      const found = ids.length ? await read(ctx, user.uId, ids) : [];
      const byKey = new Map(found.map((record) => [String(keyOf(record)), record]));
      return keys.map((key) => byKey.get(key) ?? null);
    },
  };
}

export const sentNotificationNode = byIntegerId<SentNotificationView>(
  (n) => n.notificationId,
  (ctx, userId, ids) => readSentByIds(ctx.em, userId, ids),
);

export const scheduledNotificationNode = byIntegerId<ScheduledNotificationView>(
  (n) => n.notificationScheduleId,
  (ctx, userId, ids) => readScheduledByIds(ctx.em, userId, ids),
);
