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
import { intArray, runSql, tableOf } from '../../db/lean';
import { CompanyRole } from '../company';
import { Event, NOTIFICATION_MANAGER_ROLES } from '../event';
import type { BroadcastType, EmailParam } from './notification.entity';
import type { ScheduledNotificationView, SentNotificationView } from './notification.types';

import { encodeCursor, type Keyset, type ListKind } from './notification.cursor';

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

let readerCheck: string | undefined;

/** `exists (the caller holds a reader role on the company)`, written once from CompanyRole's metadata; parameters: user id, company id. */
function readerCondition(em: EntityManager): string {
  if (readerCheck) return readerCheck;
  const r = tableOf(em, CompanyRole);
  const roles = NOTIFICATION_MANAGER_ROLES.map((role) => `'${role}'`).join(', ');
  return (readerCheck = `exists (select 1 from ${r.table} where ${r.column('user')} = ? and ${r.column('company')} = ? and ${r.column('role')} in (${roles}))`);
}

/** The instant of a keyset, exact to the microsecond (a stable expression: evaluated once, an index bound). */
const KEY_INSTANT = `timestamptz 'epoch' + ?::bigint * interval '1 microsecond'`;

/** The caller's roles, the optional filters and the keyset bound, as ` and ...` conditions with their parameters. */
function filters(em: EntityManager, q: ListQuery, eventColumn: string, key: [instant: string, id: string]) {
  const conditions: [string, ...unknown[]][] = [];
  if (q.managerId !== null) conditions.push([readerCondition(em), q.managerId, q.companyId]);
  if (q.eventUUID) conditions.push([`${eventColumn} = ?`, q.eventUUID]);
  if (q.notificationScheduleId) conditions.push(['"notification_schedule_id" = ?', q.notificationScheduleId]);
  if (q.brochureId) conditions.push(['"brochure_id" = ?', q.brochureId]);
  if (q.after) conditions.push([`(${key[0]}, ${key[1]}) < (${KEY_INSTANT}, ?)`, q.after.us, q.after.id]);
  return { where: conditions.map(([sql]) => ` and ${sql}`).join(''), params: conditions.flatMap(([, ...values]) => values) };
}

/** Parameters of a statement: scope, filters, then the page. */
const paramsOf = (q: ListQuery, filtered: unknown[]) => [q.companyId, q.type, ...filtered, q.limit, ...(q.offset > 0 ? [q.offset] : [])];

/**
 * A timestamp column as its microseconds since the epoch, as decimal text (the cursor's key). The
 * lists read every timestamp this way rather than as timestamptz text: a JS Date from it is one
 * division, where parsing the text took about 0.6 microseconds a value (0.06 ms of CPU for the two
 * timestamps of a 50-record page, measured alone).
 */
const microsOf = (column: string) => `(extract(epoch from ${column}) * 1000000)::bigint::text`;

/**
 * The Date of a microsecond key: its millisecond floored, as the driver's own parser (postgres-date)
 * does. Exact: the microseconds of any year from 1685 to 2255 are a safe integer, and dividing one by
 * 1000 cannot cross the next whole millisecond.
 */
const dateOfMicros = (us: string) => new Date(Math.floor(Number(us) / 1000));

/** A row of sentListStatement. */
interface SentRow {
  notification_id: number;
  type: string;
  company_id: number;
  event_uuid: string | null;
  notification_schedule_id: number | null;
  message: string;
  description: string | null;
  url: string | null;
  successful: boolean;
  total_notifications_sent: number;
  team_ids: string[] | null;
  created_us: string;
  modified_us: string;
  notification_created_by: string;
  notification_modified_by: string;
  brochure_id: number | null;
  email_template: string | null;
  email_subject: string | null;
  email_params: EmailParam[] | null;
}

/** A row of scheduledListStatement. */
interface ScheduledRow {
  notification_schedule_id: number;
  company_id: number;
  broadcast_type: string;
  key_company_id: number | null;
  key_event_uuid: string | null;
  schedule_timezone_id: string;
  schedule_local_date_time: string;
  due_us: string;
  status: string;
  schedule_job_name: string | null;
  message: string;
  url: string | null;
  value_ids: string[];
  total_notifications_sent: number | null;
  notification_log: string | null;
  created_us: string;
  modified_us: string;
  schedule_created_by: string;
  schedule_modified_by: string;
  brochure_id: number | null;
  email_template: string | null;
  email_subject: string | null;
  email_params: EmailParam[] | null;
  version: number;
}

