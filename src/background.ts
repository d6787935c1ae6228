// The work one service instance does beside answering requests, started and stopped in one
// place: every module's jobs (the notification scheduler, the hourly purge of expired uploads;
// a module declares its own in its definition). server.ts starts it once the app is built;
// tests start the part they exercise themselves.
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import type { ModuleDefinition } from './core/module';
import type { Services } from './services';
import { BLOB_REFERENCES, MODULES } from './modules';

export interface BackgroundWork {
  /** Stops every job, in the reverse order of their start; waits for work in progress. */
  stop(): Promise<void>;
}

export function startBackgroundWork(deps: { orm: MikroORM; config: Config; logger: Logger; services: Services }): BackgroundWork {
  const jobs = MODULES.flatMap((m: ModuleDefinition) => m.jobs ?? []);
  const running = jobs.map((job) => job.start({ ...deps, blobReferences: BLOB_REFERENCES }));
  return {
    async stop() {
      for (const job of running.reverse()) await job.stop();
    },
  };
}
