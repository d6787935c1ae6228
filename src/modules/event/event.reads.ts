// Read models of events (docs/development.md, "Reads and writes"). The events page read
// invitations with their events and companies as MikroORM entities: hydrating the joined rows
// (mapJoinedProp, entity creation, the identity map) was 28% of that page's CPU under load
// (docs/performance.md). Here each read is one statement written once from the entities'
// metadata, and its rows are shaped straight into the GraphQL views: no entity is built. The
// columns a view shows are selected under its fields' names from the columns those fields
// declare (ColumnOf, event.types.ts), so no column is named here to be shown.
import type { EntityManager } from '@mikro-orm/core';
import { readModel, runSql, sqlOnce, type NamesOf } from '../../db/lean';
import { localTimestamp, offsetMinutesAt } from '../../core/zoned-time';
import {
  encodeCursor,
  keysetWindow,
  instantKeyColumns,
  INSTANT_COLUMN,
  pagesByGroup,
  WINDOW_BEYOND,
  WINDOW_PAGE,
  WINDOW_PARENT,
  WINDOW_PARENT_COLUMN,
  WINDOW_TOTAL,
  type ConnectionPage,
  type InstantKeyed,
  type OrderColumn,
  type PageRequest,
} from '../../graphql/connection';
import { Company, CompanyRole } from '../company';
import { Event, EventAttendee } from './event.entity';
import { NOTIFICATION_MANAGER_ROLES } from './event.access';
import { columnSelect } from './event.columns';
import { EventFields, UserEventView, type EventView } from './event.types';

/** Fields `shape` computes from a row: the zoned times, and eHasEnded from `now`. */
type Computed = 'eGmtOffsetMinutes' | 'eLocalStartDateTime' | 'eLocalEndDateTime' | 'eHasEnded';
/** Fields whose column value is not yet the view's: converted in `shape`. */
type Converted = 'eUTCStartDateTime' | 'eUTCEndDateTime' | 'useExternalEventProvider';

/**
 * A row as the connection answers it: every column the view reads under its field's name
 * (columnSelect), with the company's name. The instants are selected as epoch milliseconds,
 * which `shape` makes Dates.
 */
type EventRow = Omit<EventFields, Computed | Converted> & {
  eUTCStartDateTime: number;
  eUTCEndDateTime: number;
  useExternalEventProvider: boolean;
};
type UserEventRow = EventRow & Omit<UserEventView, keyof EventFields>;

/** The select list every event read shares: the columns of the event `e` its fields read, and its company's name (`c`, companyJoin). */
function eventSelect(n: NamesOf): string[] {
  return [...columnSelect(EventFields, Event, n(Event), 'e'), `c.${n(Company).column('companyName')} as "cName"`];
}

/** The select list of a UserEvent: the event's (eventSelect) and the invitation `a`'s columns. */
const userEventSelect = (n: NamesOf) => [...eventSelect(n), ...columnSelect(UserEventView, EventAttendee, n(EventAttendee), 'a')];

/** The window's order key of the event `e`: its start instant (EVENT_ORDER). */
const windowKey = (n: NamesOf) => instantKeyColumns(`e.${n(Event).column('utcStart')}`);

/** Joins the company `c` of the event `e`. */
function companyJoin(n: NamesOf): string {
  const c = n(Company);
  return `join ${c.table} c on c.${c.column('companyId')} = e.${n(Event).column('company')}`;
}

/** The view's fields from a row: instants as Dates, zoned times, and `now` deciding eHasEnded. */
function shape<R extends EventRow>(row: R, now: number): Omit<R, keyof EventRow> & EventFields {
  const zone = row.eTimezoneId;
  const start = new Date(row.eUTCStartDateTime);
  const end = new Date(row.eUTCEndDateTime);
  return {
    ...row,
    eGmtOffsetMinutes: offsetMinutesAt(start, zone),
    eUTCStartDateTime: start,
    eLocalStartDateTime: localTimestamp(start, zone),
    eUTCEndDateTime: end,
    eLocalEndDateTime: localTimestamp(end, zone),
    eHasEnded: end.getTime() <= now ? 'Y' : 'N',
    useExternalEventProvider: row.useExternalEventProvider ? 'Y' : 'N',
  };
}

