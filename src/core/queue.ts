// The job queue: background work that must not be lost (e-mails, pushes, scheduled sends, purges)
// is a job on a PostgreSQL queue, written by the operation that causes it and run by workers with
// retries. `send` enqueues inside the caller's transaction (an outbox): the job exists only if the
// transaction commits, and a crash after the commit delays the work instead of losing it.
//
// Built on pg-boss (its own schema, `pgboss`, in the service's database). `send` runs pg-boss's
// insert statement through the caller's EntityManager (its connection and transaction, counted and
// traced like every statement); everything else pg-boss does (fetching, completing, retrying,
// maintenance, cron) runs on its own small pool on PostgreSQL, never inside a request's
// transaction. On the embedded database (PGlite, one connection) pg-boss runs on the same PGlite
// instance: PGlite serialises a MikroORM transaction against every other statement, so pg-boss's
// statements wait for a request's transaction to end instead of joining it.
//
// pg-boss 12 needs a session for one thing only, the LISTEN that wakes idle workers when a job is
// sent: its locks are transaction-scoped (pg_advisory_xact_lock), its settings SET LOCAL, its
// statements unnamed. Its pool goes to DATABASE_DIRECT_URL when set (past any pooler, so LISTEN
// works); behind a transaction pooler without one it runs through the pooler and its workers poll
// (every QUEUE_POLL_MS) without LISTEN. `send` runs on the caller's connection either way.
import crypto from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Logger } from '../logger';
import { send, type Pooling } from '../db/sql';

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

/** Which run of a job this is: retryCount 0 is the first; retryCount === retryLimit is the last. */
export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}

/**
 * The handler of one named job queue: the workers run it for each job, with what `work` was given
 * (`D`: src/core/module.ts names it), retrying a job whose handler throws, with backoff, up to the limit.
 */
export interface QueueHandler<D> {
  name: string;
  /** Runs one job; `data` is what `queue.send` was given (check its shape: it comes from the database). */
  handle(data: unknown, deps: D, attempt?: JobAttempt): Promise<void>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** A recurring job: pg-boss's cron expression (minute resolution); one instance runs each occurrence. */
  cron?: string;
}

export interface QueueRuntimeOptions<D> {
  orm: MikroORM;
  logger: Logger;
  /** Every module's queue handlers: their queues are created at start (a send needs its queue). */
  handlers: readonly QueueHandler<D>[];
  /** Jobs each queue's worker of this instance runs at once; 0: this instance runs no jobs. */
  workers: number;
  /** How often an idle worker looks for jobs (pg-boss's minimum is 500 ms). */
  pollMs: number;
  /** How the ORM's connections are pooled (DATABASE_POOLING); 'transaction' cannot carry LISTEN. */
  pooling?: Pooling;
  /** A session connection to the same database (DATABASE_DIRECT_URL): pg-boss's pool when set. */
  directUrl?: string | null;
}

/** The workers of an instance's queue (src/background.ts starts and stops them). */
export interface QueueWorkers<D = unknown> {
  /** Starts the workers of every queue (none when `workers` is 0) and the recurring jobs, handing them `deps`. */
  work(deps: D): Promise<void>;
  /** Stops the workers; jobs in progress finish (a job cut off by a crash is retried once it expires). */
  stopWork(): Promise<void>;
}

/** The queue of one instance: sends from start-up on; runs jobs once `work` is called. */
export interface QueueRuntime<D> extends JobQueue, QueueWorkers<D> {
  /** Installs or migrates pg-boss's schema and creates the modules' queues. */
  start(): Promise<void>;
  /** Stops everything and closes pg-boss's pool. */
  close(): Promise<void>;
}

export const QUEUE_SCHEMA = 'pgboss';

