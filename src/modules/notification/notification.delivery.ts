// Delivery: who receives a notification, the inbox rows, the sent record and the e-mail outbox (one
// transaction). The e-mails are rows of notification_email and one job on the queue
// ('notification-email', keyed by the notification), written in that transaction: a crash after the
// commit delays them, never loses them. The job sends each PENDING row and marks it SENT (or
// FAILED), then completes the sent record's log with the e-mail outcome.
//
// Set-wise, whatever the audience's size: the recipients are one statement of plain rows (no User
// entities), the inbox rows one insert of them all, so a team of thirty takes the statements of a
// team of one. Through the unit of work a team of 30 cost about 20 ms of CPU (the users hydrated
// and the inbox entities compared at flush), and a team past MikroORM's batch of 300 an insert more
// per 300 members.
import type { Services } from '../../services';
import type { EntityManager } from '@mikro-orm/core';
import type { JobAttempt } from '../../core/module';
import type { Logger } from '../../logger';
import { runSql, tableOf } from '../../db/lean';
import { Company } from '../company';
import { Team, TeamMember } from '../team';
import { User } from '../user';
import { Event, EventAttendee } from '../event';
import {
  AssetLevelPreference,
  NotificationEmail,
  NotificationInbox,
  ScheduledNotification,
  SentNotification,
  type BroadcastType,
  type EmailParam,
} from './notification.entity';
import { fillPlaceholders, type Mailer } from './notification.mailer';
import { LIMITS } from './notification.limits';
import { truncate } from '../../core/text';

export interface DeliverySpec {
  type: BroadcastType;
  companyId: number;
  eventUUID: string | null;
  brochureId: number | null;
  /** Team ids for GT and GA. */
  teamIds: number[];
  message: string;
  url: string | null;
  email: { template: string; subject: string; params: EmailParam[] } | null;
  /** The scheduled record being delivered; null for an ad hoc send. */
  schedule: ScheduledNotification | null;
  /** User id recorded as creator. */
  createdBy: string;
}

