// Runs purgeExpiredUploads every hour on each instance (the statements are safe to run
// concurrently). Declared as the module's job (index.ts), started by src/background.ts.
import type { EntityManager } from '@mikro-orm/core';
import type { BlobReference, Job } from '../../core/module';
import type { Logger } from '../../logger';
import { purgeExpiredUploads } from './upload.service';

export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export function startUploadPurge(
  em: EntityManager,
  logger: Logger,
  references: readonly BlobReference[],
  intervalMs = PURGE_INTERVAL_MS,
): { stop(): void } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = purgeExpiredUploads(em.fork(), references)
      .then((r) => {
        if (r.uploads || r.blobs || r.orphanChunks) logger.info(r, 'purged expired uploads and unused blobs');
      })
      .catch((err) => logger.warn({ err }, 'upload purge failed; retried next interval'))
      .finally(() => (running = undefined));
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Expired uploads and the blobs nothing refers to any more, every hour. */
export const uploadPurge: Job = {
  name: 'upload-purge',
  start: ({ orm, logger, blobReferences }) => startUploadPurge(orm.em, logger, blobReferences),
};