/** The job id of an idempotency key: the same name and key always give the same UUID. */
export function jobIdOf(name: string, key: string): string {
  const h = crypto.createHash('sha256').update(`${name}\0${key}`).digest();
  h[6] = (h[6] & 0x0f) | 0x40;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

type PgBossModule = typeof import('pg-boss');
type Boss = InstanceType<PgBossModule['PgBoss']>;
interface Db {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * pg-boss's statement (`$n` placeholders) through the EntityManager (src/db/sql.ts `send`, its
 * values apart from its text, unnamed): its transaction, its statement count.
 */
function dbOf(em: EntityManager): Db {
  return {
    async executeSql(text, values = []) {
      return { rows: await send(em, text, values, false) };
    },
  };
}

interface NativePglite {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(text: string): Promise<{ rows?: unknown[] }[]>;
}

/** How often a worker reports that a job is still running; a job silent for this long is retried. */
const HEARTBEAT_SECONDS = 30;
/** How often an instance with workers looks for silent jobs: pg-boss does it in its queue monitor,
 * which also counts the queues' jobs (the default of both intervals is 60 s). */
const SUPERVISE_SECONDS = 10;

export function createQueueRuntime<D>(options: QueueRuntimeOptions<D>): QueueRuntime<D> {
  const { orm, logger, handlers, workers, pooling = 'session', directUrl = null } = options;
  const log = logger.child({ component: 'queue' });
  let boss: Boss | undefined;
  let starting: Promise<Boss> | undefined;
  let working = false;

  const open = async (): Promise<Boss> => {
    // ESM-only: loaded with import() (jest runs the app as CommonJS).
    const { PgBoss, fromPglite }: PgBossModule = await import('pg-boss');
    const connection = orm.em.getConnection() as unknown as { getNativeClient(): Promise<NativePglite> };
    const common = {
      schema: QUEUE_SCHEMA,
      supervise: workers > 0,
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
      schedule: workers > 0,
    };
    let b: Boss;
    // The PGlite driver has a default clientUrl too: tell the embedded database by its connection.
    if (orm.config.getDriver().constructor.name !== 'PgliteDriver') {
      const connectionString = directUrl ?? orm.config.get('clientUrl');
      const session = directUrl !== null || pooling === 'session';
      if (workers > 0 && !session) log.warn('queue: no LISTEN behind a transaction pooler without DATABASE_DIRECT_URL; workers poll');
      b = new PgBoss({ ...common, connectionString, max: 3, application_name: 'pronet-queue', useListenNotify: workers > 0 && session });
    } else {
      const pglite = await connection.getNativeClient();
      b = new PgBoss({ ...common, db: fromPglite(pglite as never), backend: 'pglite' });
    }
    b.on('error', (err: unknown) => log.error({ err }, 'queue error'));
    try {
      await b.start();
    } catch (err) {
      await b.stop({ graceful: false, close: true }).catch(() => undefined);
      throw err;
    }
    for (const h of handlers) {
      const settings = {
        retryLimit: h.retryLimit ?? 2,
        retryDelay: h.retryDelaySeconds ?? 1,
        retryBackoff: h.retryBackoff ?? true,
        notify: true,
        // A worker that dies mid-job (a killed process) stops its heartbeat: the job is retried
        // 30-40 s later (the heartbeat, then the next supervision) instead of when pg-boss's
        // 15-minute expiry runs out (test/faults/outbox.faults.ts).
        heartbeatSeconds: HEARTBEAT_SECONDS,
      };
      if (await b.getQueue(h.name)) await b.updateQueue(h.name, settings);
      else await b.createQueue(h.name, settings);
    }
    return b;
  };

  // A start that failed (the database did not answer) is forgotten, so the next use tries again.
  const started = (): Promise<Boss> => {
    starting ??= open().then(
      (b) => (boss = b),
      (err: unknown) => {
        starting = undefined;
        throw err;
      },
    );
    return starting;
  };

  return {
    start: async () => {
      await started();
    },

    async send(em, name, data, sendOptions = {}) {
      const b = boss ?? (await started());
      await b.send(name, data, {
        ...(sendOptions.key !== undefined ? { id: jobIdOf(name, sendOptions.key) } : {}),
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        db: dbOf(em),
      });
    },

    async work(deps) {
      const b = await started();
      if (workers <= 0) return;
      working = true;
      // NOTIFY wakes a worker when a job is sent, not when a job sent for later (a scheduled send, a
      // retry after its backoff) falls due: only polling finds those. pg-boss polls every 30 s while
      // NOTIFY is active unless told otherwise, so both intervals are QUEUE_POLL_MS.
      const pollSeconds = Math.max(0.5, options.pollMs / 1000);
      for (const h of handlers) {
        await b.work(
          h.name,
          {
            pollingIntervalSeconds: pollSeconds,
            notifyPollingIntervalSeconds: pollSeconds,
            localConcurrency: workers,
            batchSize: 1,
            includeMetadata: true,
          },
          async (jobs) => {
            for (const job of jobs) {
              await h.handle(job.data, deps, { retryCount: job.retryCount, retryLimit: job.retryLimit });
            }
          },
        );
      }
      for (const h of handlers) if (h.cron) await b.schedule(h.name, h.cron);
      log.info({ queues: handlers.map((h) => h.name), workers }, 'queue workers started');
    },

    async stopWork() {
      const b = boss;
      if (!b || !working) return;
      working = false;
      await Promise.all(
        handlers.map((h) =>
          b.offWork(h.name, { wait: true }).catch((err: unknown) => log.warn({ err }, 'queue: stopping a worker failed')),
        ),
      );
    },

    async close() {
      if (!starting) return;
      const b = await starting.catch(() => undefined);
      starting = undefined;
      boss = undefined;
      await b?.stop({ graceful: true, close: true, timeout: 10_000 });
    },
  };
}
