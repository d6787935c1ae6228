// The notification module's hand-written SQL (docs/development.md, "Reads and writes"), in
// schema/sql/notification.sql: the inbox's reads (a page by offset, the cursor window under many
// users, the unread counts, the items of a delivery and of node(id:)) and its read-state writes,
// each one statement whatever the number of items.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { epochMillisOf, instantKey } from '../../db/keyset';
import { anyOf, queriesOf, type Tables } from '../../db/sql';
import { INSTANT_COLUMN, type OrderColumn } from '../../graphql/connection';
import { roleExists } from '../company';
import { eventNotCancelled, invitedNotDeclined, NOTIFICATION_MANAGER_ROLES } from '../event';
import { memberOfCompanyTeams } from '../team';
import { userContacts } from '../user';
import type { ScheduledNotificationView, SentNotificationView } from './notification.types';
import {
  AssetLevelPreference,
  NotificationEmail,
  NotificationInbox,
  ScheduledNotification,
  SentNotification,
  type AssetPreferenceCode,
  type EmailParam,
} from './notification.entity';

const { compiled, windowed } = queriesOf({
  AssetLevelPreference,
  NotificationEmail,
  NotificationInbox,
  ScheduledNotification,
  SentNotification,
});

type DB = Tables<{
  AssetLevelPreference: AssetLevelPreference;
  NotificationEmail: NotificationEmail;
  NotificationInbox: NotificationInbox;
  ScheduledNotification: ScheduledNotification;
  SentNotification: SentNotification;
}>;

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

/**
 * The item of one notification in these users' inboxes (an intArray), once for each read state and
 * delivery instant among them, with the users who hold it so (`_owners`): one row for a delivery's
 * ten thousand recipients (their items differ only in those two fields), where a row a recipient
 * cost the live inbox some 60 ms of parsing and the objects of ten thousand equal items.
 */
