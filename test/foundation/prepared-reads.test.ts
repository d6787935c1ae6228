// Read models and plain rows go to PostgreSQL as prepared statements (src/db/lean.ts): one per
// read model and connection, planned once, their values apart from their text; and a column a
// later migration adds does not break the statement a running instance has prepared.
import { useTestApp } from '../kit';
import { plainQuery, positional, readQuery, runSql } from '../../src/db/lean';
import { User } from '../../src/modules/user';

const t = useTestApp({ demo: false });

const nameOf = (prepared: boolean) =>
  readQuery<string, [uId: number], { name: string }>(
    (n) =>
      `select ${n(User).column('firstName')} as ${prepared ? 'name' : 'unprepared'} from ${n(User).table} where ${n(User).column('uId')} = ?`,
    (row) => Object.values(row)[0],
    { prepared },
  );
const userName = nameOf(true);
const userNameUnprepared = nameOf(false);
const userRow = plainQuery<User, [number]>(User, (n) => `select ${n.columns()} from ${n.table} where ${n.column('uId')} = ?`);

it('when a read model runs for two users, then each gets its own row and the connection holds one prepared statement for both', async () => {
  const [ann, bob] = [await t.newUser({ firstName: 'Ann' }), await t.newUser({ firstName: 'Bob' })];
  await t.orm.em.fork().transactional(async (tx) => {
    expect(await userName(tx, ann.uId)).toEqual(['Ann']);
    expect(await userName(tx, bob.uId)).toEqual(['Bob']);
    const prepared = await runSql<{ statement: string }>(
      tx,
      `select statement from pg_prepared_statements where statement like '% as name from "app_user" %'`,
    );
    // The embedded PGlite (no DATABASE_URL) is sent each statement with its values, unnamed.
    const named = t.db.databaseUrl ? [`select "first_name" as name from "app_user" where "u_id" = $1`] : [];
    expect(prepared.map((p) => p.statement)).toEqual(named);
  });
});

it('when a read model is not marked prepared, then its values are written into its text and nothing is prepared for it', async () => {
  const ann = await t.newUser({ firstName: 'Ann' });
  await t.orm.em.fork().transactional(async (tx) => {
    expect(await userNameUnprepared(tx, ann.uId)).toEqual(['Ann']);
    expect(await runSql(tx, `select statement from pg_prepared_statements where statement like '%unprepared%'`)).toEqual([]);
  });
});

it('when a migration adds a column under a running instance, then the plain user row it has prepared still reads (no "select *")', async () => {
  const ann = await t.newUser({ firstName: 'Ann' });
  await t.orm.em
    .fork()
    .transactional(async (tx) => {
      expect((await userRow(tx, ann.uId))[0]).toMatchObject({ uId: ann.uId, firstName: 'Ann' });
      await runSql(tx, 'alter table app_user add column added_later int');
      expect((await userRow(tx, ann.uId))[0]).toMatchObject({ uId: ann.uId, firstName: 'Ann' });
      throw new Error('roll back'); // the column goes with the transaction
    })
    .catch((err: Error) => expect(err.message).toBe('roll back'));
});

describe('positional', () => {
  it('numbers the placeholders in order, leaving quoted text and casts alone', () => {
    expect(positional(`select '?' as q, "a?b" from t where x = ? and y = any(?::int[]) and z = 'it''s ?' limit ?`)).toBe(
      `select '?' as q, "a?b" from t where x = $1 and y = any($2::int[]) and z = 'it''s ?' limit $3`,
    );
  });

  it('refuses an operator containing "?" and a list written into the text', () => {
    expect(() => positional(`select 1 from t where doc ?| array['a']`)).toThrow(/operator with "\?"/);
    expect(() => positional(`select 1 from t where doc ?? 'a'`)).toThrow(/operator with "\?"/);
    expect(() => positional(`select 1 from t where id in (?)`)).toThrow(/= any\(\?::type\[\]\)/);
    expect(() => positional(`select 1 from t where name = 'open`)).toThrow(/unterminated quote/);
  });
});
