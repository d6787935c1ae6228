// The job queue: background work that must not be lost (e-mails, pushes, scheduled sends, purges)
// is a job on a PostgreSQL queue, written by the operation that causes it and run by workers with
// retries. `send` enqueues inside the caller's transaction (an outbox): the job exists only if the
// transaction commits, and a crash after the commit delays the work instead of losing it.
import type { EntityManager } from '@mikro-orm/core';

export interface SendOptions {
  /** Idempotency: a second job with the same name and key is not added. */
  key?: string;
  /** Not before this time (a scheduled send). */
  startAfter?: Date;
}

export interface JobQueue {
  /** Enqueues job `name` with `data` in the EntityManager's transaction (or at once outside one). */
  send(em: EntityManager, name: string, data: object, options?: SendOptions): Promise<void>;
}
