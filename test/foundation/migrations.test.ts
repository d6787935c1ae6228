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
