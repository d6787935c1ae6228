// The app-wide services, built once at start-up and passed to every request through the typed
// context (ctx.services) and to background jobs: nothing is looked up from a module-level table.
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import { systemClock, type Clock } from './core/clock';
import { Hooks } from './core/hooks';
import { RateLimits } from './core/rate-limit';
import { openSharedStore } from './core/store';
import { openBus, type Bus } from './core/bus';
import { createQueueRuntime, type JobQueue, type QueueWorkers } from './core/queue';
import { setPooling } from './db/sql';
import { createMailer, startIdentity, type IdentityRuntime, type Mailer } from './modules';
import { MODULES } from './modules';

export interface Services {
  identity: IdentityRuntime;
  limits: RateLimits;
  mailer: Mailer;
  hooks: Hooks;
  clock: Clock;
  /** Messages between the instances (LISTEN/NOTIFY, or Redis pub/sub with REDIS_URL). */
  bus: Bus;
  /** The job queue (src/core/queue.ts): send in a transaction; background.ts starts its workers. */
  queue: JobQueue & Partial<QueueWorkers>;
  /**
   * The stores every authenticated request needs besides the database, each up or down (/readyz):
   * `cache` (Redis, holding the token cache and the counters) with REDIS_URL; none without.
   */
  readiness(): Promise<Record<string, 'up' | 'down'>>;
}

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  orm: MikroORM;
  clock?: Clock;
}

export async function createServices({
  config,
  logger,
  orm,
  clock = systemClock,
}: ServiceOptions): Promise<Services & { close(): Promise<void> }> {
  // Behind a transaction pooler: no named prepared statements, and a session (LISTEN) only on DATABASE_DIRECT_URL.
  setPooling(orm, config.databasePooling);
  const session = { pooling: config.databasePooling, directUrl: config.databaseDirectUrl };
  const shared = await openSharedStore({ redisUrl: config.auth.redisUrl, keyPrefix: config.auth.redisKeyPrefix, orm, logger });
  const bus = await openBus({ orm, logger, redisUrl: config.auth.redisUrl, keyPrefix: config.auth.redisKeyPrefix, ...session });
  // What is opened before a failure is closed again: the bus keeps a reconnect timer.
  const identity = await startIdentity({ config, logger, orm, shared, bus }).catch(async (err: unknown) => {
    await bus.close();
    shared.close();
    throw err;
  });
  const mailer = createMailer(config, logger);
  const queue = createQueueRuntime({
    orm,
    logger,
    handlers: MODULES.flatMap((m) => m.queues ?? []),
    workers: config.queueWorkers,
    pollMs: config.queuePollMs,
    ...session,
  });
  // On the embedded database pg-boss shares the one PGlite connection, where a first send inside
  // a request's transaction could not install pg-boss's schema (it would wait for that
  // transaction): there it starts before the first request. On PostgreSQL it starts on first use
  // (a send, or the workers of src/background.ts), so an instance that never queues anything
  // never installs it. A database that does not answer yet does not stop the service (its probes
  // say so): the queue tries again on its next use.
  if (orm.config.getDriver().constructor.name === 'PgliteDriver')
    await queue.start().catch((err: unknown) => logger.warn({ err }, 'job queue not started: the database does not answer'));
  return {
    identity,
    limits: new RateLimits(config.rateLimits, shared.store),
    mailer,
    hooks: new Hooks(MODULES.map((m) => m.hooks ?? {})),
    clock,
    bus,
    queue,
    async readiness(): Promise<Record<string, 'up' | 'down'>> {
      const answers = shared.answers();
      return answers ? { cache: (await answers) ? 'up' : 'down' } : {};
    },
    async close() {
      await queue.close();
      mailer.close();
      await identity.close();
      await bus.close();
      // Opened here, shared by the identity runtime and the limiter: closed here, after both.
      shared.close();
    },
  };
}
