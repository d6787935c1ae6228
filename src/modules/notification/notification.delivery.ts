// Delivery: who receives a notification, the inbox rows and the sent record (one transaction),
// then the e-mails. E-mails go out after the records are committed, so a notification is never
// e-mailed twice; a crash between commit and e-mail loses e-mails rather than duplicating them.
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../../logger';
import { Company } from '../company';
import { TeamMember } from '../team';
import type { User } from '../user';
import { EventAttendee } from '../event';
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

export interface Recipients {
  push: User[];
  email: User[];
}

export interface EmailOutcome {
  sent: number;
  failed: number;
  firstError: string | null;
}

/** Active users the notification targets, once each, minus opt-outs per channel. */
export async function findRecipients(em: EntityManager, spec: DeliverySpec): Promise<Recipients> {
  let users: User[];
  if (spec.type === 'GE') {
    const invites = await em.find(
      EventAttendee,
      { event: { eventUUID: spec.eventUUID!, company: spec.companyId }, inviteStatus: { $ne: 'D' }, user: { active: true } },
      { populate: ['user'], orderBy: { user: { uId: 'asc' } } },
    );
    users = invites.map((i) => i.user as User);
  } else {
    // GT and GA reach the members of the listed teams; JN every team member of the company.
    const team = spec.type === 'JN' ? { company: spec.companyId } : { company: spec.companyId, teamId: { $in: spec.teamIds } };
    const members = await em.find(TeamMember, { team, user: { active: true } }, { populate: ['user'], orderBy: { user: { uId: 'asc' } } });
    users = members.map((m) => m.user as User);
  }
  const unique = [...new Map(users.map((u) => [u.uId, u])).values()];
  const noPush = new Set<number>();
  const noEmail = new Set<number>();
  if (spec.brochureId !== null && unique.length) {
    const prefs = await em.find(AssetLevelPreference, { brochureId: spec.brochureId, user: { $in: unique.map((u) => u.uId) } });
    for (const p of prefs) (p.code === 'ALP-NUN' ? noPush : noEmail).add(p.user.uId);
  }
  return {
    push: unique.filter((u) => u.enableNotifications && !noPush.has(u.uId)),
    email: spec.email ? unique.filter((u) => !noEmail.has(u.uId) && u.email) : [],
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

/** Writes the sent record and the inbox rows; run inside a transaction. */
export function recordDelivery(em: EntityManager, spec: DeliverySpec, recipients: Recipients, now: Date): SentNotification {
  const scheduled = spec.schedule !== null;
  const sent = em.create(SentNotification, {
    type: spec.type,
    company: em.getReference(Company, spec.companyId),
    eventUUID: spec.eventUUID,
    schedule: spec.schedule,
    message: truncate(spec.message, LIMITS.sentMessage),
    description: description(spec),
    url: spec.url,
    successful: true,
    totalNotificationsSent: recipients.push.length,
    teamIds: scheduled && spec.teamIds.length ? spec.teamIds.map(String) : null,
    // Completed with the e-mail outcome once the e-mails have gone (finishDelivery).
    notificationLog: successLog(recipients.push.length, null),
    notificationCreated: now,
    notificationModified: now,
    notificationCreatedBy: spec.createdBy,
    notificationModifiedBy: spec.createdBy,
    brochureId: spec.brochureId,
    emailTemplate: spec.email?.template ?? null,
    emailSubject: spec.email?.subject ?? null,
    emailParams: spec.email?.params ?? null,
  });
  for (const user of recipients.push) em.create(NotificationInbox, { notification: sent, user, deliveredAt: now });
  return sent;
}

/** Sends one e-mail per recipient: their own fields (firstName, lastName) fill placeholders too. */
export async function sendEmails(mailer: Mailer, spec: DeliverySpec, users: User[], logger?: Logger): Promise<EmailOutcome | null> {
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
