// Delivery: who receives a notification, the inbox rows and the sent record (one transaction),
// then the e-mails. E-mails go out after the records are committed, so a notification is never
// e-mailed twice; a crash between commit and e-mail loses e-mails rather than duplicating them.
//
// Set-wise, whatever the audience's size: the recipients are one statement of plain rows (no User
// entities), the inbox rows one insert of them all, so a team of thirty takes the statements of a
// team of one. Through the unit of work a team of 30 cost about 20 ms of CPU (the users hydrated
// and the inbox entities compared at flush), and a team past MikroORM's batch of 300 an insert more
// per 300 members.
import type { Services } from '../../services';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../../logger';
import { runSql, tableOf } from '../../db/lean';
import { Company } from '../company';
import { Team, TeamMember } from '../team';
import { User } from '../user';
import { Event, EventAttendee } from '../event';
import {
  AssetLevelPreference,
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

export function successLog(pushed: number, email: EmailOutcome | null): string {
  const base = `delivered to ${pushed} user${pushed === 1 ? '' : 's'}`;
  if (!email) return `Success: ${base}`;
  if (!email.failed) return `Success: ${base}; ${email.sent} e-mail${email.sent === 1 ? '' : 's'} sent`;
  const total = email.sent + email.failed;
  return truncate(`Partial failure: ${base}; ${email.failed} of ${total} e-mails failed (${email.firstError})`, LIMITS.notificationLog);
}

let inboxSql: string | undefined;

/** The inbox rows of every push recipient in one insert; parameters: notification id, delivery time, the user ids. */
function inboxStatement(em: EntityManager): string {
  if (inboxSql) return inboxSql;
  const i = tableOf(em, NotificationInbox);
  return (inboxSql = `insert into ${i.table} (${i.column('notification')}, ${i.column('user')}, ${i.column('deliveredAt')})
  select ?::integer, u, ?::timestamptz from unnest(array[?]::integer[]) as u`);
}

/**
 * Writes the sent record and the inbox rows; run inside a transaction. A failure (the scheduler's
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
    // Completed with the e-mail outcome once the e-mails have gone (finishDelivery).
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
  return sent;
}

/** Sends one e-mail per recipient: their own fields (firstName, lastName) fill placeholders too. */
export async function sendEmails(mailer: Mailer, spec: DeliverySpec, users: Recipient[], logger?: Logger): Promise<EmailOutcome | null> {
  if (!spec.email || users.length === 0) return null;
  const common = Object.fromEntries(spec.email.params.map((p) => [p.key, p.value]));
  const outcome: EmailOutcome = { sent: 0, failed: 0, firstError: null };
  for (const user of users) {
    const vars = { ...common, firstName: user.firstName ?? '', lastName: user.lastName ?? '' };
    const body = fillPlaceholders(spec.message, vars) + (spec.url ? `\n\n${spec.url}` : '');
    try {
      await mailer.send({ to: user.email, subject: fillPlaceholders(spec.email.subject, vars), text: body, template: spec.email.template });
      outcome.sent++;
    } catch (err: unknown) {
      const e = err as { code?: string; responseCode?: number } | null | undefined;
      outcome.failed++;
      // The reason without the recipient's address: transport code and SMTP status only.
      outcome.firstError ??= [e?.code ?? 'EMAIL', e?.responseCode].filter(Boolean).join(' ');
      logger?.warn({ err: { code: e?.code, responseCode: e?.responseCode }, userId: user.uId }, 'notification e-mail failed');
    }
  }
  return outcome;
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
