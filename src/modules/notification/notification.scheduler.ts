// The notification module's queue handlers (index.ts `queues`), run by the queue's workers that
// src/background.ts starts: scheduled notifications at their due time, the e-mails of each
// delivery, and a sweep that gives every PENDING scheduled notification its job (rows stored
// before the queue existed; idempotent, the job's key is the schedule id).
import type { QueueHandler } from '../../core/module';
import { deliverScheduled, enqueuePending, MAX_ATTEMPTS, SCHEDULED_QUEUE } from './notification.dispatch';
import { EMAIL_QUEUE, sendNotificationEmails } from './notification.delivery';

const idOf = (data: unknown, field: string): number => {
  const id = (data as Record<string, unknown> | null)?.[field];
  if (typeof id !== 'number' || !Number.isInteger(id)) throw new Error(`job data without an integer ${field}`);
  return id;
};

/** A scheduled notification, delivered once its due time has come (the job's start time). */
export const scheduledSends: QueueHandler = {
  name: SCHEDULED_QUEUE,
  retryLimit: MAX_ATTEMPTS - 1,
  retryDelaySeconds: 5,
  retryBackoff: true,
  handle: async (data, { orm, logger, services }, attempt) => {
    await deliverScheduled(
      orm.em,
      idOf(data, 'notificationScheduleId'),
      { services, logger: logger.child({ component: 'scheduler' }), now: () => services.clock.now() },
      attempt,
    );
  },
};

/** The e-mails of one delivery: retried with backoff while the SMTP server is unreachable or busy. */
export const notificationEmails: QueueHandler = {
  name: EMAIL_QUEUE,
  retryLimit: 8,
  retryDelaySeconds: 5,
  retryBackoff: true,
  handle: async (data, { orm, logger, services }, attempt) => {
    await sendNotificationEmails(
      orm.em,
      idOf(data, 'notificationId'),
      { mailer: services.mailer, logger, now: () => services.clock.now() },
      attempt,
    );
  },
};

/** Every ten minutes, a job for each PENDING scheduled notification that has none. */
export const scheduledSweep: QueueHandler = {
  name: 'notification-scheduled-sweep',
  cron: '*/10 * * * *',
  retryLimit: 0,
  handle: async (_data, { orm, services }) => {
    await enqueuePending(orm.em, services);
  },
};
