// The cursor connection helpers of src/graphql/connection.ts on the real database: keysetWindow
// pages many parents in one statement, each parent's page starting right after the cursor's row
// however many rows arrive meanwhile; cursors of another list, or not cursors at all, and `first`
// outside 1..100 are WSInvalidParameterException naming the argument.
import { useTestApp } from '../kit';
import { serviceErrorOf } from '../kit/errors';
import { runSql } from '../../src/db/lean';
import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type OperationDefinitionNode } from 'graphql';
import {
  asksTotal,
  encodeCursor,
  keysetWindow,
  microsOf,
  pageLoader,
  pageRequest,
  pagesByGroup,
  WINDOW_PARENT,
  type OrderColumn,
  type PageRequest,
} from '../../src/graphql/connection';

const t = useTestApp({ demo: false });

type Row = { g: number; at: number; id: number; _total: number; _page: boolean; _parent: number };

const ORDER: OrderColumn[] = [
  { column: 'at', desc: true, kind: 'int' },
  { column: 'id', desc: true, kind: 'int' },
];

beforeAll(async () => {
  await t.sql('create table conn_probe (g int not null, at bigint not null, id int primary key)');
  // Group 1: ids 1..7 at times 10,20,..,70 (two share time 30: ids 3 and 4); group 2: ids 11..12; group 3: none.
  await t.sql(`insert into conn_probe values (1,10,1),(1,20,2),(1,30,3),(1,30,4),(1,50,5),(1,60,6),(1,70,7),(2,5,11),(2,6,12)`);
});

async function pages(groups: number[], request: PageRequest) {
  const candidates = `select g, at::float8 as at, id from conn_probe where g = ${WINDOW_PARENT}`;
  const { sql, params } = keysetWindow(candidates, [], groups, ORDER, request);
  const rows = await runSql<Row>(t.orm.em.fork(), sql, params);
  const cursorOf = (r: Row) => encodeCursor('probe', [r.at, r.id]);
  return pagesByGroup(groups, rows, request, cursorOf, (r) => r.id);
}

const ids = (page: { edges: { node: number }[] }) => page.edges.map((e) => e.node);

