// /readyz without REDIS_URL names the database only. With REDIS_URL it names the cache too, and is
// 503 while Redis does not answer: test/redis/readiness.redis.ts; while PostgreSQL does not:
// test/faults/database.faults.ts.
import { useTestApp } from '../kit';

describe('without REDIS_URL', () => {
  const t = useTestApp({ demo: false });

  it('then /readyz names the database only', async () => {
    const res = await t.rest('GET', '/readyz');
    expect([res.status, res.body]).toEqual([200, { status: 'ready', database: 'up' }]);
  });
});