const emailParamsOf = (p: EmailParam[] | null) => (p ? p.map((x) => ({ key: x.key, value: x.value })) : null);

/** What every read of sent notifications selects (a SentRow), from the table. */
const SENT_SELECT = `select "notification_id", "type", "company_id", "event_uuid", "notification_schedule_id", "message", "description", "url",
  "successful", "total_notifications_sent", "team_ids", ${microsOf('"notification_created"')} as "created_us",
  ${microsOf('"notification_modified"')} as "modified_us", "notification_created_by", "notification_modified_by", "brochure_id",
  "email_template", "email_subject", "email_params"
from "sent_notification"`;

/** The one statement of a sent-list page or batch, and its parameters. */
export function sentListStatement(em: EntityManager, q: ListQuery): { sql: string; params: unknown[] } {
  const f = filters(em, q, '"event_uuid"', ['"notification_created"', '"notification_id"']);
  const sql = `${SENT_SELECT}
where "company_id" = ? and "type" = ?${f.where}
order by "notification_created" desc, "notification_id" desc
limit ?${q.offset > 0 ? ' offset ?' : ''}`;
  return { sql, params: paramsOf(q, f.params) };
}

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
    this.notificationId = r.notification_id;
    this.type = r.type;
    this.companyId = r.company_id;
    this.eventUUID = r.event_uuid ?? null;
    this.notificationScheduleId = r.notification_schedule_id ?? null;
    this.message = r.message;
    this.description = r.description ?? null;
    this.url = r.url ?? null;
    this.successful = r.successful;
    this.totalNotificationsSent = r.total_notifications_sent;
    this.teamIds = r.team_ids ?? null;
    this.notificationCreated = dateOfMicros(r.created_us);
    this.notificationModified = dateOfMicros(r.modified_us);
    this.notificationCreatedBy = r.notification_created_by;
    this.notificationModifiedBy = r.notification_modified_by;
    this.brochureId = r.brochure_id ?? null;
    this.emailTemplate = r.email_template ?? null;
    this.emailSubject = r.email_subject ?? null;
    this.emailParams = emailParamsOf(r.email_params);
    this.createdUs = r.created_us;
  }

  get cursor(): string {
    return encodeCursor('sent', this.createdUs, this.notificationId);
  }
}

/** Sent notifications (ad hoc and scheduled), newest first: (notificationCreated desc, notificationId desc). */
export async function readSentList(em: EntityManager, q: ListQuery): Promise<SentNotificationView[]> {
  const { sql, params } = sentListStatement(em, q);
  const rows = await runSql<SentRow>(em, sql, params);
  return rows.map((r) => new SentItem(r));
}

/** What every read of scheduled notifications selects (a ScheduledRow), from the table. */
const SCHEDULED_SELECT = `select "notification_schedule_id", "company_id", "broadcast_type", "key_company_id", "key_event_uuid", "schedule_timezone_id",
  "schedule_local_date_time", ${microsOf('"schedule_due_at"')} as "due_us", "status", "schedule_job_name", "message", "url", "value_ids",
  "total_notifications_sent", "notification_log", ${microsOf('"schedule_created"')} as "created_us", ${microsOf('"schedule_modified"')} as "modified_us",
  "schedule_created_by", "schedule_modified_by", "brochure_id", "email_template", "email_subject", "email_params", "version"
from "scheduled_notification"`;

