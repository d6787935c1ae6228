// The inbox: reads as plain rows (docs/development.md, "Reads and writes") and the read-state
// writes, each one statement whatever the number of items.
//
// Order: newest delivery first, then the higher notification id (delivery time is shared by every
// recipient of a notification, and a user holds a notification once, so the pair is unique in an
// inbox). The cursor keys hold the delivery instant in microseconds (bigint, as text) rather than
// milliseconds: a row written with the database's now() carries microseconds, and a key rounded to
// the millisecond would skip or repeat items delivered within the same millisecond.
import type { EntityManager } from '@mikro-orm/core';
import { epochMillis, intArray, runSql, tableOf, type NamesOf } from '../../db/lean';
import { ServiceError } from '../../core/errors';
import {
  encodeCursor,
  keysetWindow,
  instantKeyColumns,
  INSTANT_COLUMN,
  pageRequest,
  pagesByGroup,
  WINDOW_PARENT,
  type ConnectionPage,
  type InstantKeyed,
  type OrderColumn,
  type PageRequest,
  type PagingArgs,
} from '../../graphql/connection';
import { NotificationInbox, SentNotification } from './notification.entity';
import type { InboxNotification } from './inbox.types';

/** The list name in the connection's cursors. */
const INBOX_LIST = 'inbox';

/** An inbox item as the statements select it (the driver's types). */
type ItemRow = {
  notificationId: number;
  type: string;
  companyId: number;
  eventUUID: string | null;
  brochureId: number | null;
  message: string;
  url: string | null;
  read: boolean;
  received: number;
};

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

/** The inbox `i` joined to its sent notification `s`, selecting an item's fields; `where` follows. */
function itemsFrom(names: NamesOf, extra = ''): string {
  const i = names(NotificationInbox);
  const s = names(SentNotification);
  return `select ${extra}s.${s.column('notificationId')} as "notificationId", s.${s.column('type')} as "type",
      s.${s.column('company')} as "companyId", s.${s.column('eventUUID')} as "eventUUID", s.${s.column('brochureId')} as "brochureId",
      s.${s.column('message')} as "message", s.${s.column('url')} as "url", i.${i.column('readAt')} is not null as "read",
      ${epochMillis(`i.${i.column('deliveredAt')}`)} as "received"
    from ${i.table} i join ${s.table} s on s.${s.column('notificationId')} = i.${i.column('notification')}`;
}

let pageSql: string | undefined;

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
  if (!pageSql) {
    const i = tableOf(em, NotificationInbox);
    pageSql = `${itemsFrom((e) => tableOf(em, e))}
      where i.${i.column('user')} = ? and (not ?::boolean or i.${i.column('readAt')} is null)
      order by i.${i.column('deliveredAt')} desc, i.${i.column('notification')} desc limit ? offset ?`;
  }
  const rows = await runSql<ItemRow>(em, pageSql, [userId, unreadOnly, limit, offset]);
  return rows.map(toItem);
}

let candidatesSql: string | undefined;

/** Every item of the window's parent user (unread only when `?` is true), with its owner, its delivery instant and its microseconds. */
function connectionCandidates(em: EntityManager): string {
  if (candidatesSql) return candidatesSql;
  const i = tableOf(em, NotificationInbox);
  const extra = `i.${i.column('user')} as "_owner", ${instantKeyColumns(`i.${i.column('deliveredAt')}`)}, `;
  return (candidatesSql = `${itemsFrom((e) => tableOf(em, e), extra)}
    where i.${i.column('user')} = ${WINDOW_PARENT} and (not ?::boolean or i.${i.column('readAt')} is null)`);
}

/** Newest first: the delivery instant (the column, so the index on user and delivery time serves the page), then the id. */
const INBOX_ORDER: readonly OrderColumn[] = [
  { column: INSTANT_COLUMN, desc: true, kind: 'micros' },
  { column: 'notificationId', desc: true, kind: 'int' },
];

/**
 * Checks `first` or `last` and decodes `after` and `before` as cursors of the inbox: [microseconds
 * as text, notification id]. A cursor of another list, or one whose key is not of these types, is
 * WSInvalidParameterException.
 */
export function inboxPageRequest(args: PagingArgs): PageRequest {
  return pageRequest(INBOX_LIST, INBOX_ORDER, args);
}

type Windowed = ItemRow & InstantKeyed & { _owner: number; _total: number; _page: boolean; _parent: number; _beyond?: boolean };

