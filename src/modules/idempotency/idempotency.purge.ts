// Purges the answers whose 24 hours are over, every hour, as a recurring job on the queue (as the
// upload purge does: pg-boss's cron runs each occurrence on one instance; the statement is safe
// to run concurrently anyway). An expired answer is never replayed, purged or not (its read asks
// for one that has not expired): the purge only keeps the table small.
import type { EntityManager } from '@mikro-orm/core';
import type { QueueHandler } from '../../core/module';
import { purgeExpiredAnswers } from './idempotency.queries';

export const IDEMPOTENCY_PURGE_QUEUE = 'idempotency-purge';

/** Deletes the answers expired by `now`; answers how many went. */
export async function purgeExpiredKeys(em: EntityManager, now: Date): Promise<number> {
  const [row] = await purgeExpiredAnswers.run(em, { now });
  return row?.purged ?? 0;
}

export const idempotencyPurge: QueueHandler = {
  name: IDEMPOTENCY_PURGE_QUEUE,
  cron: '30 * * * *',
  // A failed run is not retried: the next hour's run does its work.
  retryLimit: 0,
  handle: async (_data, { orm, logger, services }) => {
    const purged = await purgeExpiredKeys(orm.em.fork(), services.clock.now());
    if (purged) logger.info({ purged }, 'purged expired idempotency keys');
  },
};
