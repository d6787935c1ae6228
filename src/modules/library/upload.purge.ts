// Runs purgeExpiredUploads every hour on each instance (the statements are safe to run
// concurrently). Started by createApp, stopped with it.
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../../logger';
import { purgeExpiredUploads } from './upload.service';

export const PURGE_INTERVAL_MS = 60 * 60 * 1000;

export function startUploadPurge(em: EntityManager, logger: Logger, intervalMs = PURGE_INTERVAL_MS): { stop(): void } {
  let running: Promise<void> | undefined;
  const tick = () => {
    if (running) return;
    running = purgeExpiredUploads(em.fork())
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
