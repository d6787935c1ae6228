// The migrations build exactly the schema the entities describe: a missing or stale
// migration fails here, not in production.
import { createTestDb, type TestDb } from '../kit/db';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(() => db.close());

it('after every migration, the entities need no further schema change', async () => {
  const sql = await (db.orm.schema as any).getUpdateSchemaSQL({ wrap: false });
  expect(sql.trim()).toBe('');
});

it('the rate-limit counters are an unlogged table: written on every limited request, kept out of the write-ahead log', async () => {
  const rows = await db.orm.em.getConnection().execute(`select relpersistence from pg_class where relname = 'auth_rate_limit'`);
  expect(rows).toEqual([{ relpersistence: 'u' }]);
});
