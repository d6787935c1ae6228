// Delivery of scheduled notifications, exactly once across service instances, on the job queue.
//
// Storing a scheduled notification enqueues, in the same transaction, a job
// ('notification-scheduled', keyed by the schedule id) that starts at its due time. pg-boss hands
// each job to one worker (FOR UPDATE SKIP LOCKED across instances) and retries a job whose handler
// threw, with backoff; a job whose worker died is retried once it expires. Delivery commits the
// inbox rows, the sent record, the e-mail outbox and status SENT in one transaction that first
// moves the row out of PENDING: a second run of the same job (a retry after a crash past the
// commit) finds nothing PENDING and does nothing, and the unique schedule id on the sent record
// refuses a second delivery whatever happens.
import type { EntityManager } from '@mikro-orm/core';
import type { JobAttempt } from '../../core/module';
import type { Services } from '../../services';
import { Event } from '../event';
import { ScheduledNotification } from './notification.entity';
import { findRecipients, recordDelivery, successLog, type DeliverySpec, type Recipients } from './notification.delivery';
import type { Logger } from '../../logger';

export const SCHEDULED_QUEUE = 'notification-scheduled';
/** Runs of a scheduled notification's job before it is recorded FAILED. */
export const MAX_ATTEMPTS = 5;

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
  if (!s.company.active) return 'Failed: the company is not active';
  if (s.broadcastType === 'GE') {
    const event = await em.findOne(Event, { eventUUID: s.keyEventUUID! });
    if (!event) return 'Failed: the event no longer exists';
    if (event.status === 'C') return 'Failed: the event was cancelled';
  }
  return null;
}

export interface ScheduledDeps {
  services: Services;
  logger?: Logger;
  now: () => Date;
}

/**
 * Delivers scheduled notification `id` if it is still PENDING (a deleted, sent or failed one is
 * left alone); returns whether this run delivered it. On the job's last attempt a delivery that
 * throws is recorded FAILED instead.
 */
export async function deliverScheduled(
  root: EntityManager,
  id: number,
  deps: ScheduledDeps,
  attempt: JobAttempt = { retryCount: 0, retryLimit: 1 },
): Promise<boolean> {
  try {
    return await deliver(root, id, deps, attempt, null);
  } catch (err) {
    if (attempt.retryCount < attempt.retryLimit) throw err;
    deps.logger?.error({ err, notificationScheduleId: id }, 'scheduled notification delivery failed for good');
    return deliver(root, id, deps, attempt, `Failed: gave up after ${attempt.retryLimit + 1} attempts`);
  }
}

async function deliver(root: EntityManager, id: number, deps: ScheduledDeps, attempt: JobAttempt, gaveUp: string | null): Promise<boolean> {
  const em = root.fork();
  const s = await em.findOne(ScheduledNotification, { notificationScheduleId: id, status: 'PENDING' }, { populate: ['company'] });
  if (!s) return false;
  const now = deps.now();
  const failure = gaveUp ?? (await failureOf(em, s));
  const done = await em.transactional(async (tx): Promise<Recipients | null> => {
    const spec = specOf(s, tx.getReference(ScheduledNotification, id));
    const recipients: Recipients = failure ? { push: [], email: [] } : await findRecipients(tx, spec);
    // Leaves PENDING in this transaction: a concurrent run waits for the row, then updates nothing.
    const updated = await tx.nativeUpdate(
      ScheduledNotification,
      { notificationScheduleId: id, status: 'PENDING' },
      {
        status: failure ? 'FAILED' : 'SENT',
        totalNotificationsSent: recipients.push.length,
        notificationLog: failure ?? successLog(recipients.push.length, null),
        scheduleModified: now,
        attempts: attempt.retryCount + 1,
      },
    );
    if (updated !== 1) return null;
    await recordDelivery(tx, spec, recipients, now, failure, deps.services);
    return recipients;
  });
  if (!done) return false;
  deps.logger?.info(
    { notificationScheduleId: id, status: failure ? 'FAILED' : 'SENT', recipients: done.push.length },
    'scheduled notification processed',
  );
  return true;
}

/** Enqueues the job of every PENDING notification (idempotent: a job's key is its schedule id). */
export async function enqueuePending(root: EntityManager, services: Services): Promise<number> {
  const em = root.fork();
  const rows = await em.find(
    ScheduledNotification,
    { status: 'PENDING' },
    { fields: ['notificationScheduleId', 'scheduleDueAt'], orderBy: { notificationScheduleId: 'asc' } },
  );
  for (const r of rows) await enqueueScheduled(em, services, r);
  return rows.length;
}

/** The job that delivers `s` at its due time; call it in the transaction that stores `s`. */
export function enqueueScheduled(
  em: EntityManager,
  services: Services,
  s: Pick<ScheduledNotification, 'notificationScheduleId' | 'scheduleDueAt'>,
): Promise<void> {
  return services.queue.send(
    em,
    SCHEDULED_QUEUE,
    { notificationScheduleId: s.notificationScheduleId },
    { key: String(s.notificationScheduleId), startAfter: s.scheduleDueAt },
  );
}
