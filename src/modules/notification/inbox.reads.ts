// The inbox: reads as plain rows (docs/development.md, "Reads and writes") and the read-state
// writes, each one statement whatever the number of items.
//
// Order: newest delivery first, then the higher notification id (delivery time is shared by every
// recipient of a notification, and a user holds a notification once, so the pair is unique in an
// inbox). The cursor keys hold the delivery instant in microseconds (bigint, as text) rather than
// milliseconds: a row written with the database's now() carries microseconds, and a key rounded to
// the millisecond would skip or repeat items delivered within the same millisecond.
import type { EntityManager } from '@mikro-orm/core';
import { intArray } from '../../db/sql';
import { ServiceError } from '../../core/errors';
import { encodeCursor, pageRequest, pagesByGroup, type ConnectionPage, type PageRequest, type PagingArgs } from '../../graphql/connection';
import {
  deliveredItems,
  inboxItems,
  inboxPage,
  inboxWindow,
  INBOX_ORDER,
  markAllItemsRead,
  markItemsRead,
  unreadCounts,
  type ItemRow,
} from './notification.queries';
import type { InboxNotification } from './inbox.types';

/** The list name in the connection's cursors. */
const INBOX_LIST = 'inbox';

const toItem = (r: ItemRow): InboxNotification => ({
  notificationId: r.notificationId,
  type: r.type,
  companyId: r.companyId,
  eventUUID: r.eventUUID,
  brochureId: r.brochureId,
  message: r.message,
  url: r.url,
  read: r.read,
  received: new Date(r.received),
});

/**
 * One page of a user's inbox by offset (the REST list): one statement, which the (user,
 * deliveredAt) index answers in order.
 */
export async function readInboxPage(
  em: EntityManager,
  userId: number,
  unreadOnly: boolean,
  limit: number,
  offset: number,
): Promise<InboxNotification[]> {
  const rows = await inboxPage.run(em, { userId, unreadOnly, limit, offset });
  return rows.map(toItem);
}

/**
 * Checks `first` or `last` and decodes `after` and `before` as cursors of the inbox: [microseconds
 * as text, notification id]. A cursor of another list, or one whose key is not of these types, is
 * WSInvalidParameterException.
 */
export function inboxPageRequest(args: PagingArgs): PageRequest {
  return pageRequest(INBOX_LIST, INBOX_ORDER, args);
}

/** The page of each user's inbox (in the order of `userIds`) with each total: one statement for all of them. */
export async function readInboxPages(
  em: EntityManager,
  userIds: readonly number[],
  unreadOnly: boolean,
  request: PageRequest,
): Promise<ConnectionPage<InboxNotification>[]> {
  const rows = await inboxWindow.run(em, userIds, { unreadOnly }, request);
  return pagesByGroup(userIds, rows, request, (row) => encodeCursor(INBOX_LIST, [String(row._us), row.notificationId]), toItem);
}

/** Unread items of each user (in the order of `userIds`): one statement. */
export async function readUnreadCounts(em: EntityManager, userIds: readonly number[]): Promise<number[]> {
  const rows = await unreadCounts.run(em, { userIds: intArray(userIds) });
  const byOwner = new Map(rows.map((r) => [r.owner, r.n]));
  return userIds.map((id) => byOwner.get(id) ?? 0);
}

/**
 * Marks items of a user's inbox read at `at`, in one statement: only when every id names an item
 * of theirs (otherwise nothing changes and the answer is WSNotificationNotFoundException); an item
 * already read keeps its first read time. Answers how many went from unread to read.
 */
export async function markRead(em: EntityManager, userId: number, ids: readonly number[], at: Date): Promise<number> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return 0;
  const [row] = await markItemsRead.run(em, { userId, ids: intArray(distinct), count: distinct.length, at });
  if (row.found !== distinct.length) {
    throw new ServiceError('WSNotificationNotFoundException', "A notification is not in the caller's inbox.");
  }
  return row.updated;
}

/** Marks every unread item of a user's inbox read at `at`, in one statement; answers how many. */
export async function markAllRead(em: EntityManager, userId: number, at: Date): Promise<number> {
  const [row] = await markAllItemsRead.run(em, { userId, at });
  return row.updated;
}

/**
 * The item of one notification in these users' inboxes (those who hold it), with the users who
 * hold it: one item object for all of those with the same read state and delivery instant (one
 * for a whole delivery, unless someone marked it read in between), one statement (live delivery).
 */
export async function readDeliveredItems(
  em: EntityManager,
  notificationId: number,
  userIds: readonly number[],
): Promise<{ owners: number[]; item: InboxNotification }[]> {
  const rows = await deliveredItems.run(em, { notificationId, userIds: intArray(userIds) });
  return rows.map((row) => ({ owners: row._owners, item: toItem(row) }));
}

/** The items of these notifications in one user's inbox (node(id:)), in no order: one statement. */
export async function readInboxItems(em: EntityManager, userId: number, notificationIds: readonly number[]): Promise<InboxNotification[]> {
  return (await inboxItems.run(em, { userId, notificationIds: intArray(notificationIds) })).map(toItem);
}