it('reads the first page of every group in one statement, newest first, with each total', async () => {
  let result: Awaited<ReturnType<typeof pages>> = [];
  const statements = await t.countStatements(async () => (result = await pages([1, 2, 3], pageRequest('probe', ORDER, { first: 3 }))));
  expect(statements).toBe(1);
  expect(result.map(ids)).toEqual([[7, 6, 5], [12, 11], []]);
  expect(result.map((p) => p.totalCount)).toEqual([7, 2, 0]);
  expect(result.map((p) => p.pageInfo.hasNextPage)).toEqual([true, false, false]);
  expect(result[0].pageInfo).toEqual({
    hasNextPage: true,
    hasPreviousPage: false,
    startCursor: encodeCursor('probe', [70, 7]),
    endCursor: encodeCursor('probe', [50, 5]),
  });
  expect(result[2].pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
});

it('walks a list to its end exactly once, ties on the first key included, and keeps totals past the end', async () => {
  const seen: number[] = [];
  let after: string | null = null;
  for (let i = 0; i < 10; i++) {
    const [page]: Awaited<ReturnType<typeof pages>> = await pages([1], pageRequest('probe', ORDER, { first: 2, after }));
    seen.push(...ids(page));
    expect(page.totalCount).toBe(7);
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
  // After the last row: an empty page that still knows the total.
  const [end] = await pages([1, 2], pageRequest('probe', ORDER, { first: 2, after: encodeCursor('probe', [10, 1]) }));
  expect(ids(end)).toEqual([]);
  expect(end.totalCount).toBe(7);
  expect(end.pageInfo.hasPreviousPage).toBe(true);
});

/** The resolve info of the connection field `probe` in `document` (what a resolver is given). */
function infoOf(document: string): GraphQLResolveInfo {
  const doc = parse(document);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const fragments = Object.fromEntries(
    doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  return { fieldNodes: [op.selectionSet.selections[0] as FieldNode], fragments } as unknown as GraphQLResolveInfo;
}

it('counts only when the total is wanted; the pages are the same', async () => {
  expect(asksTotal(infoOf('{ probe { edges { cursor node } pageInfo { hasNextPage } } }'))).toBe(false);
  expect(asksTotal(infoOf('{ probe { totalCount } }'))).toBe(true);
  expect(asksTotal(infoOf('{ probe { ...P } } fragment P on ProbeConnection { ... on ProbeConnection { totalCount } }'))).toBe(true);
  const counted = await pages([1, 2, 3], pageRequest('probe', ORDER, { first: 3 }));
  const uncounted = await pages([1, 2, 3], { ...pageRequest('probe', ORDER, { first: 3 }), counted: false });
  expect(counted.map((p) => p.totalCount)).toEqual([7, 2, 0]);
  expect(uncounted.map((p) => p.totalCount)).toEqual([0, 0, 0]);
  const pagesOnly = (list: typeof counted) => list.map(({ edges, pageInfo }) => ({ edges, pageInfo }));
  expect(pagesOnly(uncounted)).toEqual(pagesOnly(counted));
  // The statement does not count: no aggregate in its plan.
  const candidates = `select g, at::float8 as at, id from conn_probe where g = ${WINDOW_PARENT}`;
  const plan = async (r: PageRequest) => {
    const { sql, params } = keysetWindow(candidates, [], [1, 2], ORDER, r);
    const rows = await runSql<{ 'QUERY PLAN': string }>(t.orm.em.fork(), `explain ${sql}`, params);
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  };
  expect(await plan({ first: 3, after: null })).toMatch(/Aggregate/);
  expect(await plan({ first: 3, after: null, counted: false })).not.toMatch(/Aggregate/);
});

it('a pageLoader reads once a tick, counting when any load asks; a later load that asks reads again', async () => {
  const reads: { parents: number[]; counted: boolean }[] = [];
  const loader = pageLoader(async (parents, counted) => {
    reads.push({ parents: [...parents], counted });
    return pages([...parents], { ...pageRequest('probe', ORDER, { first: 1 }), counted });
  });
  const [a, b, c] = await Promise.all([
    loader.load({ parent: 1, counted: false }),
    loader.load({ parent: 1, counted: true }),
    loader.load({ parent: 2, counted: false }),
  ]);
  expect(reads).toEqual([{ parents: [1, 2], counted: true }]);
  expect([a.totalCount, b.totalCount, c.totalCount]).toEqual([7, 7, 2]);
  const uncounted = pageLoader(async (parents, counted) => {
    reads.push({ parents: [...parents], counted });
    return pages([...parents], { ...pageRequest('probe', ORDER, { first: 1 }), counted });
  });
  expect((await uncounted.load({ parent: 1, counted: false })).totalCount).toBe(0);
  expect((await uncounted.load({ parent: 1, counted: true })).totalCount).toBe(7);
  expect(reads.slice(1)).toEqual([
    { parents: [1], counted: false },
    { parents: [1], counted: true },
  ]);
});

it('is stable when rows arrive between pages', async () => {
  const [first] = await pages([1], pageRequest('probe', ORDER, { first: 3 }));
  await t.sql('insert into conn_probe values (1, 80, 8), (1, 55, 9)');
  try {
    const [second] = await pages([1], pageRequest('probe', ORDER, { first: 3, after: first.pageInfo.endCursor }));
    // Starts right after id 5 (time 50); the new row at 55 sits before the cursor and is not repeated or skipped into this page.
    expect(ids(second)).toEqual([4, 3, 2]);
    expect(second.totalCount).toBe(9);
  } finally {
    await t.sql('delete from conn_probe where id in (8, 9)');
  }
});

it('refuses first outside 1..100 and cursors that are not this list', () => {
  const err = serviceErrorOf;
  expect(err(() => pageRequest('probe', ORDER, { first: 0 }))).toEqual({
    code: 'WSInvalidParameterException',
    field: 'first',
    message: 'first must be from 1 to 100.',
  });
  expect(err(() => pageRequest('probe', ORDER, { first: 101 }))).toMatchObject({ code: 'WSInvalidParameterException', field: 'first' });
  expect(pageRequest('probe', ORDER, { first: 100 })).toEqual({ first: 100, after: null });
  // first null or omitted: the default page of 20.
  expect(pageRequest('probe', ORDER, { first: null })).toEqual({ first: 20, after: null });
  expect(pageRequest('probe', ORDER, {})).toEqual({ first: 20, after: null });
  const notOurs = { code: 'WSInvalidParameterException', field: 'after', message: 'after is not a cursor of this list.' };
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('other', [1, 2]) }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [1]) }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: 'not a cursor!' }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: Buffer.from('{"a":1}').toString('base64url') }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [1, { x: 1 } as never]) }))).toEqual(notOurs);
  // A key value of another kind than its column's: text where the order has an integer.
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', ['2027-01-01', 3]) }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [1.5, 3]) }))).toEqual(notOurs);
  expect(pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [30, 3]) })).toEqual({ first: 1, after: [30, 3] });
  const MICROS: OrderColumn[] = [{ column: 'at', kind: 'micros' }];
  expect(pageRequest('probe', MICROS, { first: 1, after: encodeCursor('probe', ['1732442400123456']) })).toEqual({
    first: 1,
    after: ['1732442400123456'],
  });
  // An instant key is microseconds as integer text: a number of milliseconds is not one.
  expect(err(() => pageRequest('probe', MICROS, { first: 1, after: encodeCursor('probe', [1732442400123]) }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', MICROS, { first: 1, after: encodeCursor('probe', ['12:00']) }))).toEqual(notOurs);
  // Years 1 to 9999 only: PostgreSQL would fail on the others (bigint, timestamptz) with an internal error.
  for (const v of ['253402300799999999', '-62135596800000000'])
    expect(pageRequest('probe', MICROS, { first: 1, after: encodeCursor('probe', [v]) }).after).toEqual([v]);
  for (const v of ['253402300800000000', '-62135596800000001', '9999999999999999999'])
    expect(err(() => pageRequest('probe', MICROS, { first: 1, after: encodeCursor('probe', [v]) }))).toEqual(notOurs);
});

it('orders an instant key by the column itself, to the microsecond, and walks it with microsecond cursors', async () => {
  // Four rows inside one millisecond and one a second later: milliseconds could not tell them apart.
  await t.sql('create table conn_instant (g int not null, at timestamptz not null, id int primary key)');
  await t.sql('create index conn_instant_g_at on conn_instant (g, at)');
  await t.sql(`insert into conn_instant values
    (1, '2026-11-24 10:00:00.123400+00', 1), (1, '2026-11-24 10:00:00.123100+00', 2),
    (1, '2026-11-24 10:00:00.123900+00', 3), (1, '2026-11-24 10:00:00.123100+00', 4), (1, '2026-11-24 10:00:01+00', 5)`);
  const order: OrderColumn[] = [
    { column: 'at', desc: true, kind: 'micros' },
    { column: 'id', desc: true, kind: 'int' },
  ];
  const walk = async () => {
    const seen: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const request = pageRequest('instant', order, { first: 1, after });
      const { sql, params } = keysetWindow(
        `select at, ${microsOf('at')} as us, id from conn_instant where g = ${WINDOW_PARENT}`,
        [],
        [1],
        order,
        request,
      );
      const rows = await runSql<{ us: string | bigint; id: number } & Row>(t.orm.em.fork(), sql, params);
      const [page] = pagesByGroup(
        [1],
        rows,
        request,
        (r) => encodeCursor('instant', [String(r.us), r.id]),
        (r) => r.id,
      );
      seen.push(...page.edges.map((e) => e.node));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    return seen;
  };
  expect(await walk()).toEqual([5, 3, 1, 4, 2]);
});
