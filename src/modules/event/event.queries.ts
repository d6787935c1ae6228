// The event module's hand-written reads (docs/development.md, "Reads and writes"), their SQL in
// schema/sql/event.sql. The events page read invitations with their events and companies as
// MikroORM entities: hydrating the joined rows was 28% of that page's CPU under load
// (docs/performance.md). Here each read is one statement whose rows are shaped straight into the
// GraphQL views (event.reads.ts). The columns a view shows are selected under its fields' names
// from the columns those fields declare (ColumnOf, event.types.ts), so no column is named here to
// be shown; the company's name and roles are the company module's fragments.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { instantKey } from '../../db/keyset';
import { anyOf, queriesOf, type Tables } from '../../db/sql';
import { INSTANT_COLUMN, type OrderColumn } from '../../graphql/connection';
import { companyNameOf, roleExists } from '../company';
import { NOTIFICATION_MANAGER_ROLES } from './event.access';
import { columnSelect } from './event.columns';
import { Event, EventAttendee, type EventStatus } from './event.entity';
import { EventFields, UserEventView } from './event.types';

const { compiled, eb, windowed } = queriesOf({ Event, EventAttendee });

type DB = Tables<{ Event: Event; EventAttendee: EventAttendee }>;
type WithEvent = ExpressionBuilder<DB & { e: DB['Event'] }, 'e'>;
type WithInvitation = ExpressionBuilder<DB & { e: DB['Event']; a: DB['EventAttendee'] }, 'e' | 'a'>;

const ACTIVE = sql.lit<EventStatus>('A');

/** The select list every event read shares: the columns of the event `e` its fields read, and its company's name. */
const eventSelect = (eb: WithEvent) => [
  ...columnSelect(EventFields, Event, (prop) => eb.ref(`e.${prop}`)),
  sql<string>`${companyNameOf(eb.ref('e.company'))}`.as('cName'),
];

/** The select list of a UserEvent: the event's (eventSelect) and the invitation `a`'s columns. */
const userEventSelect = (eb: WithInvitation) => [
  ...eventSelect(eb),
  ...columnSelect(UserEventView, EventAttendee, (prop) => eb.ref(`a.${prop}`)),
];

/** Invitations of any of the users to any of the events (arrays of ids): a superset of the pairs asked. */
export const invitationPairs = compiled(
  (db, p: { userIds: number[]; eventIds: number[] }) =>
    db
      .selectFrom('EventAttendee as a')
      .select(['a.user as userId', 'a.event as eventId'])
      .where('a.user', '=', anyOf(p.userIds, 'int'))
      .where('a.event', '=', anyOf(p.eventIds, 'int')),
  { prepared: true },
);

/**
 * A page of the user's invitations to the company's active events, by start time then id. Not
 * prepared: its best plan depends on its values.
 */
export const userEventsPage = compiled((db, p: { userId: number; companyId: number; limit: number; offset: number }) =>
  db
    .selectFrom('EventAttendee as a')
    .innerJoin('Event as e', 'e.eId', 'a.event')
    .select(userEventSelect)
    .where('a.user', '=', p.userId)
    .where('e.company', '=', p.companyId)
    .where('e.status', '=', ACTIVE)
    .orderBy('e.utcStart')
    .orderBy('e.eId')
    .limit(p.limit)
    .offset(p.offset),
);

/** The user's own invitations of these UUIDs to active events. */
export const invitationsByUuid = compiled(
  (db, p: { userId: number; inviteUuids: string[] }) =>
    db
      .selectFrom('EventAttendee as a')
      .innerJoin('Event as e', 'e.eId', 'a.event')
      .select(userEventSelect)
      .where('a.user', '=', p.userId)
      .where('a.inviteUUID', '=', anyOf(p.inviteUuids, 'uuid'))
      .where('e.status', '=', ACTIVE),
  { prepared: true },
);

/** Events by UUID. */
export const eventsByUuids = compiled(
  (db, p: { uuids: string[] }) => db.selectFrom('Event as e').select(eventSelect).where('e.eventUUID', '=', anyOf(p.uuids, 'uuid')),
  { prepared: true },
);

/**
 * The order of both event lists, as userEvents orders its pages: the start instant (the column,
 * `_at`, so the index on company and start time serves a wall's page; the cursor holds its
 * microseconds, `_us`), then the event id.
 */
export const EVENT_ORDER: readonly OrderColumn[] = [
  { column: INSTANT_COLUMN, kind: 'micros' },
  { column: 'eId', kind: 'int' },
];

/**
 * Active events each user is invited to (the invitee is the window's parent, `_uId`), on one
 * company's wall when `companyId` is not null.
 */
export const invitationWindow = windowed<{ companyId: number | null }, Record<string, unknown>>(
  (db, p, parent) =>
    db
      .selectFrom('EventAttendee as a')
      .innerJoin('Event as e', 'e.eId', 'a.event')
      .select((eb) => [...userEventSelect(eb), ...instantKey(eb.ref('e.utcStart')), eb.ref('a.user').as('_uId')])
      .where('a.user', '=', parent)
      .where('e.status', '=', ACTIVE)
      .where((w) => w.or([w(sql`${p.companyId}::int`, 'is', null), w('e.company', '=', p.companyId as number)])),
  EVENT_ORDER,
);

/**
 * Active events of each company (the window's parent) that the viewer may see: those they are
 * invited to, and every one of a company whose notifications they manage (ADMIN or
 * PUSH_NOTIFICATION, as canSeeEvent and Query.event decide).
 */
export const visibleEventWindow = windowed<{ viewerId: number }, Record<string, unknown>>(
  (db, p, parent) =>
    db
      .selectFrom('Event as e')
      .select((eb) => [...eventSelect(eb), ...instantKey(eb.ref('e.utcStart'))])
      .where('e.company', '=', parent)
      .where('e.status', '=', ACTIVE)
      .where((w) =>
        w.or([
          w.exists(
            w
              .selectFrom('EventAttendee as a')
              .select(sql.lit(1).as('one'))
              .whereRef('a.event', '=', 'e.eId')
              .where('a.user', '=', p.viewerId),
          ),
          roleExists(w.ref('e.company'), w.val(p.viewerId), NOTIFICATION_MANAGER_ROLES),
        ]),
      ),
  EVENT_ORDER,
);

/**
 * Whether user `userId` is invited to event `eventUUID` of company `companyId` and has not declined
 * (the audience of a GE notification): `exists (...)`.
 */
export const invitedNotDeclined = (
  userId: Expression<number>,
  eventUUID: Expression<string>,
  companyId: Expression<number>,
): Expression<SqlBool> =>
  eb.exists(
    eb
      .selectFrom('EventAttendee as event_a')
      .innerJoin('Event as event_e', 'event_e.eId', 'event_a.event')
      .select(sql.lit(1).as('one'))
      .where('event_a.user', '=', userId)
      .where('event_e.eventUUID', '=', eventUUID)
      .where('event_e.company', '=', companyId)
      .where('event_a.inviteStatus', '<>', sql.lit('D')),
  );

/** Whether event `eventUUID` is of company `companyId` and not cancelled: `exists (...)`. */
export const eventNotCancelled = (eventUUID: Expression<string>, companyId: Expression<number>): Expression<SqlBool> =>
  eb.exists(
    eb
      .selectFrom('Event as event_e')
      .select(sql.lit(1).as('one'))
      .where('event_e.eventUUID', '=', eventUUID)
      .where('event_e.company', '=', companyId)
      .where('event_e.status', '<>', sql.lit('C')),
  );
