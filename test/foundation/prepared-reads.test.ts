// Queries go to PostgreSQL as prepared statements when told so (src/db/sql.ts): one per statement
// and connection, planned once, their values apart from their text; rows come under the entities'
// property names, instants as Dates; and a column a later migration adds does not break the
// statement a running instance has prepared. The read models of src/db/lean.ts likewise.
import { sql } from 'kysely';
import { useTestApp } from '../kit';
import { positional, readModel, runSql } from '../../src/db/lean';
import { queriesOf } from '../../src/db/sql';
import { User } from '../../src/modules/user';

const t = useTestApp({ demo: false });

const { compiled } = queriesOf({ User });

/** A user's first name, by a parameter. */
const firstName = compiled((db, p: { uId: number }) => db.selectFrom('User as u').select('u.firstName').where('u.uId', '=', p.uId), {
  prepared: true,
});
/** The same, not prepared, and with a second use of its parameter. */
const firstNameUnprepared = compiled((db, p: { uId: number }) =>
  db
    .selectFrom('User as u')
    .select(['u.firstName as unprepared', sql<number>`${p.uId}::int + ${p.uId}::int`.as('twice')])
    .where('u.uId', '=', p.uId),
);
/** Every column of a user. */
const userById = compiled(
  (db, p: { uId: number }, { columns }) => db.selectFrom('User as u').select(columns(User, 'u')).where('u.uId', '=', p.uId),
  { prepared: true },
);

/** What the connection holds prepared whose text contains `marker`. */
async function preparedLike(tx: Parameters<typeof runSql>[0], marker: string): Promise<string[]> {
  const rows = await runSql<{ statement: string }>(tx, `select statement from pg_prepared_statements where statement like ?`, [
    `%${marker}%`,
  ]);
  return rows.map((r) => r.statement);
}

it('when a query runs for two users, then each gets its row, under the property’s name', async () => {
  const [ann, bob] = [await t.newUser({ firstName: 'Ann' }), await t.newUser({ firstName: 'Bob' })];
  await t.orm.em.fork().transactional(async (tx) => {
    expect(await firstName.run(tx, { uId: ann.uId })).toEqual([{ firstName: 'Ann' }]);
    expect(await firstName.run(tx, { uId: bob.uId })).toEqual([{ firstName: 'Bob' }]);
    expect(await firstNameUnprepared.run(tx, { uId: bob.uId })).toEqual([{ unprepared: 'Bob', twice: 2 * bob.uId }]);
  });
});

(process.env.DATABASE_URL ? it : it.skip)(
  'when a prepared query runs for two users, then the connection holds one prepared statement for both; an unprepared one none (PostgreSQL server only)',
  async () => {
    const [ann, bob] = [await t.newUser({ firstName: 'Ann' }), await t.newUser({ firstName: 'Bob' })];
    await t.orm.em.fork().transactional(async (tx) => {
      await firstName.run(tx, { uId: ann.uId });
      await firstName.run(tx, { uId: bob.uId });
      await firstNameUnprepared.run(tx, { uId: bob.uId });
      expect(await preparedLike(tx, 'as "firstName" from "app_user"')).toEqual([
        `select "u"."first_name" as "firstName" from "app_user" as "u" where "u"."u_id" = $1`,
      ]);
      expect(await preparedLike(tx, 'unprepared')).toEqual([]);
    });
  },
);

it('when a query selects every column of an entity, then its row has the entity’s properties and types, outside the identity map', async () => {
  const ann = await t.newUser({ firstName: 'Ann' });
  const tx = t.orm.em.fork();
  const [row] = await userById.run(tx, { uId: ann.uId });
  expect(row).toMatchObject({ uId: ann.uId, firstName: 'Ann', active: true });
  expect(row).not.toBeInstanceOf(User);
  expect(row.createdAt).toBeInstanceOf(Date);
  expect(tx.getUnitOfWork().getById(User, ann.uId)).toBeUndefined();
  expect(await t.countStatements(() => userById.run(t.orm.em.fork(), { uId: ann.uId }))).toBe(1);
});

it('when a migration adds a column under a running instance, then the user row a query has prepared still reads (no "select *")', async () => {
  const ann = await t.newUser({ firstName: 'Ann' });
  await t.orm.em
    .fork()
    .transactional(async (tx) => {
      expect((await userById.run(tx, { uId: ann.uId }))[0]).toMatchObject({ uId: ann.uId, firstName: 'Ann' });
      await runSql(tx, 'alter table app_user add column added_later int');
      expect((await userById.run(tx, { uId: ann.uId }))[0]).toMatchObject({ uId: ann.uId, firstName: 'Ann' });
      throw new Error('roll back'); // the column goes with the transaction
    })
    .catch((err: Error) => expect(err.message).toBe('roll back'));
});

const nameOf = (prepared: boolean) =>
  readModel<string, [uId: number], { name: string }>({
    sql: (n) =>
      `select ${n(User).column('firstName')} as ${prepared ? 'name' : 'unprepared'} from ${n(User).table} where ${n(User).column('uId')} = ?`,
    shape: (row) => Object.values(row)[0],
    prepared,
  });
