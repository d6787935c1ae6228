// The background loop of one service instance: every interval it delivers the notifications
// that have fallen due. Declared as the module's job (index.ts), started and stopped by
// src/background.ts (tests start it themselves); stopping waits for a run in progress.
// Several instances may run it against one database.
import type { EntityManager } from '@mikro-orm/core';
import type { Job } from '../../core/module';
import { processDueNotifications } from './notification.dispatch';
import type { NotificationDeps } from './notification.service';

export interface SchedulerOptions extends NotificationDeps {
  em: EntityManager;
  logger: NonNullable<NotificationDeps['logger']>;
  intervalMs: number;
}

export interface Scheduler {
  /** One pass now; resolves with the number of notifications this instance processed. */
  runOnce(): Promise<number>;
  /** Stops the loop and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function startScheduler(options: SchedulerOptions): Scheduler {
  const { em, intervalMs, ...deps } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;

  const runOnce = (): Promise<number> => {
    // Passes of one instance never overlap; a second caller shares the pass in progress.
    running ??= processDueNotifications(em, deps).finally(() => {
      running = null;
    });
    return running;
  };

  const tick = async () => {
    try {
      await runOnce();
    } catch (err) {
      deps.logger.error({ err }, 'scheduler pass failed');
    }
    if (!stopped) timer = setTimeout(() => void tick(), intervalMs);
  };
  if (intervalMs > 0) timer = setTimeout(() => void tick(), 0);

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** Due scheduled notifications, every SCHEDULER_INTERVAL_MS. */
export const scheduledSends: Job = {
  name: 'scheduled-notifications',
  start: ({ orm, config, logger, services }) =>
    startScheduler({
      em: orm.em,
      logger: logger.child({ component: 'scheduler' }),
      intervalMs: config.schedulerIntervalMs,
      mailer: services.mailer,
      now: () => services.clock.now(),
      services,
    }),
};
