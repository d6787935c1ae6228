// Reads of the sent lists (endpoints 16 and 17): a page (pageNum) or a keyset batch (after).
// The REST facade returns these lists whole by asking for batch after batch with the last
// record's cursor, all through one request's EntityManager. So each batch is one statement
// that an index answers in the list's order (see the list indexes on the entities), and the
// rows become plain views: nothing enters the identity map, however many records pass.
import type { EntityManager } from '@mikro-orm/core';
import { invalidParameter } from '../../graphql/errors';
import type { BroadcastType, EmailParam } from './notification.entity';
import type { ScheduledNotificationView, SentNotificationView } from './notification.types';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** Which list a cursor belongs to: its sort key is that list's. */
export type ListKind = 'sent' | 'sched';

/** A position in a list: the sort key of a record (its timestamp in microseconds since the epoch, as decimal text, and its id). */
export interface Keyset {
  us: string;
  id: number;
}

const MAX_ID = 2_147_483_647;
const CURSOR_TEXT = /^(sent|sched):(-?\d{1,16}):(\d{1,10})$/;

/**
 * The cursor of a record: base64url of `kind:microseconds:id`. Microseconds rather than
 * milliseconds, because rows written by SQL (`now()`) carry them and a key rounded to the
 * millisecond would repeat or skip records of the same millisecond.
 */
export function encodeCursor(kind: ListKind, us: string | bigint, id: number): string {
  return Buffer.from(`${kind}:${us}:${id}`, 'latin1').toString('base64url');
}

/** The cursor of a record whose timestamp is a JS Date (a record this process has just written). */
export function cursorOfDate(kind: ListKind, at: Date, id: number): string {
  return encodeCursor(kind, BigInt(at.getTime()) * 1000n, id);
}

/** The keyset of a cursor of this list; anything else (another list's cursor included) is WSInvalidParameterException naming `after`. */
export function decodeCursor(kind: ListKind, value: string): Keyset {
  const malformed = () => invalidParameter('after', 'after is not a cursor of this list.');
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(value)) throw malformed();
  const m = CURSOR_TEXT.exec(Buffer.from(value, 'base64url').toString('latin1'));
  if (!m || m[1] !== kind) throw malformed();
  const us = BigInt(m[2]).toString();
  const id = Number(m[3]);
  // Only the canonical spelling is a cursor (no leading zeros, no stray base64 bits).
  if (id < 1 || id > MAX_ID || encodeCursor(kind, us, id) !== value) throw malformed();
  return { us, id };
}

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
}

/** The instant of a keyset, exact to the microsecond (a stable expression: evaluated once, an index bound). */
const KEY_INSTANT = `timestamptz 'epoch' + ?::bigint * interval '1 microsecond'`;
/** A timestamp column as the microseconds of a keyset (extract gives an exact numeric). */
const keyOf = (column: string) => `(extract(epoch from ${column}) * 1000000)::bigint::text`;

/** The optional filters and the keyset bound, as ` and ...` conditions with their parameters. */
function filters(q: ListQuery, eventColumn: string, key: [instant: string, id: string]) {
  const conditions: [string, ...unknown[]][] = [];
  if (q.eventUUID) conditions.push([`${eventColumn} = ?`, q.eventUUID]);
  if (q.notificationScheduleId) conditions.push(['"notification_schedule_id" = ?', q.notificationScheduleId]);
  if (q.brochureId) conditions.push(['"brochure_id" = ?', q.brochureId]);
  if (q.after) conditions.push([`(${key[0]}, ${key[1]}) < (${KEY_INSTANT}, ?)`, q.after.us, q.after.id]);
  return { where: conditions.map(([sql]) => ` and ${sql}`).join(''), params: conditions.flatMap(([, ...values]) => values) };
}

/** Parameters of a statement: scope, filters, then the page. */
const paramsOf = (q: ListQuery, filtered: unknown[]) => [q.companyId, q.type, ...filtered, q.limit, ...(q.offset > 0 ? [q.offset] : [])];

/** Timestamps as the driver answers them: a Date, or text that platform.parseDate reads. */
type DbTimestamp = Date | string;

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
  notification_created: DbTimestamp;
  notification_modified: DbTimestamp;
  notification_created_by: string;
  notification_modified_by: string;
  brochure_id: number | null;
  email_template: string | null;
  email_subject: string | null;
  email_params: EmailParam[] | null;
  key_us: string;
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
  schedule_due_at: DbTimestamp;
  status: string;
  schedule_job_name: string | null;
  message: string;
  url: string | null;
  value_ids: string[];
  total_notifications_sent: number | null;
  notification_log: string | null;
  schedule_created: DbTimestamp;
  schedule_modified: DbTimestamp;
  schedule_created_by: string;
  schedule_modified_by: string;
  brochure_id: number | null;
  email_template: string | null;
  email_subject: string | null;
  email_params: EmailParam[] | null;
  version: number;
  key_us: string;
}

async function run<R>(em: EntityManager, sql: string, params: unknown[]): Promise<R[]> {
  return em.getConnection().execute<R[]>(sql, params, 'all', em.getTransactionContext());
}

function dates(em: EntityManager) {
  const platform = em.getPlatform();
  return (v: unknown): Date => (v instanceof Date ? v : platform.parseDate(v as string));
}

