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
import { Company } from '../company';
import { NotificationEmail, ScheduledNotification, SentNotification, type BroadcastType, type EmailParam } from './notification.entity';
import { fillPlaceholders, type Mailer } from './notification.mailer';
import { LIMITS } from './notification.limits';
import { truncate } from '../../core/text';
import { deliveredHere } from './inbox.live';
import type { InboxNotification } from './inbox.types';
import {
  companyRecipients,
  emailOutcome,
  eventRecipients,
  insertEmails,
  insertInboxItems,
  pendingEmails,
  teamRecipients,
} from './notification.queries';

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

/**
 * The users a notification reaches, by id: by push (their inbox) and by e-mail (its outbox; the
 * e-mail job reads each address and name when it sends).
 */
export interface Recipients {
  push: number[];
  email: number[];
}

export interface EmailOutcome {
  sent: number;
  failed: number;
  firstError: string | null;
}

/** Active users the notification targets, once each, minus opt-outs per channel: one statement. */
export async function findRecipients(em: EntityManager, spec: DeliverySpec): Promise<Recipients> {
  // Who the audience is: GE the event's invitees who have not declined, GT and GA the listed
  // teams' members (interpretRequest requires a team), JN every team member of the company.
  const { brochureId, companyId } = spec;
  const email = spec.email !== null;
  const rows =
    spec.type === 'GE'
      ? await eventRecipients.run(em, { brochureId, email, eventUUID: spec.eventUUID!, companyId })
      : spec.type === 'JN'
        ? await companyRecipients.run(em, { brochureId, email, companyId })
        : await teamRecipients.run(em, { brochureId, email, companyId, teamIds: spec.teamIds });
  const push: number[] = [];
  const mailed: number[] = [];
  for (const r of rows) {
    if (r.push) push.push(r.uId);
    if (r.mail) mailed.push(r.uId);
  }
  return { push, email: mailed };
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

export const EMAIL_QUEUE = 'notification-email';

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
    const userIds = recipients.push;
    await insertInboxItems.run(em, { notificationId: sent.notificationId, at: now, userIds });
    if (services) {
      deliveredHere(services.bus, inboxItem(sent, now), userIds);
      await services.hooks.emit('notificationDelivered', { em, services, notificationId: sent.notificationId, userIds });
    }
  }
  if (failure === null && spec.email && recipients.email.length) {
    if (!services) throw new Error('recordDelivery: an e-mail needs the services (their queue)');
    await insertEmails.run(em, { notificationId: sent.notificationId, userIds: recipients.email });
    await services.queue.send(em, EMAIL_QUEUE, { notificationId: sent.notificationId }, { key: String(sent.notificationId) });
  }
  return sent;
}

/** The item the inbox rows of `sent` hold, as the inbox reads it: unread, received at `at`. */
function inboxItem(sent: SentNotification, at: Date): InboxNotification {
  return {
    notificationId: sent.notificationId,
    type: sent.type,
    companyId: sent.company.companyId,
    eventUUID: sent.eventUUID ?? null,
    brochureId: sent.brochureId ?? null,
    message: sent.message,
    url: sent.url ?? null,
    read: false,
    received: at,
  };
}

/** A refusal the SMTP server means (5xx): retrying will not help. */
const permanent = (e: { responseCode?: number } | null | undefined) => (e?.responseCode ?? 0) >= 500;

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
  const rows = await pendingEmails.run(em, { notificationId });
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
  const outcome = await emailOutcome.run(em, { notificationId });
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
