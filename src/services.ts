// The app-wide services, built once at start-up and passed to every request through the typed
// context (ctx.services) and to background jobs: nothing is looked up from a module-level table.
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import { systemClock, type Clock } from './core/clock';
import { Hooks } from './core/hooks';
import { RateLimits } from './core/rate-limit';
import { openSharedStore } from './core/store';
import { createMailer, startIdentity, type IdentityRuntime, type Mailer } from './modules';
import { MODULES } from './modules';

export interface Services {
  identity: IdentityRuntime;
  limits: RateLimits;
  mailer: Mailer;
  hooks: Hooks;
  clock: Clock;
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
  const shared = await openSharedStore({ redisUrl: config.auth.redisUrl, keyPrefix: config.auth.redisKeyPrefix, orm, logger });
  const identity = await startIdentity({ config, logger, orm, shared });
  const mailer = createMailer(config, logger);
  return {
    identity,
    limits: new RateLimits(config.rateLimits, shared.store),
    mailer,
    hooks: new Hooks(MODULES.map((m) => m.hooks ?? {})),
    clock,
    async close() {
      mailer.close();
      await identity.close();
      // Opened here, shared by the identity runtime and the limiter: closed here, after both.
      shared.close();
    },
  };
}