/** The one statement of a scheduled-list page or batch, and its parameters. */
export function scheduledListStatement(em: EntityManager, q: ListQuery): { sql: string; params: unknown[] } {
  const f = filters(em, q, '"key_event_uuid"', ['"schedule_due_at"', '"notification_schedule_id"']);
  const sql = `${SCHEDULED_SELECT}
where "company_id" = ? and "broadcast_type" = ? and "status" in ('SENT', 'FAILED')${f.where}
order by "schedule_due_at" desc, "notification_schedule_id" desc
limit ?${q.offset > 0 ? ' offset ?' : ''}`;
  return { sql, params: paramsOf(q, f.params) };
}

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
    this.notificationScheduleId = r.notification_schedule_id;
    this.companyId = r.company_id;
    this.broadcastType = r.broadcast_type;
    this.keyCompanyId = r.key_company_id ?? null;
    this.keyEventUUID = r.key_event_uuid ?? null;
    this.scheduleTimezoneId = r.schedule_timezone_id;
    // PostgreSQL answers `YYYY-MM-DD HH:mm:ss`; the wire form has the ISO `T`.
    this.scheduleLocalDateTime = String(r.schedule_local_date_time).replace(' ', 'T');
    this.scheduleUTCDateTime = dateOfMicros(r.due_us);
    this.scheduleStatus = r.status;
    this.scheduleJobName = r.schedule_job_name ?? null;
    this.message = r.message;
    this.url = r.url ?? null;
    this.valueIds = r.value_ids;
    this.totalNotificationsSent = r.total_notifications_sent ?? null;
    this.notificationLog = r.notification_log ?? null;
    this.scheduleCreated = dateOfMicros(r.created_us);
    this.scheduleModified = dateOfMicros(r.modified_us);
    this.scheduleCreatedBy = r.schedule_created_by;
    this.scheduleModifiedBy = r.schedule_modified_by;
    this.brochureId = r.brochure_id ?? null;
    this.emailTemplate = r.email_template ?? null;
    this.emailSubject = r.email_subject ?? null;
    this.emailParams = emailParamsOf(r.email_params);
    this.version = r.version;
    this.dueUs = r.due_us;
  }

  get cursor(): string {
    return encodeCursor('sched', this.dueUs, this.notificationScheduleId);
  }
}

/** Processed (sent or failed) scheduled records, latest first: (scheduleDueAt desc, notificationScheduleId desc). */
export async function readScheduledList(em: EntityManager, q: ListQuery): Promise<ScheduledNotificationView[]> {
  const { sql, params } = scheduledListStatement(em, q);
  const rows = await runSql<ScheduledRow>(em, sql, params);
  return rows.map((r) => new ScheduledItem(r));
}

// --- node(id:): records of either list by id, with the lists' rule ---

let byIdRules: { sent: string; sched: string } | undefined;

/**
 * The conditions a record must meet for the caller to find it in its list (listQuery): they manage
 * the notifications of the record's company (ADMIN or PUSH_NOTIFICATION), and an event's record
 * (GE) is of an event of that company that is not cancelled (WSEventCancelledException in the
 * list). Parameter: the caller's id. Written once from the entities' metadata.
 */
function byIdRule(em: EntityManager, kind: ListKind): string {
  if (!byIdRules) {
    const r = tableOf(em, CompanyRole);
    const e = tableOf(em, Event);
    const roles = NOTIFICATION_MANAGER_ROLES.map((role) => `'${role}'`).join(', ');
    const rule = (type: string, company: string, event: string) =>
      `exists (select 1 from ${r.table} r where r.${r.column('user')} = ? and r.${r.column('company')} = ${company} ` +
      `and r.${r.column('role')} in (${roles})) and (${type} <> 'GE' or exists (select 1 from ${e.table} e ` +
      `where e.${e.column('eventUUID')} = ${event} and e.${e.column('company')} = ${company} and e.${e.column('status')} <> 'C'))`;
    // Every column of the record qualified: the role and event tables have columns of the same names.
    const [n, s] = ['"sent_notification"', '"scheduled_notification"'];
    byIdRules = {
      sent: rule(`${n}."type"`, `${n}."company_id"`, `${n}."event_uuid"`),
      sched: `${s}."status" in ('SENT', 'FAILED') and ${rule(`${s}."broadcast_type"`, `${s}."company_id"`, `${s}."key_event_uuid"`)}`,
    };
  }
  return byIdRules[kind];
}

/** The sent notifications of these ids that the caller may read in sentNotifications, in no order: one statement. */
export async function readSentByIds(em: EntityManager, userId: number, ids: readonly number[]): Promise<SentNotificationView[]> {
  const sql = `${SENT_SELECT}\nwhere "sent_notification"."notification_id" = any(?::int[]) and ${byIdRule(em, 'sent')}`;
  return (await runSql<SentRow>(em, sql, [intArray(ids), userId])).map((r) => new SentItem(r));
}

/** The processed scheduled notifications of these ids the caller may read in sentScheduledNotifications, in no order: one statement. */
export async function readScheduledByIds(em: EntityManager, userId: number, ids: readonly number[]): Promise<ScheduledNotificationView[]> {
  const sql = `${SCHEDULED_SELECT}\nwhere "scheduled_notification"."notification_schedule_id" = any(?::int[]) and ${byIdRule(em, 'sched')}`;
  return (await runSql<ScheduledRow>(em, sql, [intArray(ids), userId])).map((r) => new ScheduledItem(r));
}
