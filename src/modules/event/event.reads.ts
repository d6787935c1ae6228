// Event reads as the GraphQL views (docs/development.md, "Reads and writes"): each is one
// statement of event.queries.ts (schema/sql/event.sql), its rows shaped straight into the views
// (instants made Dates, zoned times, eHasEnded); no entity is built.
import type { EntityManager } from '@mikro-orm/core';
import { localTimestamp, offsetMinutesAt } from '../../core/zoned-time';
import {
  encodeCursor,
  INSTANT_COLUMN,
  pagesByGroup,
  WINDOW_BEYOND,
  WINDOW_PAGE,
  WINDOW_PARENT_COLUMN,
  WINDOW_TOTAL,
  type ConnectionPage,
  type InstantKeyed,
  type PageRequest,
} from '../../graphql/connection';
import { eventsByUuids, invitationPairs, invitationsByUuid, invitationWindow, userEventsPage, visibleEventWindow } from './event.queries';
import type { EventFields, UserEventView, EventView } from './event.types';

export { EVENT_ORDER } from './event.queries';

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
  const rows = (await userEventsPage.run(em, { userId, companyId, limit: page.limit, offset: page.offset })) as UserEventRow[];
  const now = Date.now();
  return rows.map((row) => shape(row, now));
}

/**
 * The user's own invitations of these UUIDs (lower case, already checked to be UUIDs) to active
 * events, as userEvents and User.events list them, in no particular order: one statement.
 */
export async function readInvitationsByUuid(em: EntityManager, userId: number, inviteUuids: string[]): Promise<UserEventView[]> {
  const rows = (await invitationsByUuid.run(em, { userId, inviteUuids })) as UserEventRow[];
  const now = Date.now();
  return rows.map((row) => shape(row, now));
}

/** Events by UUID (lower case, already checked to be UUIDs) as the Event view, in no particular order: one statement. */
export async function readEvents(em: EntityManager, uuids: string[]): Promise<EventView[]> {
  const rows = (await eventsByUuids.run(em, { uuids })) as EventRow[];
  const now = Date.now();
  return rows.map((row) => shape(row, now));
}

/** Invitations of any of the users to any of the events (a superset of the pairs asked; the caller picks them): one statement. */
export const readInvitations = (em: EntityManager, userIds: number[], eventIds: number[]) => invitationPairs.run(em, { userIds, eventIds });

// --- The graph's event lists (cursor connections under many parents, one statement each) ---

/** The cursor lists: User.events pages the caller's invitations, Company.events a wall's events. */
export const USER_EVENTS_LIST = 'UserEvent';
export const COMPANY_EVENTS_LIST = 'CompanyEvent';

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
  const rows = (await invitationWindow.run(em, userIds, { companyId }, request)) as Windowed<UserEventRow & { _uId: number }>[];
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
 * The page of each company's active events that the viewer may see (visibleEventWindow), by
 * start time then id, with each list's total: one statement for all the companies.
 */
export async function readCompanyEventPages(
  em: EntityManager,
  viewerId: number,
  companyIds: readonly number[],
  request: PageRequest,
): Promise<ConnectionPage<EventView>[]> {
  const rows = (await visibleEventWindow.run(em, companyIds, { viewerId }, request)) as Windowed<EventRow>[];
  const now = Date.now();
  return pagesByGroup(
    companyIds,
    rows,
    request,
    (row) => encodeCursor(COMPANY_EVENTS_LIST, [String(row._us), row.eId]),
    (row) => shape(withoutWindow(row), now),
  );
}
