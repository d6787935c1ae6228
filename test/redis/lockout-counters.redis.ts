// The brute-force guard's counters on Redis (REDIS_URL): the contract both stores keep
// (test/kit/lockout-counters.ts), under a key prefix of this file's own; every key written under it is removed after the file.
import { Redis } from 'ioredis';
import { suffix } from '../kit';
import { REDIS_URL } from '../kit/redis';
import { lockoutCountersContract } from '../kit/lockout-counters';
import { lockoutCountersOn, type LockoutCounters } from '../../src/modules/identity/lockout-counters';

const prefix = `test-lockout-counters-${suffix()}:`;
let redis: Redis;
let counters: LockoutCounters;
beforeAll(() => {
  redis = new Redis(REDIS_URL, { keyPrefix: prefix });
  counters = lockoutCountersOn({ redis });
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys.map((k) => k.slice(prefix.length)));
  redis.disconnect();
});

lockoutCountersContract('on Redis', () => counters);

it('a counter given back to nothing is deleted, not left at 0', async () => {
  await counters.take('given-back', 3, 60_000);
  await counters.giveBack('given-back');
  expect(await redis.exists('given-back')).toBe(0);
});

it('two sets of counters on one connection count together (the scripts are defined on it once)', async () => {
  await counters.take('shared', 3, 60_000);
  expect(await lockoutCountersOn({ redis }).take('shared', 3, 60_000)).toEqual({ taken: true, count: 2 });
});
