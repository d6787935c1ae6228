// Reads of the sent lists (endpoints 16 and 17): a page (pageNum) or a keyset batch (after).
// The REST facade returns these lists whole by asking for batch after batch with the last
// record's cursor, all through one request's EntityManager. So each batch is one statement
// that an index answers in the list's order (see the list indexes on the entities), and the
// rows become plain views: nothing enters the identity map, however many records pass.
//
// The statement also checks the caller's roles on the company (ADMIN or PUSH_NOTIFICATION, as
// the event module's managesNotifications does), instead of a statement of its own before it:
// a page is then two statements with the caller's credential, not three. The roles' own statement
// cost about 0.4 ms of service CPU a request in a profile (MikroORM's find, a socket write), more
// than a page's 50 rows now do. No rows is the one answer that cannot tell "none" from "not
// allowed"; the resolver asks the role loader then.
import type { EntityManager } from '@mikro-orm/core';
import { intArray } from '../../db/sql';
import type { BroadcastType, EmailParam } from './notification.entity';
import {
  scheduledByIds,
  scheduledList,
  sentByIds,
  sentList,
  type ListParams,
  type ScheduledRow,
  type SentRow,
} from './notification.queries';
import type { ScheduledNotificationView, SentNotificationView } from './notification.types';

import { encodeCursor, type Keyset } from './notification.cursor';

export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  cursorOfDate,
  decodeCursor,
  encodeCursor,
  type Keyset,
  type ListKind,
} from './notification.cursor';

/** What to read of a list: the caller's scope (already authorised) and the page or batch. */
export interface ListQuery {
  type: BroadcastType;
  companyId: number;
  eventUUID: string | null;
  notificationScheduleId: number | null;
  brochureId: number | null;
  limit: number;
  /** Offset of a pageNum page; 0 with `after`. */
  offset: number;
  /** Records after this position in the list's order. */
  after: Keyset | null;
  /** The caller, when the statement itself is to check that they manage the company's notifications; null when checked already (GE). */
  managerId: number | null;
}

/** A list's query as its statement's parameters: a filter not given (or empty) is null. */
const listParams = (q: ListQuery): ListParams => ({
  companyId: q.companyId,
  type: q.type,
  managerId: q.managerId,
  eventUUID: q.eventUUID || null,
  notificationScheduleId: q.notificationScheduleId || null,
  brochureId: q.brochureId || null,
  afterUs: q.after?.us ?? null,
  afterId: q.after?.id ?? null,
  limit: q.limit,
  offset: q.offset,
});

/**
 * The Date of a microsecond key: its millisecond floored, as the driver's own parser (postgres-date)
 * does. Exact: the microseconds of any year from 1685 to 2255 are a safe integer, and dividing one by
 * 1000 cannot cross the next whole millisecond.
 */
const dateOfMicros = (us: string) => new Date(Math.floor(Number(us) / 1000));

const emailParamsOf = (p: EmailParam[] | null) => (p ? p.map((x) => ({ key: x.key, value: x.value })) : null);

/** The one statement of a sent-list page or batch and its parameters (to explain its plan). */
export const sentListStatement = (em: EntityManager, q: ListQuery) => sentList.statement(em, listParams(q));

/**
 * A sent-list record as its GraphQL view. The cursor is encoded when it is read: a REST page does
 * not select it, and encoding every row's took a third of the rows' shaping (0.035 ms a 50-record page).
 */
class SentItem implements SentNotificationView {
  notificationId: number;
  type: string;
  companyId: number;
  eventUUID: string | null;
  notificationScheduleId: number | null;
  message: string;
  description: string | null;
  url: string | null;
  successful: boolean;
  totalNotificationsSent: number;
  teamIds: string[] | null;
  notificationCreated: Date;
  notificationModified: Date;
  notificationCreatedBy: string;
  notificationModifiedBy: string;
  brochureId: number | null;
  emailTemplate: string | null;
  emailSubject: string | null;
  emailParams: EmailParam[] | null;
  private readonly createdUs: string;

  constructor(r: SentRow) {
    this.notificationId = r.notificationId;
    this.type = r.type;
    this.companyId = r.companyId;
    this.eventUUID = r.eventUUID ?? null;
    this.notificationScheduleId = r.notificationScheduleId ?? null;
    this.message = r.message;
    this.description = r.description ?? null;
    this.url = r.url ?? null;
    this.successful = r.successful;
    this.totalNotificationsSent = r.totalNotificationsSent;
    this.teamIds = r.teamIds ?? null;
    this.notificationCreated = dateOfMicros(r.createdUs);
    this.notificationModified = dateOfMicros(r.modifiedUs);
    this.notificationCreatedBy = r.notificationCreatedBy;
    this.notificationModifiedBy = r.notificationModifiedBy;
    this.brochureId = r.brochureId ?? null;
    this.emailTemplate = r.emailTemplate ?? null;
    this.emailSubject = r.emailSubject ?? null;
    this.emailParams = emailParamsOf(r.emailParams);
    this.createdUs = r.createdUs;
  }

