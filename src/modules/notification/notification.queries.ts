// The notification module's hand-written SQL (docs/development.md, "Reads and writes"), in
// schema/sql/notification.sql: the inbox's reads (a page by offset, the cursor window under many
// users, the unread counts, the items of a delivery and of node(id:)) and its read-state writes,
// each one statement whatever the number of items.
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { epochMillisOf, instantKey } from '../../db/keyset';
import { anyOf, queriesOf, type Tables } from '../../db/sql';
import { INSTANT_COLUMN, type OrderColumn } from '../../graphql/connection';
import { NotificationInbox, SentNotification } from './notification.entity';

const { compiled, windowed } = queriesOf({ NotificationInbox, SentNotification });

type DB = Tables<{ NotificationInbox: NotificationInbox; SentNotification: SentNotification }>;

/** An inbox item as the statements select it (the driver's types; `received` in epoch milliseconds). */
export type ItemRow = {
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

/** An item's fields, of the inbox row `i` and its sent notification `s`. */
const itemFields = (eb: ExpressionBuilder<DB & { i: DB['NotificationInbox']; s: DB['SentNotification'] }, 'i' | 's'>) => [
  eb.ref('s.notificationId').as('notificationId'),
  eb.ref('s.type').as('type'),
  eb.ref('s.company').as('companyId'),
  eb.ref('s.eventUUID').as('eventUUID'),
  eb.ref('s.brochureId').as('brochureId'),
  eb.ref('s.message').as('message'),
  eb.ref('s.url').as('url'),
  sql<boolean>`${eb.ref('i.readAt')} is not null`.as('read'),
  epochMillisOf(eb.ref('i.deliveredAt')).as('received'),
];

/** The inbox `i` joined to its sent notifications `s`. */
const inbox = (db: Kysely<DB>) =>
  db.selectFrom('NotificationInbox as i').innerJoin('SentNotification as s', 's.notificationId', 'i.notification');

/**
 * One page of a user's inbox by offset (the REST list), newest delivery first (unread only when
 * asked), which the (user, deliveredAt) index answers in order.
 */
export const inboxPage = compiled<{ userId: number; unreadOnly: boolean; limit: number; offset: number }, ItemRow>((db, p) =>
  inbox(db)
    .select(itemFields)
    .where('i.user', '=', p.userId)
    .where((w) => w.or([w.not(sql<boolean>`${p.unreadOnly}::boolean`), w('i.readAt', 'is', null)]))
    .orderBy('i.deliveredAt', 'desc')
    .orderBy('i.notification', 'desc')
    .limit(p.limit)
    .offset(p.offset),
);

/** Newest first: the delivery instant (the column, so the index on user and delivery time serves the page), then the id. */
export const INBOX_ORDER: readonly OrderColumn[] = [
  { column: INSTANT_COLUMN, desc: true, kind: 'micros' },
  { column: 'notificationId', desc: true, kind: 'int' },
];

/** The page of each user's inbox (unread only when asked), with its owner (`_owner`) and its delivery instant's key. */
export const inboxWindow = windowed<{ unreadOnly: boolean }, ItemRow & { _owner: number; _us: string | bigint }>(
  (db, p, parent) =>
    inbox(db)
      .select((eb) => [...itemFields(eb), eb.ref('i.user').as('_owner'), ...instantKey(eb.ref('i.deliveredAt'))])
      .where('i.user', '=', parent)
      .where((w) => w.or([w.not(sql<boolean>`${p.unreadOnly}::boolean`), w('i.readAt', 'is', null)])),
  INBOX_ORDER,
);

/** Unread items of each of these users (an intArray) that has any. */
export const unreadCounts = compiled((db, p: { userIds: string }) =>
  db
    .selectFrom('NotificationInbox as i')
    .select(['i.user as owner', sql<number>`count(*)::int`.as('n')])
    .where('i.user', '=', anyOf(p.userIds, 'int'))
    .where('i.readAt', 'is', null)
    .groupBy('i.user'),
);

/** The item of one notification in each of these users' inboxes (an intArray) that holds it, with its owner (`_owner`). */
export const deliveredItems = compiled<{ notificationId: number; userIds: string }, ItemRow & { _owner: number }>((db, p) =>
  inbox(db)
    .select((eb) => [...itemFields(eb), eb.ref('i.user').as('_owner')])
    .where('i.notification', '=', p.notificationId)
    .where('i.user', '=', anyOf(p.userIds, 'int')),
);

/** The items of these notifications (an intArray) in one user's inbox, in no order. */
export const inboxItems = compiled<{ userId: number; notificationIds: string }, ItemRow>((db, p) =>
  inbox(db).select(itemFields).where('i.user', '=', p.userId).where('i.notification', '=', anyOf(p.notificationIds, 'int')),
);

/**
 * Marks items (an intArray of notification ids, `count` of them) of a user's inbox read at `at`:
 * only when every id names an item of theirs (`found` says how many do; nothing changes otherwise);
 * an item already read keeps its first read time. The count and the update see the same snapshot;
 * the update's own "read_at is null" is re-checked on rows a concurrent call has just marked, so
 * each row is counted once (`updated`).
 */
export const markItemsRead = compiled((db, p: { userId: number; ids: string; count: number; at: Date }) =>
  db
    .with('found', (q) =>
      q
        .selectFrom('NotificationInbox as i')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('i.user', '=', p.userId)
        .where('i.notification', '=', anyOf(p.ids, 'int')),
    )
    .with('changed', (q) =>
      q
        .updateTable('NotificationInbox')
        .set({ readAt: p.at })
        .where('user', '=', p.userId)
        .where('notification', '=', anyOf(p.ids, 'int'))
        .where('readAt', 'is', null)
        .where((w) => w(w.selectFrom('found').select('found.n'), '=', p.count))
        .returning(sql.lit(1).as('one')),
    )
    .selectNoFrom((eb) => [
      eb.selectFrom('found').select('found.n').as('found'),
      eb
        .selectFrom('changed')
        .select(sql<number>`count(*)::int`.as('n'))
        .as('updated'),
    ])
    .$castTo<{ found: number; updated: number }>(),
);

/** Marks every unread item of a user's inbox read at `at`; answers how many (`updated`). */
export const markAllItemsRead = compiled((db, p: { userId: number; at: Date }) =>
  db
    .with('changed', (q) =>
      q
        .updateTable('NotificationInbox')
        .set({ readAt: p.at })
        .where('user', '=', p.userId)
        .where('readAt', 'is', null)
        .returning(sql.lit(1).as('one')),
    )
    .selectFrom('changed')
    .select(sql<number>`count(*)::int`.as('updated')),
);
