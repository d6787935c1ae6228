// Queries go to PostgreSQL as prepared statements when told so (src/db/sql.ts): one per statement
// and connection, planned once, their values apart from their text; rows come under the entities'
// property names, instants as Dates; and a column a later migration adds does not break the
// statement a running instance has prepared.
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { useTestApp } from '../kit';
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
async function preparedLike(tx: EntityManager, marker: string): Promise<string[]> {
  const rows = await (tx as SqlEntityManager).execute<{ statement: string }[]>(
    `select statement from pg_prepared_statements where statement like ?`,
    [`%${marker}%`],
  );
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
      await (tx as SqlEntityManager).execute('alter table app_user add column added_later int');
      expect((await userById.run(tx, { uId: ann.uId }))[0]).toMatchObject({ uId: ann.uId, firstName: 'Ann' });
      throw new Error('roll back'); // the column goes with the transaction
    })
    .catch((err: Error) => expect(err.message).toBe('roll back'));
});
