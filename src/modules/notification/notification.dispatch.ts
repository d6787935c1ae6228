// Delivery of due scheduled notifications, exactly once across service instances.
//
// An instance claims due rows with one UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED):
// concurrent instances skip each other's locked rows, so each row is claimed by one of them,
// and the claim (status PROCESSING, a token and a lease) holds no lock while it is delivered.
// Delivery commits the inbox rows, the sent record and status SENT in one transaction that
// only succeeds while the claim is still this instance's; the unique schedule id on the sent
// record refuses a second delivery whatever happens. A claim whose instance died is taken over
// once its lease has run out.
import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { Event } from '../event';
import { ScheduledNotification, type SentNotification } from './notification.entity';
import {
  findRecipients,
  finishDelivery,
  recordDelivery,
  sendEmails,
  successLog,
  type DeliverySpec,
  type Recipients,
} from './notification.delivery';
import { mailerOf, type NotificationDeps } from './notification.service';
import { runSql } from '../../db/lean';

export const CLAIM_LEASE_MS = 5 * 60_000;
export const MAX_ATTEMPTS = 5;
const BATCH_SIZE = 20;

/** Claims up to `limit` due notifications for this run; returns their ids. */
export async function claimDue(em: EntityManager, now: Date, token: string, limit = BATCH_SIZE): Promise<number[]> {
  const at = now.toISOString();
  const rows = await runSql<{ id: number }>(
    em,
    `update "scheduled_notification"
        set "status" = 'PROCESSING', "claim_token" = ?, "claimed_until" = ?, "attempts" = "attempts" + 1
      where "notification_schedule_id" in (
        select "notification_schedule_id" from "scheduled_notification"
         where ("status" = 'PENDING' and "schedule_due_at" <= ?)
            or ("status" = 'PROCESSING' and "claimed_until" < ?)
         order by "schedule_due_at", "notification_schedule_id"
         limit ?
         for update skip locked)
      returning "notification_schedule_id" as "id"`,
    [token, new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(), at, at, limit],
  );
  return rows.map((r) => Number(r.id));
}

function specOf(s: ScheduledNotification, schedule: ScheduledNotification): DeliverySpec {
  return {
    type: s.broadcastType,
    companyId: s.company.companyId,
    eventUUID: s.keyEventUUID ?? null,
    brochureId: s.brochureId ?? null,
    teamIds: s.broadcastType === 'GT' || s.broadcastType === 'GA' ? s.valueIds.map(Number) : [],
    message: s.message,
    url: s.url ?? null,
    email: s.emailTemplate ? { template: s.emailTemplate, subject: s.emailSubject ?? '', params: s.emailParams ?? [] } : null,
    schedule,
    createdBy: s.scheduleCreatedBy,
  };
}

/** Why a due notification cannot go out any more, or null. */
async function failureOf(em: EntityManager, s: ScheduledNotification): Promise<string | null> {
  if (s.attempts > MAX_ATTEMPTS) return `Failed: gave up after ${MAX_ATTEMPTS} attempts`;
  if (!s.company.active) return 'Failed: the company is not active';
  if (s.broadcastType === 'GE') {
    const event = await em.findOne(Event, { eventUUID: s.keyEventUUID! });
    if (!event) return 'Failed: the event no longer exists';
    if (event.status === 'C') return 'Failed: the event was cancelled';
  }
  return null;
}

async function deliverClaimed(root: EntityManager, id: number, token: string, deps: NotificationDeps, now: Date): Promise<boolean> {
  const em = root.fork();
  const s = await em.findOne(ScheduledNotification, { notificationScheduleId: id, claimToken: token }, { populate: ['company'] });
  if (!s) return false;
  const failure = await failureOf(em, s);
  const done = await em.transactional(
    async (tx): Promise<{ sent: SentNotification; recipients: Recipients; spec: DeliverySpec } | null> => {
      const spec = specOf(s, tx.getReference(ScheduledNotification, id));
      const recipients: Recipients = failure ? { push: [], email: [] } : await findRecipients(tx, spec);
      const updated = await tx.nativeUpdate(
        ScheduledNotification,
        { notificationScheduleId: id, claimToken: token, status: 'PROCESSING' },
        {
          status: failure ? 'FAILED' : 'SENT',
          totalNotificationsSent: recipients.push.length,
          notificationLog: failure ?? successLog(recipients.push.length, null),
          scheduleModified: now,
          claimToken: null,
          claimedUntil: null,
        },
      );
      // The lease ran out and another instance took the row over: leave it to that one.
      if (updated !== 1) return null;
      const sent = await recordDelivery(tx, spec, recipients, now, failure, deps.services);
      return { sent, recipients, spec };
    },
  );
  if (!done) return false;
  if (!failure) {
    const email = done.spec.email ? await sendEmails(mailerOf(deps), done.spec, done.recipients.email, deps.logger) : null;
    await finishDelivery(em, done.sent, email, deps.now?.() ?? new Date());
  }
  deps.logger?.info(
    { notificationScheduleId: id, status: failure ? 'FAILED' : 'SENT', recipients: done.recipients.push.length },
    'scheduled notification processed',
  );
  return true;
}

/** Claims and delivers every due notification; returns how many this instance processed. */
export async function processDueNotifications(root: EntityManager, deps: NotificationDeps): Promise<number> {
  let processed = 0;
  for (;;) {
    const now = deps.now?.() ?? new Date();
    const token = crypto.randomUUID();
    const ids = await claimDue(root.fork(), now, token);
    for (const id of ids) {
      try {
        if (await deliverClaimed(root, id, token, deps, now)) processed++;
      } catch (err) {
        // The claim stays; the row is retried when its lease runs out.
        deps.logger?.error({ err, notificationScheduleId: id }, 'scheduled notification delivery failed');
      }
    }
    if (ids.length < BATCH_SIZE) return processed;
  }
}
