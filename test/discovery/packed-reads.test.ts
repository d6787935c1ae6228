// A long list read as one packed value (src/modules/discovery/discovery.packed.ts): PostgreSQL joins
// the rows into one text (discovery.queries.ts packedSelection, as the recommended companies'
// statement writes it), the service splits it. Every column kind reads back exactly as the plain
// rows would (integers, booleans, texts, NULL apart from the empty text); a value that holds a
// separator, or is the NULL mark, is never misread: the decoder answers nothing, and the service
// then reads the plain rows (test/discovery/recommended.test.ts counts that second statement).
import { sql } from 'kysely';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { useTestApp } from '../kit';
import { packing } from '../../src/modules/discovery/discovery.packed';
import { packedSelection } from '../../src/modules/discovery/discovery.queries';

const t = useTestApp({ demo: false });

const KINDS = { id: 'int', name: 'text', note: 'text?', flag: 'bool' } as const;
const COLUMNS = Object.entries(KINDS).map(([name, kind]) => [sql.ref(`v.${name}`), kind] as const);
const packed = packing(KINDS);

type Values = [id: number | null, name: string | null, note: string | null, flag: boolean | null][];

const TYPES = ['int', 'text', 'text', 'bool'];

/** The rows of a VALUES list, packed by PostgreSQL as the statement packs them, and decoded (undefined: read them plain). */
async function read(values: Values) {
  const list = values.length
    ? sql.join(values.map((row) => sql`(${sql.join(row.map((v, i) => sql`${v}::${sql.raw(TYPES[i])}`))})`))
    : sql`(1, '', '', true)`;
  const db = (t.orm.em.fork() as SqlEntityManager).getKysely();
  const [result] = await db
    .selectFrom(sql`(values ${list})`.as(sql`v(id, name, note, flag)` as never))
    .select(packedSelection(COLUMNS))
    .$if(!values.length, (q) => q.where(sql<boolean>`false`))
    .execute();
  return packed.unpack(result);
}

const asRows = (values: Values) => values.map(([id, name, note, flag]) => ({ id, name, note, flag }));

it('reads every kind back as it is: integers, booleans, texts, NULL apart from the empty text, separators that are ordinary characters', async () => {
  const values: Values = [
    [1, 'Ann', null, true],
    [-20, '', '', false],
    [2000000000, 'Zoë 👋 "quoted", back\\slash', 'line\nbreak\ttab', true],
    // A record separator is an ordinary character (only the unit separator divides values).
    [3, 'Ann\u001eBob', '\u001e', false],
    [4, 'Dan', 'a note', false],
  ];
  expect(await read(values)).toEqual(asRows(values));
});

it('reads no rows as an empty list', async () => {
  expect(await read([])).toEqual([]);
});

it.each([
  ['a unit separator in a text', [[1, 'Ann', 'one\u001ftwo', true]]],
  ['separators that make up a whole second row', [[1, `Ann\u001f\u001d\u001ft\u001f2\u001fForged`, null, true]]],
  ['the NULL mark where the text is declared NOT NULL', [[1, '\u001d', 'note', true]]],
  [
    'a separator in one row and a NULL where the column is declared NOT NULL in another',
    [
      [1, 'Ann\u001fBob', 'note', true],
      [2, null, 'note', false],
    ],
  ],
  ['a nullable text that is the NULL mark itself', [[1, 'Ann', '\u001d', false]]],
  ['a NULL where the column is declared NOT NULL', [[null, 'Ann', 'note', true]]],
  ['a NULL boolean', [[1, 'Ann', 'note', null]]],
  [
    'the NULL mark in one row and a NULL in another, as many of each',
    [
      [1, 'Ann', '\u001d', true],
      [2, 'Bob', null, false],
    ],
  ],
] as [string, Values][])('when a value holds %s, then the decoder answers nothing (the rows are read plain)', async (_, values) => {
  expect(await read(values)).toBeUndefined();
});

it('refuses a text where an integer or a boolean is declared', () => {
  const one = (packedText: string) => packing(KINDS).unpack({ n: 1, nulls: 0, packed: packedText });
  expect(one(['7', 'Ann', 'x', 't'].join('\u001f'))).toEqual([{ id: 7, name: 'Ann', note: 'x', flag: true }]);
  expect(one(['7.5', 'Ann', 'x', 't'].join('\u001f'))).toBeUndefined();
  expect(one(['7', 'Ann', 'x', 'true'].join('\u001f'))).toBeUndefined();
});
