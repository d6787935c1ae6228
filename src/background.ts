// The work one service instance does beside answering requests, started and stopped in one
// place: the job queue's workers, which run every module's `queues` handlers (scheduled
// notifications, e-mails, the hourly purge of expired uploads), and any module's other `jobs`. server.ts starts it once the app is built;
// tests start the part they exercise themselves.
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import type { BlobReference, ModuleDefinition } from './core/module';
import type { Services } from './services';

/** How long the queue's workers wait before trying to start again. */
const WORK_RETRY_MS = 5000;

export interface BackgroundWork {
  /** Stops every job, in the reverse order of their start; waits for work in progress. */
  stop(): Promise<void>;
}

export interface BackgroundDeps {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  services: Services;
  /** The module list: their jobs, and the columns that keep blobs alive (for purges). */
  modules: readonly ModuleDefinition[];
  blobReferences: readonly BlobReference[];
}

export function startBackgroundWork({ modules, ...deps }: BackgroundDeps): BackgroundWork {
  const jobDeps = deps;
  const jobs = modules.flatMap((m: ModuleDefinition) => m.jobs ?? []);
  const running = jobs.map((job) => job.start(jobDeps));
  // The queue's workers run every module's `queues` handlers (none when QUEUE_WORKERS is 0).
  // A database that does not answer at start-up delays them: they try again every
  // WORK_RETRY_MS until they start or the work is stopped.
  const { queue } = deps.services;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  const startWorkers = async (): Promise<void> => {
    while (!stopped) {
      try {
        await queue.work?.(jobDeps);
        return;
      } catch (err: unknown) {
        deps.logger.warn({ err }, `queue workers not started; trying again in ${WORK_RETRY_MS / 1000} s`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          retry = setTimeout(resolve, WORK_RETRY_MS);
        });
      }
    }
  };
  const working = startWorkers();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      wake?.();
      await working;
      // Jobs in progress finish; the queue itself closes with the services.
      await queue.stopWork?.();
      for (const job of running.reverse()) await job.stop();
    },
  };
}
