// Purges expired uploads and the blobs nothing refers to any more, every hour, as a recurring job
// on the queue (pg-boss's cron: one instance runs each occurrence; the statements are safe to run
// concurrently anyway). Declared in the module's `queues` (index.ts), run by the queue's workers.
import type { QueueHandler } from '../../core/module';
import { purgeExpiredUploads } from './upload.service';

export const PURGE_QUEUE = 'library-upload-purge';

/** Expired uploads and the blobs nothing refers to any more, at the start of every hour. */
export const uploadPurge: QueueHandler = {
  name: PURGE_QUEUE,
  cron: '0 * * * *',
  // A failed run is not retried: the next hour's run does its work.
  retryLimit: 0,
  handle: async (_data, { orm, logger, blobReferences }) => {
    const r = await purgeExpiredUploads(orm.em.fork(), blobReferences);
    if (r.uploads || r.blobs || r.orphanChunks) logger.info(r, 'purged expired uploads and unused blobs');
  },
};