/** The page of each user's inbox (in the order of `userIds`) with each total: one statement for all of them. */
export async function readInboxPages(
  em: EntityManager,
  userIds: readonly number[],
  unreadOnly: boolean,
  request: PageRequest,
): Promise<ConnectionPage<InboxNotification>[]> {
  const { sql, params } = keysetWindow(connectionCandidates(em), [unreadOnly], userIds, INBOX_ORDER, request);
  const rows = await runSql<Windowed>(em, sql, params);
  return pagesByGroup(userIds, rows, request, (row) => encodeCursor(INBOX_LIST, [String(row._us), row.notificationId]), toItem);
}

let unreadSql: string | undefined;

/** Unread items of each user (in the order of `userIds`): one statement. */
export async function readUnreadCounts(em: EntityManager, userIds: readonly number[]): Promise<number[]> {
  if (!unreadSql) {
    const i = tableOf(em, NotificationInbox);
    unreadSql = `select ${i.column('user')} as "owner", count(*)::int as "n" from ${i.table}
      where ${i.column('user')} = any(?::int[]) and ${i.column('readAt')} is null group by ${i.column('user')}`;
  }
  const rows = await runSql<{ owner: number; n: number }>(em, unreadSql, [intArray(userIds)]);
  const byOwner = new Map(rows.map((r) => [r.owner, r.n]));
  return userIds.map((id) => byOwner.get(id) ?? 0);
}

let markSql: string | undefined;

/**
 * Marks items of a user's inbox read at `at`, in one statement: only when every id names an item
 * of theirs (otherwise nothing changes and the answer is WSNotificationNotFoundException); an item
 * already read keeps its first read time. Answers how many went from unread to read.
 */
export async function markRead(em: EntityManager, userId: number, ids: readonly number[], at: Date): Promise<number> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return 0;
  if (!markSql) {
    const i = tableOf(em, NotificationInbox);
    const mine = `${i.column('user')} = ? and ${i.column('notification')} = any(?::int[])`;
    // The count and the update see the same snapshot; the update's own "read_at is null" is
    // re-checked on rows a concurrent call has just marked, so each row is counted once.
    markSql = `with found as (select count(*)::int as n from ${i.table} where ${mine}),
      changed as (update ${i.table} set ${i.column('readAt')} = ? where ${mine} and ${i.column('readAt')} is null
        and (select n from found) = ? returning 1)
      select (select n from found) as "found", (select count(*)::int from changed) as "updated"`;
  }
  const list = intArray(distinct);
  const [row] = await runSql<{ found: number; updated: number }>(em, markSql, [userId, list, at, userId, list, distinct.length]);
  if (row.found !== distinct.length) {
    throw new ServiceError('WSNotificationNotFoundException', "A notification is not in the caller's inbox.");
  }
  return row.updated;
}

let markAllSql: string | undefined;

/** Marks every unread item of a user's inbox read at `at`, in one statement; answers how many. */
export async function markAllRead(em: EntityManager, userId: number, at: Date): Promise<number> {
  if (!markAllSql) {
    const i = tableOf(em, NotificationInbox);
    markAllSql = `with changed as (update ${i.table} set ${i.column('readAt')} = ? where ${i.column('user')} = ? and ${i.column('readAt')} is null
      returning 1) select count(*)::int as "updated" from changed`;
  }
  const [row] = await runSql<{ updated: number }>(em, markAllSql, [at, userId]);
  return row.updated;
}

let deliveredSql: string | undefined;

/** The item of one notification in each of these users' inboxes (those who hold it), with its owner: one statement (live delivery). */
export async function readDeliveredItems(
  em: EntityManager,
  notificationId: number,
  userIds: readonly number[],
): Promise<{ owner: number; item: InboxNotification }[]> {
  if (!deliveredSql) {
    const i = tableOf(em, NotificationInbox);
    deliveredSql = `${itemsFrom((e) => tableOf(em, e), `i.${i.column('user')} as "_owner", `)}
      where i.${i.column('notification')} = ? and i.${i.column('user')} = any(?::int[])`;
  }
  const rows = await runSql<ItemRow & { _owner: number }>(em, deliveredSql, [notificationId, intArray(userIds)]);
  return rows.map((row) => ({ owner: row._owner, item: toItem(row) }));
}

let itemsByIdSql: string | undefined;

/** The items of these notifications in one user's inbox (node(id:)), in no order: one statement. */
export async function readInboxItems(em: EntityManager, userId: number, notificationIds: readonly number[]): Promise<InboxNotification[]> {
  if (!itemsByIdSql) {
    const i = tableOf(em, NotificationInbox);
    itemsByIdSql = `${itemsFrom((e) => tableOf(em, e))}
      where i.${i.column('user')} = ? and i.${i.column('notification')} = any(?::int[])`;
  }
  return (await runSql<ItemRow>(em, itemsByIdSql, [userId, intArray(notificationIds)])).map(toItem);
}
