// The identity services of one running app: signing keys, the token cache, the brute-force
// guard (both over the shared store) and the inbound federation. Built once at
// start-up (src/services.ts) and carried to resolvers by the context (ctx.services.identity).
import type { OpenedStore } from '../../core/store';
import type { Bus } from '../../core/bus';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { loadSigningKeys } from './keys';
import { TokenSigner } from './access-token';
import { BroadcastTokenCache, MemoryTokenCache, RedisTokenCache, type RevocationListener, type TokenCache } from './token-cache';
import { BruteForceGuard } from './brute-force';
import { ensureLoginClient } from './clients';
import { InboundFederation } from './inbound';

export interface IdentityRuntime {
  config: Config;
  logger: Logger;
  orm: MikroORM;
  signer: TokenSigner;
  cache: TokenCache;
  guard: BruteForceGuard;
  inbound: InboundFederation;
  /** Tells `listener` of every revocation heard on the bus (any instance's); returns its removal. */
  onRevoked(listener: RevocationListener): () => void;
  /** Resolves once the configured login client is in oauth_client (retried after a failure). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export async function startIdentity({
  config,
  logger,
  orm,
  shared,
  bus,
}: {
  config: Config;
  logger: Logger;
  orm: MikroORM;
  shared: OpenedStore;
  /** Revocations travel on it to every instance. */
  bus: Bus;
}): Promise<IdentityRuntime> {
  const keys = await loadSigningKeys(config, logger);
  const signer = new TokenSigner(config, keys);
  const { redis } = shared;
  let clientReady: Promise<void> | null = null;
  const ready = () =>
    (clientReady ??= ensureLoginClient(orm, config).catch((err) => {
      clientReady = null;
      throw err;
    }));
  // A database that is down at start-up must not stop the service: the OAuth endpoints retry.
  await ready().catch((err) =>
    logger.warn({ err: { message: err?.message } }, 'login client not registered yet; the OAuth endpoints retry'),
  );
  const guard = new BruteForceGuard(config.auth.bruteForce, shared.store, keys.counterKey);
  const sweeper = redis ? null : setInterval(() => void guard.clearExpired().catch(() => undefined), 5 * 60_000);
  sweeper?.unref();
  const cache = new BroadcastTokenCache(redis ? new RedisTokenCache(redis) : new MemoryTokenCache(), bus, logger);
  const rt: IdentityRuntime = {
    config,
    logger,
    orm,
    signer,
    cache,
    guard,
    inbound: new InboundFederation(config, logger),
    onRevoked: (listener) => cache.onRevoked(listener),
    ready,
    async close() {
      if (sweeper) clearInterval(sweeper);
      cache.close();
    },
  };
  return rt;
}

declare module '../../context' {
  interface ModuleServices {
    /** The identity runtime: token signing and cache, the brute-force guard, inbound federation. */
    identity: IdentityRuntime;
  }
}
