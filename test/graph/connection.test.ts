// The cursor connection helpers of src/graphql/connection.ts on the real database, over the keyset
// window of src/db/keyset.ts: a window pages many parents in one statement, each parent's page starting right after the cursor's row
// (or, backward with last/before, ending right before it) however many rows arrive meanwhile;
// pageInfo as Relay's algorithm has it both ways; cursors of another list, or not cursors at all,
// `first` or `last` outside 1..100, and both at once are WSInvalidParameterException naming the
// argument.
import { useTestApp } from '../kit';
import { walkBothWays, type PagingVariables } from '../kit/paging';
import { serviceErrorOf } from '../kit/errors';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { EntityManager } from '@mikro-orm/core';
import { KeysetWindow } from '../../src/db/keyset';
import { Query, send } from '../../src/db/sql';
import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type OperationDefinitionNode } from 'graphql';
import {
  asksTotal,
  encodeCursor,
  pageLoader,
  pageRequest,
  pagesByGroup,
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

/** The last statement a window of `windowOver` ran: its text and values. */
let last: { text: string; values: unknown[] } | undefined;

/**
 * A keyset window over the rows of a test table (no entity: its names pass through as they are),
 * selecting `columns` of the parent's rows (`g`); each statement it runs is kept in `last`.
 */
function windowOver<R>(table: string, columns: Record<string, RawBuilder<unknown>>, order: readonly OrderColumn[]) {
  return new KeysetWindow<object, R>(
    (build) => {
      const query = new Query<Record<string, unknown>, never>(build as never);
      return {
        sql: (em: EntityManager) => query.sql(em),
        run: (em: EntityManager, args: Record<string, unknown>) => {
          const compiled = (query as unknown as { compiled(em: EntityManager): { values(args: unknown): unknown[] } }).compiled(em);
          last = { text: query.sql(em), values: compiled.values(args) };
          return query.run(em, args);
        },
      };
    },
    (db, _p, parent) =>
      (db as unknown as Kysely<Record<string, { g: number }>>)
        .selectFrom(table)
        .select(Object.entries(columns).map(([name, expression]) => expression.as(name)))
        .where('g', '=', parent),
    order,
  );
}

/** The statement `run` ran last, explained (`explain` and its options). */
async function explainLast(run: () => Promise<unknown>, explain: string) {
  await run();
  return send<Record<string, unknown>>(t.orm.em.fork(), `${explain} ${last!.text}`, last!.values, false);
}

const probeWindow = windowOver<Row>('conn_probe', { g: sql`g`, at: sql`at::float8`, id: sql`id` }, ORDER);

async function pages(groups: number[], request: PageRequest) {
  const rows = await probeWindow.run(t.orm.em.fork(), groups, {}, request);
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

it('walks a list backward with last/before: the forward walk in reverse page order, pageInfo exact both ways', async () => {
  const read = async (variables: PagingVariables) => (await pages([1], pageRequest('probe', ORDER, variables)))[0];
  for (const size of [1, 2, 3, 7, 100]) {
    const { forward, backward } = await walkBothWays(read, size, [7, 6, 5, 4, 3, 2, 1]);
    expect([forward.length, backward.length]).toEqual([Math.ceil(7 / size), Math.ceil(7 / size)]);
    expect(backward.every((p) => p.totalCount === 7)).toBe(true);
  }
  // Size 3, backward: the last three, then the three before id 3, then what is left.
  const { backward } = await walkBothWays(read, 3, [7, 6, 5, 4, 3, 2, 1]);
  expect(backward.map(ids)).toEqual([[3, 2, 1], [6, 5, 4], [7]]);
});

it('reads the last pages of every group in one statement, each in its order, with its total', async () => {
  let result: Awaited<ReturnType<typeof pages>> = [];
  const request = pageRequest('probe', ORDER, { last: 3 });
  const statements = await t.countStatements(async () => (result = await pages([1, 2, 3], request)));
  expect(statements).toBe(1);
  expect(result.map(ids)).toEqual([[3, 2, 1], [12, 11], []]);
  expect(result.map((p) => p.totalCount)).toEqual([7, 2, 0]);
  expect(result.map((p) => p.pageInfo)).toEqual([
    { hasNextPage: false, hasPreviousPage: true, startCursor: encodeCursor('probe', [30, 3]), endCursor: encodeCursor('probe', [10, 1]) },
    { hasNextPage: false, hasPreviousPage: false, startCursor: encodeCursor('probe', [6, 12]), endCursor: encodeCursor('probe', [5, 11]) },
    { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
  ]);
});

it("tells from each group's own rows whether edges lie beyond the cursor a page is read away from", async () => {
  // One cursor for two groups, as a field under many parents is given: group 1's row (50, 5) is
  // in the middle of group 1 and before every row of group 2 (times 6 and 5, newest first).
  const middle = encodeCursor('probe', [50, 5]);
  const [one, two] = await pages([1, 2], pageRequest('probe', ORDER, { first: 5, after: middle }));
  expect([ids(one), one.pageInfo.hasPreviousPage, ids(two), two.pageInfo.hasPreviousPage]).toEqual([[4, 3, 2, 1], true, [12, 11], false]);
  // Backward from a cursor after every row of group 1 and between the two rows of group 2.
  const late = encodeCursor('probe', [5, 11]);
  const [a, b] = await pages([1, 2], pageRequest('probe', ORDER, { last: 2, before: late }));
  expect([ids(a), a.pageInfo, ids(b), b.pageInfo]).toEqual([
    [2, 1],
    { hasNextPage: false, hasPreviousPage: true, startCursor: encodeCursor('probe', [20, 2]), endCursor: encodeCursor('probe', [10, 1]) },
    [12],
    { hasNextPage: true, hasPreviousPage: false, startCursor: encodeCursor('probe', [6, 12]), endCursor: encodeCursor('probe', [6, 12]) },
  ]);
  // A cursor whose row is gone still bounds the page; the rows beyond it are what says hasNextPage.
  const gone = encodeCursor('probe', [40, 40]);
  const [back] = await pages([1], pageRequest('probe', ORDER, { last: 2, before: gone }));
  expect([ids(back), back.pageInfo.hasNextPage, back.pageInfo.hasPreviousPage]).toEqual([[6, 5], true, true]);
  // Before the first row: nothing before it, and the whole list after it.
  const [none] = await pages([1], pageRequest('probe', ORDER, { last: 2, before: encodeCursor('probe', [70, 7]) }));
  expect([ids(none), none.pageInfo]).toEqual([[], { hasNextPage: true, hasPreviousPage: false, startCursor: null, endCursor: null }]);
  // After a key past the last row: an empty page, every row before it.
  const [end] = await pages([1], pageRequest('probe', ORDER, { first: 2, after: encodeCursor('probe', [1, 1]) }));
  expect([ids(end), end.pageInfo.hasPreviousPage, end.pageInfo.hasNextPage]).toEqual([[], true, false]);
  // After a key before the first row: the list from its start, with nothing before it.
  const [top] = await pages([1], pageRequest('probe', ORDER, { first: 2, after: encodeCursor('probe', [99, 99]) }));
  expect([ids(top), top.pageInfo.hasPreviousPage, top.pageInfo.hasNextPage]).toEqual([[7, 6], false, true]);
});

it('pages the rows between after and before with first or with last, as Relay applies both cursors', async () => {
  const after = encodeCursor('probe', [70, 7]);
  const before = encodeCursor('probe', [20, 2]);
  // The window is 6, 5, 4, 3.
  const [head] = await pages([1], pageRequest('probe', ORDER, { first: 2, after, before }));
  expect([ids(head), head.pageInfo.hasNextPage, head.pageInfo.hasPreviousPage]).toEqual([[6, 5], true, true]);
  const [tail] = await pages([1], pageRequest('probe', ORDER, { last: 2, after, before }));
  expect([ids(tail), tail.pageInfo.hasNextPage, tail.pageInfo.hasPreviousPage]).toEqual([[4, 3], true, true]);
  const [whole] = await pages([1], pageRequest('probe', ORDER, { last: 10, after, before }));
  expect([ids(whole), whole.pageInfo.hasNextPage, whole.pageInfo.hasPreviousPage]).toEqual([[6, 5, 4, 3], true, false]);
  // With first, hasNextPage speaks of the window: nothing past id 3 before the cursor.
  const [all] = await pages([1], pageRequest('probe', ORDER, { first: 10, after, before }));
  expect([ids(all), all.pageInfo.hasNextPage, all.pageInfo.hasPreviousPage]).toEqual([[6, 5, 4, 3], false, true]);
});

it('reads a backward page by keyset in the reverse order: the rows of the page, not the list', async () => {
  await t.sql('create table conn_long (g int not null, at bigint not null, id int primary key)');
  await t.sql('create index conn_long_g_at_id on conn_long (g, at, id)');
  await t.sql('insert into conn_long select 1, k, k from generate_series(1, 5000) k');
  await t.sql('analyze conn_long');
  const order: OrderColumn[] = [
    { column: 'at', kind: 'int' },
    { column: 'id', kind: 'int' },
  ];
  const longWindow = windowOver<Row>('conn_long', { g: sql`g`, at: sql`at`, id: sql`id` }, order);
  // The rows the scans of the statement read (those they kept and those their filter dropped), summed over its plan.
  const scanned = async (request: PageRequest) => {
    const [row] = await explainLast(() => longWindow.run(t.orm.em.fork(), [1], {}, request), 'explain (analyze, format json)');
    const plan = typeof row['QUERY PLAN'] === 'string' ? JSON.parse(row['QUERY PLAN']) : row['QUERY PLAN'];
    let rows = 0;
    const visit = (node: any) => {
      if (/Scan/.test(node['Node Type']) && node['Relation Name'] === 'conn_long')
        rows += (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'];
      (node.Plans ?? []).forEach(visit);
    };
    visit(plan[0].Plan);
    return rows;
  };
  const middle = pageRequest('long', order, { last: 3, before: encodeCursor('long', [2500, 2500]) });
  const [page] = pagesByGroup(
    [1],
    await longWindow.run(t.orm.em.fork(), [1], {}, { ...middle, counted: false }),
    middle,
    (r) => encodeCursor('long', [r.at, r.id]),
    (r) => r.id,
  );
  expect([ids(page), page.pageInfo.hasNextPage, page.pageInfo.hasPreviousPage]).toEqual([[2497, 2498, 2499], true, true]);
  // The page's 4 rows, the cursor's own row the index range starts at, and the probe's 1, forward
  // and backward alike; the list has 5000 rows, 2500 of them on the far side of the cursor.
  expect(await scanned({ ...middle, counted: false })).toBeLessThanOrEqual(6);
  expect(await scanned({ ...pageRequest('long', order, { last: 3 }), counted: false })).toBeLessThanOrEqual(4);
  expect(
    await scanned({ ...pageRequest('long', order, { first: 3, after: encodeCursor('long', [2500, 2500]) }), counted: false }),
  ).toBeLessThanOrEqual(6);
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
  const plan = async (r: PageRequest) => {
    const rows = await explainLast(() => probeWindow.run(t.orm.em.fork(), [1, 2], {}, r), 'explain');
    return rows.map((row) => row['QUERY PLAN']).join('\n');
  };
  const three: PageRequest = { size: 3, backward: false, after: null, before: null };
  expect(await plan(three)).toMatch(/Aggregate/);
  expect(await plan({ ...three, counted: false })).not.toMatch(/Aggregate/);
  expect(await plan({ ...three, backward: true, counted: false })).not.toMatch(/Aggregate/);
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
  const forward = { backward: false, after: null, before: null };
  expect(pageRequest('probe', ORDER, { first: 100 })).toEqual({ size: 100, ...forward });
  // first null or omitted: the default page of 20.
  expect(pageRequest('probe', ORDER, { first: null })).toEqual({ size: 20, ...forward });
  expect(pageRequest('probe', ORDER, {})).toEqual({ size: 20, ...forward });
  expect(pageRequest('probe', ORDER, { first: null, last: null, after: null, before: null })).toEqual({ size: 20, ...forward });
  const notOurs = { code: 'WSInvalidParameterException', field: 'after', message: 'after is not a cursor of this list.' };
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('other', [1, 2]) }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [1]) }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: 'not a cursor!' }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: Buffer.from('{"a":1}').toString('base64url') }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [1, { x: 1 } as never]) }))).toEqual(notOurs);
  // A key value of another kind than its column's: text where the order has an integer.
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', ['2027-01-01', 3]) }))).toEqual(notOurs);
  expect(err(() => pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [1.5, 3]) }))).toEqual(notOurs);
  expect(pageRequest('probe', ORDER, { first: 1, after: encodeCursor('probe', [30, 3]) })).toEqual({ ...forward, size: 1, after: [30, 3] });
  const MICROS: OrderColumn[] = [{ column: 'at', kind: 'micros' }];
  expect(pageRequest('probe', MICROS, { first: 1, after: encodeCursor('probe', ['1732442400123456']) })).toEqual({
    ...forward,
    size: 1,
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
  const instantWindow = windowOver<{ us: string | bigint; id: number } & Row>(
    'conn_instant',
    { at: sql`at`, us: sql`(extract(epoch from at) * 1000000)::bigint`, id: sql`id` },
    order,
  );
  const walk = async () => {
    const seen: number[] = [];
    let after: string | null = null;
    for (let i = 0; i < 10; i++) {
      const request = pageRequest('instant', order, { first: 1, after });
      const rows = await instantWindow.run(t.orm.em.fork(), [1], {}, request);
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