/** Not prepared: the best plan of a page depends on its values (docs/development.md, "Reads and writes"). */
const userEventsPage = readModel<UserEventRow, [userId: number, companyId: number, limit: number, offset: number]>({
  sql: (n) => {
    const [e, a] = [n(Event), n(EventAttendee)];
    return (
      `select ${userEventSelect(n).join(', ')} ` +
      `from ${a.table} a join ${e.table} e on e.${e.column('eId')} = a.${a.column('event')} ${companyJoin(n)} ` +
      `where a.${a.column('user')} = ? and e.${e.column('company')} = ? and e.${e.column('status')} = 'A' ` +
      `order by e.${e.column('utcStart')}, e.${e.column('eId')} limit ? offset ?`
    );
  },
});

/**
 * A page of the user's invitations to the company's active events, by start time then id,
 * each as the UserEvent view: one statement.
 */
export async function readUserEvents(
  em: EntityManager,
  userId: number,
  companyId: number,
  page: { limit: number; offset: number },
): Promise<UserEventView[]> {
  const rows = await userEventsPage(em, userId, companyId, page.limit, page.offset);
  const now = Date.now();
  return rows.map((row) => shape(row, now));
}

const invitationsByUuid = readModel<UserEventRow, [userId: number, inviteUuids: string[]]>({
  sql: (n) => {
    const [e, a] = [n(Event), n(EventAttendee)];
    return (
      `select ${userEventSelect(n).join(', ')} ` +
      `from ${a.table} a join ${e.table} e on e.${e.column('eId')} = a.${a.column('event')} ${companyJoin(n)} ` +
      `where a.${a.column('user')} = ? and a.${a.column('inviteUUID')} = any(?::uuid[]) and e.${e.column('status')} = 'A'`
    );
  },
  prepared: true,
});

/**
 * The user's own invitations of these UUIDs (lower case, already checked to be UUIDs) to active
 * events, as userEvents and User.events list them, in no particular order: one statement.
 */
export async function readInvitationsByUuid(em: EntityManager, userId: number, inviteUuids: string[]): Promise<UserEventView[]> {
  const rows = await invitationsByUuid(em, userId, inviteUuids);
  const now = Date.now();
  return rows.map((row) => shape(row, now));
}

const eventsByUuids = readModel<EventRow, [uuids: string[]]>({
  sql: (n) => {
    const e = n(Event);
    return `select ${eventSelect(n).join(', ')} from ${e.table} e ${companyJoin(n)} where e.${e.column('eventUUID')} = any(?::uuid[])`;
  },
  prepared: true,
});

/** Events by UUID (lower case, already checked to be UUIDs) as the Event view, in no particular order: one statement. */
export async function readEvents(em: EntityManager, uuids: string[]): Promise<EventView[]> {
  const rows = await eventsByUuids(em, uuids);
  const now = Date.now();
  return rows.map((row) => shape(row, now));
}

/** Invitations of any of the users to any of the events (a superset of the pairs asked; the caller picks them): one statement. */
export const readInvitations = readModel<{ userId: number; eventId: number }, [userIds: number[], eventIds: number[]]>({
  sql: (n) => {
    const a = n(EventAttendee);
    return (
      `select ${a.column('user')} as "userId", ${a.column('event')} as "eventId" from ${a.table} ` +
      `where ${a.column('user')} = any(?::int[]) and ${a.column('event')} = any(?::int[])`
    );
  },
  prepared: true,
});

// --- The graph's event lists (cursor connections under many parents, one statement each) ---

/** The cursor lists: User.events pages the caller's invitations, Company.events a wall's events. */
export const USER_EVENTS_LIST = 'UserEvent';
export const COMPANY_EVENTS_LIST = 'CompanyEvent';

/**
 * The order of both lists, as userEvents orders its pages: the start instant (the column, `_at`, so
 * the index on company and start time serves a wall's page; the cursor holds its microseconds,
 * `_us`), then the event id.
 */
export const EVENT_ORDER: readonly OrderColumn[] = [
  { column: INSTANT_COLUMN, kind: 'micros' },
  { column: 'eId', kind: 'int' },
];