  get cursor(): string {
    return encodeCursor('sent', this.createdUs, this.notificationId);
  }
}

/** Sent notifications (ad hoc and scheduled), newest first: (notificationCreated desc, notificationId desc). */
export async function readSentList(em: EntityManager, q: ListQuery): Promise<SentNotificationView[]> {
  return (await sentList.run(em, listParams(q))).map((r) => new SentItem(r));
}

/** The one statement of a scheduled-list page or batch and its parameters (to explain its plan). */
export const scheduledListStatement = (em: EntityManager, q: ListQuery) => scheduledList.statement(em, listParams(q));

/** A scheduled-list record as its GraphQL view; the cursor is encoded when it is read, as for SentItem. */
class ScheduledItem implements ScheduledNotificationView {
  notificationScheduleId: number;
  companyId: number;
  broadcastType: string;
  keyCompanyId: number | null;
  keyEventUUID: string | null;
  scheduleTimezoneId: string;
  scheduleLocalDateTime: string;
  scheduleUTCDateTime: Date;
  scheduleStatus: string;
  scheduleJobName: string | null;
  message: string;
  url: string | null;
  valueIds: string[];
  totalNotificationsSent: number | null;
  notificationLog: string | null;
  scheduleCreated: Date;
  scheduleModified: Date;
  scheduleCreatedBy: string;
  scheduleModifiedBy: string;
  brochureId: number | null;
  emailTemplate: string | null;
  emailSubject: string | null;
  emailParams: EmailParam[] | null;
  version: number;
  private readonly dueUs: string;

  constructor(r: ScheduledRow) {
    this.notificationScheduleId = r.notificationScheduleId;
    this.companyId = r.companyId;
    this.broadcastType = r.broadcastType;
    this.keyCompanyId = r.keyCompanyId ?? null;
    this.keyEventUUID = r.keyEventUUID ?? null;
    this.scheduleTimezoneId = r.scheduleTimezoneId;
    // PostgreSQL answers `YYYY-MM-DD HH:mm:ss`; the wire form has the ISO `T`.
    this.scheduleLocalDateTime = String(r.scheduleLocalDateTime).replace(' ', 'T');
    this.scheduleUTCDateTime = dateOfMicros(r.dueUs);
    this.scheduleStatus = r.status;
    this.scheduleJobName = r.scheduleJobName ?? null;
    this.message = r.message;
    this.url = r.url ?? null;
    this.valueIds = r.valueIds;
    this.totalNotificationsSent = r.totalNotificationsSent ?? null;
    this.notificationLog = r.notificationLog ?? null;
    this.scheduleCreated = dateOfMicros(r.createdUs);
    this.scheduleModified = dateOfMicros(r.modifiedUs);
    this.scheduleCreatedBy = r.scheduleCreatedBy;
    this.scheduleModifiedBy = r.scheduleModifiedBy;
    this.brochureId = r.brochureId ?? null;
    this.emailTemplate = r.emailTemplate ?? null;
    this.emailSubject = r.emailSubject ?? null;
    this.emailParams = emailParamsOf(r.emailParams);
    this.version = r.version;
    this.dueUs = r.dueUs;
  }

  get cursor(): string {
    return encodeCursor('sched', this.dueUs, this.notificationScheduleId);
  }
}

/** Processed (sent or failed) scheduled records, latest first: (scheduleDueAt desc, notificationScheduleId desc). */
export async function readScheduledList(em: EntityManager, q: ListQuery): Promise<ScheduledNotificationView[]> {
  return (await scheduledList.run(em, listParams(q))).map((r) => new ScheduledItem(r));
}

// --- node(id:): records of either list by id, with the lists' rule ---

/** The sent notifications of these ids that the caller may read in sentNotifications, in no order: one statement. */
export async function readSentByIds(em: EntityManager, userId: number, ids: readonly number[]): Promise<SentNotificationView[]> {
  return (await sentByIds.run(em, { ids: intArray(ids), userId })).map((r) => new SentItem(r));
}

/** The processed scheduled notifications of these ids the caller may read in sentScheduledNotifications, in no order: one statement. */
export async function readScheduledByIds(em: EntityManager, userId: number, ids: readonly number[]): Promise<ScheduledNotificationView[]> {
  return (await scheduledByIds.run(em, { ids: intArray(ids), userId })).map((r) => new ScheduledItem(r));
}
