// A long list read as one packed value (src/modules/discovery/packed.ts): PostgreSQL joins the
// rows, the service splits them; the rows read back are exactly the plain rows, NULL and the empty
// text apart; and a value that holds a separator, or is the NULL mark, is never misread: the same
// rows are then read plain, in a second statement.
import { useTestApp } from '../kit';
import { packing, readPacked } from '../../src/modules/discovery/packed';
import { runSql } from '../../src/db/lean';

const t = useTestApp({ demo: false });

const COLUMNS = packing({
  id: ['v.id', 'int'],
  name: ['v.name', 'text'],
  note: ['v.note', 'text?'],
  flag: ['v.flag', 'bool'],
});

type Values = [id: number | null, name: string | null, note: string | null, flag: boolean | null][];

const TYPES = ['int', 'text', 'text', 'bool'];

/** The rows of a VALUES list through readPacked, with the statements it sent. */
async function read(values: Values) {
  const params: unknown[] = [];
  const list = values.map((row) => `(${row.map((v, i) => `$${params.push(v)}::${TYPES[i]}`).join(', ')})`).join(', ');
  const from = values.length
    ? `(values ${list}) v(id, name, note, flag)`
    : `(select 1 as id, '' as name, '' as note, true as flag where false) v`;
  let rows: unknown;
  const statements = await t.countStatements(async () => {
    rows = await readPacked(t.orm.em.fork(), COLUMNS, (em, select) =>
      runSql(em, `select ${select} from ${from}`, params, { prepared: true }),
    );
  });
  return { rows, statements };
}

const asRows = (values: Values) => values.map(([id, name, note, flag]) => ({ id, name, note, flag }));

it('reads the rows back as they are, in one statement: integers, booleans, texts, NULL apart from the empty text', async () => {
  const values: Values = [
    [1, 'Ann', null, true],
    [-20, '', '', false],
    [2000000000, 'Zoë 👋 "quoted", back\\slash', 'line\nbreak\ttab', true],
    // A record separator is an ordinary character (only the unit separator divides values).
    [3, 'Ann\u001eBob', '\u001e', false],
    [4, 'Dan', 'a note', false],
  ];
  expect(await read(values)).toEqual({ rows: asRows(values), statements: 1 });
});

it('reads no rows as an empty list', async () => {
  expect(await read([])).toEqual({ rows: [], statements: 1 });
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
  [
    'the NULL mark in one row and a NULL in another, as many of each',
    [
      [1, 'Ann', '\u001d', true],
      [2, 'Bob', null, false],
    ],
  ],
] as [string, Values][])('when a value holds %s, then the rows are read plain, in a second statement, and exactly', async (_, values) => {
  const { rows, statements } = await read(values);
  expect(statements).toBe(2);
  expect(rows).toEqual(asRows(values));
});