const userName = nameOf(true);
const userNameUnprepared = nameOf(false);
const userRow = readModel<User, [number]>({
  entity: User,
  sql: (n) => `select ${n(User).columns()} from ${n(User).table} where ${n(User).column('uId')} = ?`,
  prepared: true,
});
/** The same row, not prepared, mapped by the entity and then shaped. */
const userSince = readModel<{ uId: number; since: Date }, [number], User>({
  entity: User,
  sql: (n) => `select ${n(User).columns()} from ${n(User).table} as unprepared_user where ${n(User).column('uId')} = ?`,
  shape: (user) => ({ uId: user.uId, since: user.createdAt }),
});

it('when a read model runs for two users, then each gets its own row', async () => {
  const [ann, bob] = [await t.newUser({ firstName: 'Ann' }), await t.newUser({ firstName: 'Bob' })];
  await t.orm.em.fork().transactional(async (tx) => {
    expect(await userName(tx, ann.uId)).toEqual(['Ann']);
    expect(await userName(tx, bob.uId)).toEqual(['Bob']);
  });
});

// The embedded PGlite is sent each statement with its values, unnamed: nothing to see there.
(process.env.DATABASE_URL ? it : it.skip)(
  'when a read model runs for two users, then the connection holds one prepared statement for both (PostgreSQL server only)',
  async () => {
    const [ann, bob] = [await t.newUser({ firstName: 'Ann' }), await t.newUser({ firstName: 'Bob' })];
    await t.orm.em.fork().transactional(async (tx) => {
      expect(await userName(tx, ann.uId)).toEqual(['Ann']);
      expect(await userName(tx, bob.uId)).toEqual(['Bob']);
      const prepared = await runSql<{ statement: string }>(
        tx,
        `select statement from pg_prepared_statements where statement like '% as name from "app_user" %'`,
      );
      expect(prepared.map((p) => p.statement)).toEqual([`select "first_name" as name from "app_user" where "u_id" = $1`]);
    });
  },
);

it('when a read model is not marked prepared, then its values are written into its text and nothing is prepared for it', async () => {
  const ann = await t.newUser({ firstName: 'Ann' });
  await t.orm.em.fork().transactional(async (tx) => {
    expect(await userNameUnprepared(tx, ann.uId)).toEqual(['Ann']);
    expect(await runSql(tx, `select statement from pg_prepared_statements where statement like '%unprepared%'`)).toEqual([]);
  });
});

it('when a read model names an entity, then its rows carry the property names and values of the entity, outside the identity map', async () => {
  const ann = await t.newUser({ firstName: 'Ann' });
  const tx = t.orm.em.fork();
  const [row] = await userRow(tx, ann.uId);
  expect(row).toMatchObject({ uId: ann.uId, firstName: 'Ann', active: true });
  expect(row).not.toBeInstanceOf(User);
  expect(row.createdAt).toBeInstanceOf(Date);
  expect(tx.getUnitOfWork().getById(User, ann.uId)).toBeUndefined();
  expect(await userSince(tx, ann.uId)).toEqual([{ uId: ann.uId, since: row.createdAt }]);
  expect(await runSql(tx, `select statement from pg_prepared_statements where statement like '%unprepared_user%'`)).toEqual([]);
});

/** Runs a statement by hand, told prepared (twice) and untold, and answers what the connection then holds prepared. */
async function byHand(uId: number) {
  return t.orm.em.fork().transactional(async (tx) => {
    const byHand = `select first_name as by_hand_prepared from app_user where u_id = ?`;
    expect(await runSql(tx, byHand, [uId], { prepared: true })).toEqual([{ by_hand_prepared: 'Ann' }]);
    expect(await runSql(tx, byHand, [uId], { prepared: true })).toEqual([{ by_hand_prepared: 'Ann' }]);
    expect(await runSql(tx, `select $1::int + $1::int as by_hand_twice`, [2], { prepared: true })).toEqual([{ by_hand_twice: 4 }]);
    expect(await runSql(tx, `select first_name as by_hand_unprepared from app_user where u_id = ?`, [uId])).toEqual([
      { by_hand_unprepared: 'Ann' },
    ]);
    const prepared = await runSql<{ statement: string }>(
      tx,
      `select statement from pg_prepared_statements where statement like '%as by_hand_%' order by statement`,
    );
    return prepared.map((p) => p.statement);
  });
}

it('when runSql is told prepared, then its "?" are numbered and its answers are the rows', async () => {
  await byHand((await t.newUser({ firstName: 'Ann' })).uId);
});

(process.env.DATABASE_URL ? it : it.skip)(
  'when runSql is told prepared, then it is prepared once; untold, nothing is prepared (PostgreSQL server only)',
  async () => {
    expect(await byHand((await t.newUser({ firstName: 'Ann' })).uId)).toEqual([
      `select $1::int + $1::int as by_hand_twice`,
      `select first_name as by_hand_prepared from app_user where u_id = $1`,
    ]);
  },
);

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