/**
 * Active events the users are invited to, as UserEvent rows with the invitee (`_uId`); on one
 * company's wall when the company parameter is not null. Parameters: company id twice (the invitee is the window's parent).
 */
const invitationCandidates = sqlOnce((n) => {
  const [e, a] = [n(Event), n(EventAttendee)];
  const select = [...userEventSelect(n), windowKey(n), `a.${a.column('user')} as "_uId"`];
  return (
    `select ${select.join(', ')} from ${a.table} a join ${e.table} e on e.${e.column('eId')} = a.${a.column('event')} ${companyJoin(n)} ` +
    `where a.${a.column('user')} = ${WINDOW_PARENT} and e.${e.column('status')} = 'A' ` +
    `and (?::int is null or e.${e.column('company')} = ?)`
  );
});

/**
 * Active events of the companies that the viewer may see, as Event rows: those they are invited to,
 * and every one of a company whose notifications they manage (ADMIN or PUSH_NOTIFICATION, as
 * canSeeEvent and Query.event decide). Parameters: viewer, viewer (the company is the window's parent).
 */
const visibleEventCandidates = sqlOnce((n) => {
  const [e, a, r] = [n(Event), n(EventAttendee), n(CompanyRole)];
  const roles = NOTIFICATION_MANAGER_ROLES.map((role) => `'${role}'`).join(', ');
  return (
    `select ${[...eventSelect(n), windowKey(n)].join(', ')} from ${e.table} e ${companyJoin(n)} ` +
    `where e.${e.column('company')} = ${WINDOW_PARENT} and e.${e.column('status')} = 'A' and (` +
    `exists (select 1 from ${a.table} a where a.${a.column('event')} = e.${e.column('eId')} and a.${a.column('user')} = ?) ` +
    `or exists (select 1 from ${r.table} r where r.${r.column('company')} = e.${e.column('company')} and r.${r.column('user')} = ? ` +
    `and r.${r.column('role')} in (${roles})))`
  );
});

type Windowed<R> = R & InstantKeyed & { _total: number; _page: boolean; _parent: number; _beyond?: boolean };

/** A window row's view without the window's bookkeeping columns. */
function withoutWindow<R extends object>(row: R): R {
  const view = { ...row } as Record<string, unknown>;
  for (const column of [WINDOW_TOTAL, WINDOW_PAGE, WINDOW_BEYOND, WINDOW_PARENT_COLUMN, '_uId', INSTANT_COLUMN, '_us']) delete view[column];
  return view as R;
}

/**
 * The page of each user's invitations to active events (on one company's wall, or all), by start
 * time then id, with each list's total: one statement for all the users.
 */
export async function readUserEventPages(
  em: EntityManager,
  userIds: readonly number[],
  companyId: number | null,
  request: PageRequest,
): Promise<ConnectionPage<UserEventView>[]> {
  const { sql, params } = keysetWindow(invitationCandidates(em), [companyId, companyId], userIds, EVENT_ORDER, request);
  const rows = await runSql<Windowed<UserEventRow & { _uId: number }>>(em, sql, params);
  const now = Date.now();
  return pagesByGroup(
    userIds,
    rows,
    request,
    (row) => encodeCursor(USER_EVENTS_LIST, [String(row._us), row.eId]),
    (row) => shape(withoutWindow(row), now),
  );
}

/**
 * The page of each company's active events that the viewer may see (visibleEventCandidates), by
 * start time then id, with each list's total: one statement for all the companies.
 */
export async function readCompanyEventPages(
  em: EntityManager,
  viewerId: number,
  companyIds: readonly number[],
  request: PageRequest,
): Promise<ConnectionPage<EventView>[]> {
  const { sql, params } = keysetWindow(visibleEventCandidates(em), [viewerId, viewerId], companyIds, EVENT_ORDER, request);
  const rows = await runSql<Windowed<EventRow>>(em, sql, params);
  const now = Date.now();
  return pagesByGroup(
    companyIds,
    rows,
    request,
    (row) => encodeCursor(COMPANY_EVENTS_LIST, [String(row._us), row.eId]),
    (row) => shape(withoutWindow(row), now),
  );
}
