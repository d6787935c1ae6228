// A recurring job run now: the app's queue workers started, the job's pg-boss schedule read, one
// job sent (what the cron enqueues at its time), and a wait of up to 10 s until `done` holds.
import pino from 'pino';
import { QUEUE_SCHEMA, type QueueWorkers } from '../../src/core/queue';
import { BLOB_REFERENCES } from '../../src/modules';
import type { TestApp } from './app';

/** Answers the job's schedule rows ({name, cron}) as the workers registered it. */
export async function runRecurringJob(t: TestApp, queue: string, done: () => Promise<boolean>): Promise<{ name: string; cron: string }[]> {
  const workers = t.app.services.queue as unknown as QueueWorkers;
  await workers.work({
    orm: t.orm,
    config: t.config,
    logger: pino({ level: 'silent' }),
    services: t.app.services,
    blobReferences: BLOB_REFERENCES,
  });
  try {
    const schedule = await t.sql(`select name, cron from ${QUEUE_SCHEMA}.schedule where name = ?`, [queue]);
    await t.app.services.queue.send(t.orm.em.fork(), queue, {});
    const end = Date.now() + 10_000;
    while (!(await done()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    return schedule;
  } finally {
    await workers.stopWork();
  }
}
