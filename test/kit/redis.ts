// Two instances of the service sharing the machine's Redis (127.0.0.1:6379, or REDIS_URL) under a key prefix of
// their own, and a client of that Redis under the same prefix to look at what they keep; every key
// written under the prefix is removed after the file.
import { Redis } from 'ioredis';
import { suffix } from './factories';
import { useTestApp } from './use';

/** The machine's Redis, or REDIS_URL's (npm run test:mutation sets it for the guard group). */
export const REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

export function useRedisPair(name: string) {
  const prefix = `test-${name}-${suffix()}:`;
  const env = { REDIS_URL, REDIS_KEY_PREFIX: prefix };
  const a = useTestApp({ env });
  const b = useTestApp({ env, alongside: a });
  let redis: Redis | undefined;
  beforeAll(() => {
    redis = new Redis(REDIS_URL, { keyPrefix: prefix });
  });
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys.map((k) => k.slice(prefix.length)));
    redis.disconnect();
  });
  /** The Redis client under the instances' prefix (after beforeAll). */
  const client = (): Redis => redis!;
  return { a, b, redis: client, prefix };
}
