// The identity services of one running app: signing keys, the token cache, the brute-force
// guard, the Redis connection and the inbound federation. Created once by createApp and
// found from a request's Context through its config (context.ts belongs to the foundation,
// so the runtime is keyed by the app's config object rather than carried in the context).
import { Redis } from 'ioredis';
import type { MikroORM } from '@mikro-orm/core';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { loadSigningKeys } from './keys';
import { TokenSigner } from './access-token';
import { MemoryTokenCache, RedisTokenCache, type TokenCache } from './token-cache';
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
  /** The shared Redis connection (REDIS_URL), for other modules' shared counters; null without. */
  redis: Redis | null;
  inbound: InboundFederation;
  /** Resolves once the configured login client is in oauth_client (retried after a failure). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const runtimes = new WeakMap<Config, IdentityRuntime>();

export function identityOf(config: Config): IdentityRuntime {
  const rt = runtimes.get(config);
  if (!rt) throw new Error('identity runtime not started for this app');
  return rt;
}

function connectRedis(url: string, keyPrefix: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    keyPrefix,
    // Fail fast instead of queueing: a request must learn at once that the cache is down.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let lastError = '';
  redis.on('error', (err) => {
    // One line per distinct failure, not one per reconnection attempt.
    if (err.message !== lastError) logger.error({ err: { message: err.message, code: (err as any).code } }, 'redis connection error');
    lastError = err.message;
  });
  redis.on('ready', () => {
    if (lastError) logger.info('redis connection restored');
    lastError = '';
  });
  return redis;
}

async function waitReady(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, ms);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
  });
}

export async function startIdentity({ config, logger, orm }: { config: Config; logger: Logger; orm: MikroORM }): Promise<IdentityRuntime> {
  const signer = new TokenSigner(config, await loadSigningKeys(config, logger));
  let redis: Redis | null = null;
  if (config.auth.redisUrl) {
    redis = connectRedis(config.auth.redisUrl, config.auth.redisKeyPrefix, logger);
    // Start serving even when Redis is down: credentialed requests answer 503 until it is back.
    if (!(await waitReady(redis, 3000))) logger.warn('redis is not reachable yet: token lookups answer WSCacheServiceException until it is');
  }
  let clientReady: Promise<void> | null = null;
  const ready = () =>
    (clientReady ??= ensureLoginClient(orm, config).catch((err) => {
      clientReady = null;
      throw err;
    }));
  // A database that is down at start-up must not stop the service: the OAuth endpoints retry.
  await ready().catch((err) => logger.warn({ err: { message: err?.message } }, 'login client not registered yet; the OAuth endpoints retry'));
  const guard = new BruteForceGuard(config.auth.bruteForce, redis ? { redis } : { orm });
  const sweeper = redis ? null : setInterval(() => void guard.clearExpired().catch(() => undefined), 5 * 60_000);
  sweeper?.unref();
  const rt: IdentityRuntime = {
    config,
    logger,
    orm,
    signer,
    cache: redis ? new RedisTokenCache(redis) : new MemoryTokenCache(),
    guard,
    redis,
    inbound: new InboundFederation(config, logger),
    ready,
    async close() {
      if (sweeper) clearInterval(sweeper);
      if (redis) redis.disconnect();
    },
  };
  runtimes.set(config, rt);
  return rt;
}
