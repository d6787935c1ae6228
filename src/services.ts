// The app-wide services, built once at start-up and passed to every request through the typed
// context (ctx.services) and to background jobs: nothing is looked up from a module-level table.
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import { systemClock, type Clock } from './core/clock';
import { Hooks } from './core/hooks';
import { RateLimits } from './core/rate-limit';
import { openSharedStore } from './core/store';
import { openBus } from './core/bus';
import { createQueueRuntime } from './core/queue';
import { setPooling } from './db/sql';
import { ReadRouting, writeFloorsOn } from './db/replicas';
import type { ModuleDefinition, JobDeps, StartedService } from './core/module';
import type { ModuleServices, Services } from './context';

export type { Services } from './context';

export interface ServiceOptions {
  config: Config;
  logger: Logger;
  orm: MikroORM;
  /** The module list: what each starts (`services`), its queue handlers and its hooks. */
  modules: readonly ModuleDefinition[];
  clock?: Clock;
}

export async function createServices({
  config,
  logger,
  orm,
  modules,
  clock = systemClock,
}: ServiceOptions): Promise<Services & { close(): Promise<void> }> {
  // Behind a transaction pooler: no named prepared statements, and a session (LISTEN) only on DATABASE_DIRECT_URL.
  setPooling(orm, config.databasePooling);
  const session = { pooling: config.databasePooling, directUrl: config.databaseDirectUrl };
  const shared = await openSharedStore({ redisUrl: config.auth.redisUrl, keyPrefix: config.auth.redisKeyPrefix, orm, logger });
  const bus = await openBus({ orm, logger, redisUrl: config.auth.redisUrl, keyPrefix: config.auth.redisKeyPrefix, ...session });
  // What is opened before a failure is closed again: the bus keeps a reconnect timer.
  const started = await startModules(modules, { config, logger, orm, shared, bus }).catch(async (err: unknown) => {
    await bus.close();
    shared.close();
    throw err;
  });
  const queue = createQueueRuntime<JobDeps>({
    orm,
    logger,
    handlers: modules.flatMap((m) => m.queues ?? []),
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
  // MikroORM opened the replicas (DATABASE_REPLICA_URLS); which one a read takes is decided here.
  const reads = config.databaseReplicaUrls.length
    ? new ReadRouting(orm, { maxLagMs: config.databaseReplicaMaxLagMs, floors: writeFloorsOn(shared.store), logger }).start()
    : null;
  return {
    ...(Object.assign({}, ...started.map((s) => s.provides)) as ModuleServices),
    reads,
    limits: new RateLimits(config.rateLimits, shared.store),
    hooks: new Hooks(modules.map((m) => m.hooks ?? {})),
    clock,
    bus,
    queue,
    async readiness(): Promise<Record<string, 'up' | 'down'>> {
      const answers = shared.answers();
      return answers ? { cache: (await answers) ? 'up' : 'down' } : {};
    },
    async close() {
      reads?.close();
      await queue.close();
      for (const s of started.reverse()) await s.close();
      await bus.close();
      // Opened here, shared by the identity runtime and the limiter: closed here, after both.
      shared.close();
    },
  };
}

/** Starts what each module starts, in the list's order; a failure closes those started before it, in reverse. */
async function startModules(modules: readonly ModuleDefinition[], deps: Parameters<NonNullable<ModuleDefinition['services']>>[0]) {
  const started: StartedService[] = [];
  for (const m of modules) {
    if (!m.services) continue;
    try {
      started.push(await m.services(deps));
    } catch (err) {
      for (const s of started.reverse()) await s.close();
      throw err;
    }
  }
  return started;
}