export const deliveredItems = compiled<{ notificationId: number; userIds: string }, ItemRow & { _owners: number[] }>((db, p) =>
  inbox(db)
    .select((eb) => [...itemFields(eb), sql<number[]>`array_agg(${eb.ref('i.user')})`.as('_owners')])
    .where('i.notification', '=', p.notificationId)
    .where('i.user', '=', anyOf(p.userIds, 'int'))
    // The sent notification's key stands for its columns; the item's own two fields are grouped as selected.
    .groupBy((eb) => [eb.ref('s.notificationId'), sql`${eb.ref('i.readAt')} is not null`, eb.ref('i.deliveredAt')]),
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

// --- Delivery (notification.delivery.ts) ---

/** The users (`u`, the user module's userContacts) as the recipients read them. */
type WithUser = ExpressionBuilder<DB & { u: { uId: number; enableNotifications: boolean } }, 'u'>;

/** Whether user `u` opted out of `code` for brochure `brochureId` (null matches no preference): `exists (...)`. */
const optedOut = (eb: WithUser, brochureId: Expression<number | null>, code: AssetPreferenceCode) =>
  eb.exists(
    eb
      .selectFrom('AssetLevelPreference as p')
      .select(sql.lit(1).as('one'))
      .where('p.user', '=', eb.ref('u.uId'))
      .where('p.brochureId', '=', brochureId as Expression<number>)
      .where('p.code', '=', sql.lit(code)),
  );

/** A recipient: whether a push (`push`) and an e-mail (`mail`) reach them. */
export interface RecipientRow {
  uId: number;
  push: boolean;
  mail: boolean;
}

/** Who a notification goes to: its audience (`member`, a predicate on a user's id) and whether it has an e-mail. */
interface Audience {
  brochureId: number | null;
  email: boolean;
  member: (uId: Expression<number>) => Expression<SqlBool>;
}

/**
 * Active users of an audience, once each, in user id order, with whether a push reaches them
 * (notifications on, no ALP-NUN for the brochure) and the notification's e-mail does (it has one,
 * the address is not empty, no ALP-EUN). Ids only: the e-mail job reads addresses and names.
 */
const recipients = (db: Kysely<DB>, a: Audience) =>
  db
    .selectFrom(userContacts().as('u'))
    .select((eb) => [
      'u.uId as uId',
      eb.and([eb.ref('u.enableNotifications'), eb.not(optedOut(eb, eb.val(a.brochureId), 'ALP-NUN'))]).as('push'),
      eb.and([eb.val(a.email), eb('u.email', '<>', sql.lit('')), eb.not(optedOut(eb, eb.val(a.brochureId), 'ALP-EUN'))]).as('mail'),
    ])
    .where((w) => w.ref('u.active'))
    .where((w) => a.member(w.ref('u.uId')))
    .orderBy('u.uId')
    .$castTo<RecipientRow>();

/** The recipients of a GE notification: the event's invitees who have not declined. */
export const eventRecipients = compiled((db, p: { brochureId: number | null; email: boolean; eventUUID: string; companyId: number }) =>
  recipients(db, {
    brochureId: p.brochureId,
    email: p.email,
    member: (uId) => invitedNotDeclined(uId, sql.val(p.eventUUID), sql.val(p.companyId)),
  }),
);

/** The recipients of a GT or GA notification: the members of the listed teams (an array of ids) of the company. */
export const teamRecipients = compiled((db, p: { brochureId: number | null; email: boolean; companyId: number; teamIds: number[] }) =>
  recipients(db, {
    brochureId: p.brochureId,
    email: p.email,
    member: (uId) => memberOfCompanyTeams(uId, sql.val(p.companyId), sql<number[]>`${p.teamIds}::int[]`),
  }),
);

/** The recipients of a JN notification: every team member of the company. */
export const companyRecipients = compiled((db, p: { brochureId: number | null; email: boolean; companyId: number }) =>
  recipients(db, { brochureId: p.brochureId, email: p.email, member: (uId) => memberOfCompanyTeams(uId, sql.val(p.companyId), null) }),
);

/** The inbox rows of a notification for each of the users (an array of ids), delivered at `at`: one insert. */
export const insertInboxItems = compiled((db, p: { notificationId: number; at: Date; userIds: number[] }) =>
  db
    .insertInto('NotificationInbox')
    .columns(['notification', 'user', 'deliveredAt'])
    .expression(sql`select ${p.notificationId}::integer, u, ${p.at}::timestamptz from unnest(${p.userIds}::integer[]) as u`),
);

/** The e-mail outbox rows (PENDING) of a notification for each of the users (an array of ids): one insert. */
export const insertEmails = compiled((db, p: { notificationId: number; userIds: number[] }) =>
  db
    .insertInto('NotificationEmail')
    .columns(['notification', 'user'])
    .expression(sql`select ${p.notificationId}::integer, u from unnest(${p.userIds}::integer[]) as u`),
);

/** The PENDING e-mails of a notification: who each is addressed and filled with, by user id. */
export const pendingEmails = compiled((db, p: { notificationId: number }) =>
  db
    .selectFrom('NotificationEmail as e')
    .innerJoin(userContacts().as('u'), 'u.uId', 'e.user')
    .select(['u.uId as uId', 'u.email as email', 'u.firstName as firstName', 'u.lastName as lastName'])
    .where('e.notification', '=', p.notificationId)
    .where('e.status', '=', sql.lit('PENDING'))
    .orderBy('u.uId')
    .$castTo<{ uId: number; email: string; firstName: string | null; lastName: string | null }>(),
);

/** How a notification's e-mails went: how many SENT, how many FAILED, and the first error (by user id). */
export const emailOutcome = compiled((db, p: { notificationId: number }) =>
  db
    .selectFrom('NotificationEmail as e')
    .select((eb) => [
      sql<number>`count(*) filter (where ${eb.ref('e.status')} = 'SENT')::int`.as('sent'),
      sql<number>`count(*) filter (where ${eb.ref('e.status')} = 'FAILED')::int`.as('failed'),
      sql<
        string | null
      >`(array_agg(${eb.ref('e.error')} order by ${eb.ref('e.user')}) filter (where ${eb.ref('e.error')} is not null))[1]`.as('firstError'),
    ])
    .where('e.notification', '=', p.notificationId),
);

// --- The sent lists (notification.lists.ts) ---

/**
 * A timestamp column as its microseconds since the epoch, as decimal text (the cursor's key). The
 * lists read every timestamp this way rather than as timestamptz text: a JS Date from it is one
 * division, where parsing the text took about 0.6 microseconds a value (0.06 ms of CPU for the two
 * timestamps of a 50-record page, measured alone).
 */
const microsOf = (column: Expression<Date>) => sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;

/** The instant of a keyset, exact to the microsecond (a stable expression: evaluated once, an index bound). */
const keyInstant = (us: unknown) => sql<Date>`timestamptz 'epoch' + ${us}::bigint * interval '1 microsecond'`;

/** What a list asks: the scope, the optional filters (null: none), the keyset bound (null: none) and the page. */
export interface ListParams {
  companyId: number;
  type: string;
  /** The caller, when the statement itself is to check that they manage the company's notifications; null when checked already. */
  managerId: number | null;
  eventUUID: string | null;
  notificationScheduleId: number | null;
  brochureId: number | null;
  /** The keyset bound: records before (afterUs, afterId) in the list's order. */
  afterUs: string | null;
  afterId: number | null;
  limit: number;
  offset: number;
}

/**
 * A sent notification as the lists read it: the fields of its GraphQL view (notification.types.ts)
 * under their names, but its instants as microseconds (text) and its e-mail parameters as stored.
 */
export type SentRow = Omit<SentNotificationView, 'notificationCreated' | 'notificationModified' | 'emailParams' | 'cursor'> & {
  createdUs: string;
  modifiedUs: string;
  emailParams: EmailParam[] | null;
};

/**
 * A processed scheduled notification as the lists read it, as SentRow: the fields of its GraphQL
 * view, but its instants as microseconds (text), its status under the column's name and its e-mail
 * parameters as stored.
 */
export type ScheduledRow = Omit<
  ScheduledNotificationView,
  'scheduleUTCDateTime' | 'scheduleStatus' | 'scheduleCreated' | 'scheduleModified' | 'emailParams' | 'cursor'
> & {
  dueUs: string;
  status: string;
  createdUs: string;
  modifiedUs: string;
  emailParams: EmailParam[] | null;
};

/** The columns of a SentRow selected under their own properties' names. */
const SENT_COLUMNS = [
  ...(['notificationId', 'type', 'eventUUID', 'message', 'description', 'url', 'successful', 'totalNotificationsSent', 'teamIds'] as const),
  ...(['notificationCreatedBy', 'notificationModifiedBy', 'brochureId', 'emailTemplate', 'emailSubject', 'emailParams'] as const),
] as const;

/** The sent notifications `s` with a SentRow's columns. */
const sentRows = (db: Kysely<DB>) =>
  db
    .selectFrom('SentNotification as s')
    .select(SENT_COLUMNS.map((prop) => `s.${prop}` as const))
    .select((eb) => [
      's.company as companyId',
      's.schedule as notificationScheduleId',
      microsOf(eb.ref('s.notificationCreated')).as('createdUs'),
      microsOf(eb.ref('s.notificationModified')).as('modifiedUs'),
    ]);

/** The columns of a ScheduledRow selected under their own properties' names. */
const SCHEDULED_COLUMNS = [
  ...(['notificationScheduleId', 'broadcastType', 'keyCompanyId', 'keyEventUUID', 'scheduleTimezoneId', 'scheduleLocalDateTime'] as const),
  ...([
    'status',
    'scheduleJobName',
    'message',
    'url',
    'valueIds',
    'totalNotificationsSent',
    'notificationLog',
    'scheduleCreatedBy',
  ] as const),
  ...(['scheduleModifiedBy', 'brochureId', 'emailTemplate', 'emailSubject', 'emailParams', 'version'] as const),
] as const;

/** The processed scheduled notifications `n` with a ScheduledRow's columns. */
const scheduledRows = (db: Kysely<DB>) =>
  db
    .selectFrom('ScheduledNotification as n')
    .select(SCHEDULED_COLUMNS.map((prop) => `n.${prop}` as const))
    .select((eb) => [
      'n.company as companyId',
      microsOf(eb.ref('n.scheduleDueAt')).as('dueUs'),
      microsOf(eb.ref('n.scheduleCreated')).as('createdUs'),
      microsOf(eb.ref('n.scheduleModified')).as('modifiedUs'),
    ])
    .where('n.status', 'in', [sql.lit('SENT'), sql.lit('FAILED')] as never);

/** Whether the value of a filter is absent (null): the condition it guards holds. */
const absent = (value: unknown, type: 'int' | 'uuid' | 'bigint') => sql<SqlBool>`${value}::${sql.raw(type)} is null`;

/** Whether user `userId` manages the notifications of company `companyId` (ADMIN or PUSH_NOTIFICATION). */
const manages = (companyId: Expression<number>, userId: Expression<number>) => roleExists(companyId, userId, NOTIFICATION_MANAGER_ROLES);

/**
 * A page or batch of the company's sent notifications of one type, newest first (the list index's
 * order: notificationCreated desc, notificationId desc), with the caller's roles, the optional
 * filters and the keyset bound. Not prepared: its plan depends on which filters are given (a
 * filter left out is `null is null`, which PostgreSQL drops when it plans for the values).
 */
export const sentList = compiled((db, p: ListParams) =>
  sentRows(db)
    .where('s.company', '=', p.companyId)
    .where('s.type', '=', p.type as never)
    .where((w) => w.or([absent(p.managerId, 'int'), manages(w.val(p.companyId), w.val(p.managerId as number))]))
    .where((w) => w.or([absent(p.eventUUID, 'uuid'), w('s.eventUUID', '=', p.eventUUID)]))
    .where((w) => w.or([absent(p.notificationScheduleId, 'int'), w('s.schedule', '=', p.notificationScheduleId as number)]))
    .where((w) => w.or([absent(p.brochureId, 'int'), w('s.brochureId', '=', p.brochureId)]))
    .where((w) =>
      w.or([
        absent(p.afterUs, 'bigint'),
        w(w.refTuple('s.notificationCreated', 's.notificationId'), '<', w.tuple(keyInstant(p.afterUs), p.afterId as number)),
      ]),
    )
    .orderBy('s.notificationCreated', 'desc')
    .orderBy('s.notificationId', 'desc')
    .limit(p.limit)
    .offset(p.offset),
);

/** A page or batch of the company's processed scheduled notifications of one type, latest first (due time desc, id desc), as sentList. */
export const scheduledList = compiled((db, p: ListParams) =>
  scheduledRows(db)
    .where('n.company', '=', p.companyId)
    .where('n.broadcastType', '=', p.type as never)
    .where((w) => w.or([absent(p.managerId, 'int'), manages(w.val(p.companyId), w.val(p.managerId as number))]))
    .where((w) => w.or([absent(p.eventUUID, 'uuid'), w('n.keyEventUUID', '=', p.eventUUID)]))
    .where((w) => w.or([absent(p.notificationScheduleId, 'int'), w('n.notificationScheduleId', '=', p.notificationScheduleId as number)]))
    .where((w) => w.or([absent(p.brochureId, 'int'), w('n.brochureId', '=', p.brochureId)]))
    .where((w) =>
      w.or([
        absent(p.afterUs, 'bigint'),
        w(w.refTuple('n.scheduleDueAt', 'n.notificationScheduleId'), '<', w.tuple(keyInstant(p.afterUs), p.afterId as number)),
      ]),
    )
    .orderBy('n.scheduleDueAt', 'desc')
    .orderBy('n.notificationScheduleId', 'desc')
    .limit(p.limit)
    .offset(p.offset),
);

/**
 * Whether the caller may find a record in its list: they manage the notifications of its company,
 * and an event's record (GE) is of an event of that company that is not cancelled
 * (WSEventCancelledException in the list).
 */
const readableBy = (
  userId: Expression<number>,
  type: Expression<string>,
  companyId: Expression<number>,
  eventUUID: Expression<string | null>,
): Expression<SqlBool> =>
  sql<SqlBool>`${manages(companyId, userId)} and (${type} <> 'GE' or ${eventNotCancelled(eventUUID as Expression<string>, companyId)})`;

/** The sent notifications of these ids (an intArray) that the caller may read in sentNotifications, in no order. */
export const sentByIds = compiled((db, p: { ids: string; userId: number }) =>
  sentRows(db)
    .where('s.notificationId', '=', anyOf(p.ids, 'int'))
    .where((w) => readableBy(w.val(p.userId), w.ref('s.type'), w.ref('s.company'), w.ref('s.eventUUID'))),
);

/** The processed scheduled notifications of these ids (an intArray) the caller may read in sentScheduledNotifications, in no order. */
export const scheduledByIds = compiled((db, p: { ids: string; userId: number }) =>
  scheduledRows(db)
    .where('n.notificationScheduleId', '=', anyOf(p.ids, 'int'))
    .where((w) => readableBy(w.val(p.userId), w.ref('n.broadcastType'), w.ref('n.company'), w.ref('n.keyEventUUID'))),
);
