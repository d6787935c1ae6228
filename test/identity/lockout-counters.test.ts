// The brute-force guard's counters on the database store (the auth_rate_limit table, used without
// REDIS_URL): the contract both stores keep (test/kit/lockout-counters.ts; Redis's:
// test/redis/lockout-counters.redis.ts), and what only the table does: rows stay until the sweep.
import { createTestDb, type TestDb } from '../kit/db';
import { sql } from '../kit/rows';
import { lockoutCountersContract } from '../kit/lockout-counters';
import { lockoutCountersOn, type LockoutCounters } from '../../src/modules/identity/lockout-counters';

let db: TestDb;
let counters: LockoutCounters;
beforeAll(async () => {
  db = await createTestDb();
  counters = lockoutCountersOn({ orm: db.orm });
});
afterAll(() => db.close());

const rows = (keyLike: string) => sql(db.orm, 'select key, points from auth_rate_limit where key like ? order by key', [keyLike]);

lockoutCountersContract('on the database', () => counters);

it('a counter given back to nothing keeps its row at 0 points, which peek and take read as no count', async () => {
  await counters.take('given-back:a', 3, 60_000);
  await counters.giveBack('given-back:a');
  await counters.giveBack('given-back:a');
  expect(await rows('given-back:%')).toEqual([{ key: 'given-back:a', points: 0 }]);
  expect(await counters.peek('given-back:a')).toBeNull();
  expect(await counters.take('given-back:a', 1, 60_000)).toEqual({ taken: true, count: 1 });
});

it('sweep deletes the rows that expired before the time given, and only those', async () => {
  const now = Date.now();
  await sql(db.orm, 'insert into auth_rate_limit (key, points, expire) values (?, 2, ?), (?, 2, ?), (?, 1, ?)', [
    'sweep:long-gone',
    now - 7_200_000,
    'sweep:just-expired',
    now - 1_000,
    'sweep:live',
    now + 60_000,
  ]);
  await counters.sweep(now - 3_600_000);
  expect((await rows('sweep:%')).map((r) => r.key)).toEqual(['sweep:just-expired', 'sweep:live']);
  await counters.sweep(now);
  expect((await rows('sweep:%')).map((r) => r.key)).toEqual(['sweep:live']);
});