const emailParamsOf = (p: EmailParam[] | null) => (p ? p.map((x) => ({ key: x.key, value: x.value })) : null);

/** The one statement of a sent-list page or batch, and its parameters. */
export function sentListStatement(q: ListQuery): { sql: string; params: unknown[] } {
  const f = filters(q, '"event_uuid"', ['"notification_created"', '"notification_id"']);
  const sql = `select "notification_id", "type", "company_id", "event_uuid", "notification_schedule_id", "message", "description", "url",
  "successful", "total_notifications_sent", "team_ids", "notification_created", "notification_modified", "notification_created_by",
  "notification_modified_by", "brochure_id", "email_template", "email_subject", "email_params", ${keyOf('"notification_created"')} as "key_us"
from "sent_notification"
where "company_id" = ? and "type" = ?${f.where}
order by "notification_created" desc, "notification_id" desc
limit ?${q.offset > 0 ? ' offset ?' : ''}`;
  return { sql, params: paramsOf(q, f.params) };
}

/** Sent notifications (ad hoc and scheduled), newest first: (notificationCreated desc, notificationId desc). */
export async function readSentList(em: EntityManager, q: ListQuery): Promise<SentNotificationView[]> {
  const { sql, params } = sentListStatement(q);
  const rows = await run<SentRow>(em, sql, params);
  const date = dates(em);
  return rows.map((r) => ({
    notificationId: r.notification_id,
    type: r.type,
    companyId: r.company_id,
    eventUUID: r.event_uuid ?? null,
    notificationScheduleId: r.notification_schedule_id ?? null,
    message: r.message,
    description: r.description ?? null,
    url: r.url ?? null,
    successful: r.successful,
    totalNotificationsSent: r.total_notifications_sent,
    teamIds: r.team_ids ?? null,
    notificationCreated: date(r.notification_created),
    notificationModified: date(r.notification_modified),
    notificationCreatedBy: r.notification_created_by,
    notificationModifiedBy: r.notification_modified_by,
    brochureId: r.brochure_id ?? null,
    emailTemplate: r.email_template ?? null,
    emailSubject: r.email_subject ?? null,
    emailParams: emailParamsOf(r.email_params),
    cursor: encodeCursor('sent', r.key_us, r.notification_id),
  }));
}

/** The one statement of a scheduled-list page or batch, and its parameters. */
export function scheduledListStatement(q: ListQuery): { sql: string; params: unknown[] } {
  const f = filters(q, '"key_event_uuid"', ['"schedule_due_at"', '"notification_schedule_id"']);
  const sql = `select "notification_schedule_id", "company_id", "broadcast_type", "key_company_id", "key_event_uuid", "schedule_timezone_id",
  "schedule_local_date_time", "schedule_due_at", "status", "schedule_job_name", "message", "url", "value_ids", "total_notifications_sent",
  "notification_log", "schedule_created", "schedule_modified", "schedule_created_by", "schedule_modified_by", "brochure_id",
  "email_template", "email_subject", "email_params", "version", ${keyOf('"schedule_due_at"')} as "key_us"
from "scheduled_notification"
where "company_id" = ? and "broadcast_type" = ? and "status" in ('SENT', 'FAILED')${f.where}
order by "schedule_due_at" desc, "notification_schedule_id" desc
limit ?${q.offset > 0 ? ' offset ?' : ''}`;
  return { sql, params: paramsOf(q, f.params) };
}

/** Processed (sent or failed) scheduled records, latest first: (scheduleDueAt desc, notificationScheduleId desc). */
export async function readScheduledList(em: EntityManager, q: ListQuery): Promise<ScheduledNotificationView[]> {
  const { sql, params } = scheduledListStatement(q);
  const rows = await run<ScheduledRow>(em, sql, params);
  const date = dates(em);
  return rows.map((r) => ({
    notificationScheduleId: r.notification_schedule_id,
    companyId: r.company_id,
    broadcastType: r.broadcast_type,
    keyCompanyId: r.key_company_id ?? null,
    keyEventUUID: r.key_event_uuid ?? null,
    scheduleTimezoneId: r.schedule_timezone_id,
    // PostgreSQL answers `YYYY-MM-DD HH:mm:ss`; the wire form has the ISO `T`.
    scheduleLocalDateTime: String(r.schedule_local_date_time).replace(' ', 'T'),
    scheduleUTCDateTime: date(r.schedule_due_at),
    scheduleStatus: r.status,
    scheduleJobName: r.schedule_job_name ?? null,
    message: r.message,
    url: r.url ?? null,
    valueIds: r.value_ids,
    totalNotificationsSent: r.total_notifications_sent ?? null,
    notificationLog: r.notification_log ?? null,
    scheduleCreated: date(r.schedule_created),
    scheduleModified: date(r.schedule_modified),
    scheduleCreatedBy: r.schedule_created_by,
    scheduleModifiedBy: r.schedule_modified_by,
    brochureId: r.brochure_id ?? null,
    emailTemplate: r.email_template ?? null,
    emailSubject: r.email_subject ?? null,
    emailParams: emailParamsOf(r.email_params),
    version: r.version,
    cursor: encodeCursor('sched', r.key_us, r.notification_schedule_id),
  }));
}