/** A user a notification reaches: their id, and what an e-mail to them is addressed and filled with. */
export interface Recipient {
  uId: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export interface Recipients {
  push: Recipient[];
  email: Recipient[];
}

export interface EmailOutcome {
  sent: number;
  failed: number;
  firstError: string | null;
}

/**
 * Who an audience is: GE the event's invitees who have not declined, GT and GA the listed teams'
 * members, JN every team member of the company.
 */
type Audience = 'event' | 'teams' | 'company';

const audienceOf = (type: BroadcastType): Audience => (type === 'GE' ? 'event' : type === 'JN' ? 'company' : 'teams');

/** One statement text per audience, written once from the entities' metadata. */
const recipientSql = new Map<Audience, string>();

/**
 * Active users of the audience, once each, in user id order, with whether a push reaches them
 * (notifications on, no ALP-NUN for the asset) and an e-mail may (no ALP-EUN). Parameters: the
 * brochure id twice (null matches no preference), then the audience's: event UUID and company,
 * company and team ids, or company.
 */
function recipientStatement(em: EntityManager, audience: Audience): string {
  const cached = recipientSql.get(audience);
  if (cached) return cached;
  const u = tableOf(em, User);
  const p = tableOf(em, AssetLevelPreference);
  const optedOut = (code: string) =>
    `exists (select 1 from ${p.table} p where p.${p.column('user')} = u.${u.column('uId')} and p.${p.column('brochureId')} = ? and p.${p.column('code')} = '${code}')`;
  let member: string;
  if (audience === 'event') {
    const a = tableOf(em, EventAttendee);
    const e = tableOf(em, Event);
    member = `select 1 from ${a.table} a join ${e.table} e on e.${e.column('eId')} = a.${a.column('event')}
      where a.${a.column('user')} = u.${u.column('uId')} and e.${e.column('eventUUID')} = ? and e.${e.column('company')} = ? and a.${a.column('inviteStatus')} <> 'D'`;
  } else {
    const m = tableOf(em, TeamMember);
    const t = tableOf(em, Team);
    member = `select 1 from ${m.table} m join ${t.table} t on t.${t.column('teamId')} = m.${m.column('team')}
      where m.${m.column('user')} = u.${u.column('uId')} and t.${t.column('company')} = ?${audience === 'teams' ? ` and t.${t.column('teamId')} in (?)` : ''}`;
  }
  const sql = `select u.${u.column('uId')} as "uId", u.${u.column('email')} as "email", u.${u.column('firstName')} as "firstName",
    u.${u.column('lastName')} as "lastName", u.${u.column('enableNotifications')} and not ${optedOut('ALP-NUN')} as "push", not ${optedOut('ALP-EUN')} as "mail"
  from ${u.table} u
  where u.${u.column('active')} and exists (${member})
  order by u.${u.column('uId')}`;
  recipientSql.set(audience, sql);
  return sql;
}

interface RecipientRow extends Recipient {
  push: boolean;
  mail: boolean;
}

/** Active users the notification targets, once each, minus opt-outs per channel: one statement. */
export async function findRecipients(em: EntityManager, spec: DeliverySpec): Promise<Recipients> {
  const audience = audienceOf(spec.type);
  // GT and GA always list teams (interpretRequest requires one).
  const scope =
    audience === 'event' ? [spec.eventUUID, spec.companyId] : audience === 'teams' ? [spec.companyId, spec.teamIds] : [spec.companyId];
  const rows = await runSql<RecipientRow>(em, recipientStatement(em, audience), [spec.brochureId, spec.brochureId, ...scope]);
  const recipient = (r: RecipientRow): Recipient => ({ uId: r.uId, email: r.email, firstName: r.firstName, lastName: r.lastName });
  return {
    push: rows.filter((r) => r.push).map(recipient),
    email: spec.email ? rows.filter((r) => r.mail && r.email).map(recipient) : [],
  };
}

function description(spec: DeliverySpec): string {
  // The spec's rule: ad hoc notifications keep their team ids in the description.
  const teams = !spec.schedule && spec.teamIds.length ? `\nTeam ids: ${spec.teamIds.join(', ')}` : '';
  return truncate(spec.message + teams, LIMITS.description);
}

/**
 * notificationLog as the specification words it: `Success` when processing succeeded, else the
 * error text (the counts are fields of their own: totalNotificationsSent).
 */
export function successLog(pushed: number, email: EmailOutcome | null): string {
  if (!email?.failed) return 'Success';
  const total = email.sent + email.failed;
  return truncate(
    `Partial failure: delivered to ${pushed} user${pushed === 1 ? '' : 's'}; ${email.failed} of ${total} e-mails failed (${email.firstError})`,
    LIMITS.notificationLog,
  );
}

let inboxSql: string | undefined;

/** The inbox rows of every push recipient in one insert; parameters: notification id, delivery time, the user ids. */
function inboxStatement(em: EntityManager): string {
  if (inboxSql) return inboxSql;
  const i = tableOf(em, NotificationInbox);
  return (inboxSql = `insert into ${i.table} (${i.column('notification')}, ${i.column('user')}, ${i.column('deliveredAt')})
  select ?::integer, u, ?::timestamptz from unnest(array[?]::integer[]) as u`);
}

export const EMAIL_QUEUE = 'notification-email';

let emailSql: string | undefined;

/** The e-mail outbox rows of every e-mail recipient in one insert; parameters: notification id, the user ids. */
function emailStatement(em: EntityManager): string {
  if (emailSql) return emailSql;
  const e = tableOf(em, NotificationEmail);
  return (emailSql = `insert into ${e.table} (${e.column('notification')}, ${e.column('user')})
  select ?::integer, u from unnest(array[?]::integer[]) as u`);
}

/**
 * Writes the sent record, the inbox rows and the e-mail outbox (its rows and its job); run inside
 * a transaction. A failure (the scheduler's
 * reason it could not deliver) is recorded as the unsuccessful record's log.
 */
export async function recordDelivery(
  em: EntityManager,
  spec: DeliverySpec,
  recipients: Recipients,
  now: Date,
  failure: string | null = null,
  services?: Services,
): Promise<SentNotification> {
  const scheduled = spec.schedule !== null;
  const sent = em.create(SentNotification, {
    type: spec.type,
    company: em.getReference(Company, spec.companyId),
    eventUUID: spec.eventUUID,
    schedule: spec.schedule,
    message: truncate(spec.message, LIMITS.sentMessage),
    description: description(spec),
    url: spec.url,
    successful: failure === null,
    totalNotificationsSent: recipients.push.length,
    teamIds: scheduled && spec.teamIds.length ? spec.teamIds.map(String) : null,
    // Completed with the e-mail outcome by the e-mail job once the e-mails have gone (finishDelivery).
    notificationLog: failure ?? successLog(recipients.push.length, null),
    notificationCreated: now,
    notificationModified: now,
    notificationCreatedBy: spec.createdBy,
    notificationModifiedBy: spec.createdBy,
    brochureId: spec.brochureId,
    emailTemplate: spec.email?.template ?? null,
    emailSubject: spec.email?.subject ?? null,
    emailParams: spec.email?.params ?? null,
  });
  await em.flush();
  if (recipients.push.length) {
    const userIds = recipients.push.map((r) => r.uId);
    await runSql(em, inboxStatement(em), [sent.notificationId, now, userIds]);
    await services?.hooks.emit('notificationDelivered', { em, services, notificationId: sent.notificationId, userIds });
  }
  if (failure === null && spec.email && recipients.email.length) {
    if (!services) throw new Error('recordDelivery: an e-mail needs the services (their queue)');
    await runSql(em, emailStatement(em), [sent.notificationId, recipients.email.map((r) => r.uId)]);
    await services.queue.send(em, EMAIL_QUEUE, { notificationId: sent.notificationId }, { key: String(sent.notificationId) });
  }
  return sent;
}

/** A refusal the SMTP server means (5xx): retrying will not help. */
const permanent = (e: { responseCode?: number } | null | undefined) => (e?.responseCode ?? 0) >= 500;

interface EmailRow {
  uId: number;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

/**
 * The e-mail job of one notification: sends each PENDING e-mail (the recipient's own fields fill
 * placeholders too) and marks it SENT once the SMTP server has accepted it, or FAILED when the
 * server refuses it for good (5xx) or on the job's last attempt. A transient failure leaves the row
 * PENDING and throws, so the queue retries the job with backoff; the rows already SENT are not sent
 * again. Once no row is PENDING, the sent record's log gets the outcome.
 */
export async function sendNotificationEmails(
  root: EntityManager,
  notificationId: number,
  deps: { mailer: Mailer; logger?: Logger; now: () => Date },
  attempt: JobAttempt = { retryCount: 0, retryLimit: 1 },
): Promise<void> {
  const em = root.fork();
  const sent = await em.findOne(SentNotification, { notificationId }, { populate: ['schedule'] });
  if (!sent?.emailTemplate) return;
  const e = tableOf(em, NotificationEmail);
  const u = tableOf(em, User);
  const rows = await runSql<EmailRow>(
    em,
    `select u.${u.column('uId')} as "uId", u.${u.column('email')} as "email", u.${u.column('firstName')} as "firstName", u.${u.column('lastName')} as "lastName"
       from ${e.table} e join ${u.table} u on u.${u.column('uId')} = e.${e.column('user')}
      where e.${e.column('notification')} = ? and e.${e.column('status')} = 'PENDING' order by u.${u.column('uId')}`,
    [notificationId],
  );
  const params = sent.emailParams ?? [];
  const common = Object.fromEntries(params.map((p) => [p.key, p.value]));
  const last = attempt.retryCount >= attempt.retryLimit;
  let transient: Error | null = null;
  const mark = (uId: number, status: 'SENT' | 'FAILED', error: string | null) =>
    em.nativeUpdate(
      NotificationEmail,
      { notification: notificationId, user: uId },
      { status, error, sentAt: status === 'SENT' ? deps.now() : null },
    );
  for (const user of rows) {
    const vars = { ...common, firstName: user.firstName ?? '', lastName: user.lastName ?? '' };
    const body = fillPlaceholders(sent.message, vars) + (sent.url ? `\n\n${sent.url}` : '');
    try {
      await deps.mailer.send({
        to: user.email,
        subject: fillPlaceholders(sent.emailSubject ?? '', vars),
        text: body,
        template: sent.emailTemplate,
        // The same id on a resend: a receiving system that keeps ids can drop the duplicate.
        messageId: `<notification-${notificationId}-${user.uId}@pronet>`,
      });
      await mark(user.uId, 'SENT', null);
    } catch (err: unknown) {
      const x = err as { code?: string; responseCode?: number } | null | undefined;
      // The reason without the recipient's address: transport code and SMTP status only.
      const reason = [x?.code ?? 'EMAIL', x?.responseCode].filter(Boolean).join(' ');
      deps.logger?.warn(
        { err: { code: x?.code, responseCode: x?.responseCode }, userId: user.uId, notificationId },
        'notification e-mail failed',
      );
      if (permanent(x) || last) await mark(user.uId, 'FAILED', truncate(reason, 100));
      else transient ??= err instanceof Error ? err : new Error(reason);
    }
  }
  if (transient) throw transient;
  const outcome = await runSql<{ sent: number; failed: number; firstError: string | null }>(
    em,
    `select count(*) filter (where ${e.column('status')} = 'SENT')::int as "sent", count(*) filter (where ${e.column('status')} = 'FAILED')::int as "failed",
            (array_agg(${e.column('error')} order by ${e.column('user')}) filter (where ${e.column('error')} is not null))[1] as "firstError"
       from ${e.table} where ${e.column('notification')} = ?`,
    [notificationId],
  );
  await finishDelivery(em, sent, outcome[0], deps.now());
}

/** Records the e-mail outcome on the sent record (and its scheduled record). */
export async function finishDelivery(em: EntityManager, sent: SentNotification, email: EmailOutcome | null, now: Date): Promise<void> {
  if (!email) return;
  const log = successLog(sent.totalNotificationsSent, email);
  const successful = email.failed === 0;
  await em.nativeUpdate(
    SentNotification,
    { notificationId: sent.notificationId },
    { notificationLog: log, successful, notificationModified: now },
  );
  Object.assign(sent, { notificationLog: log, successful, notificationModified: now });
  const schedule = sent.schedule;
  if (schedule) {
    await em.nativeUpdate(
      ScheduledNotification,
      { notificationScheduleId: schedule.notificationScheduleId },
      { notificationLog: log, scheduleModified: now },
    );
  }
}
