// Keyset windows in Kysely: the page of every parent of a list in one statement (src/graphql/connection.ts
// says what a page is: `first`/`after` forward, `last`/`before` backward, each parent's total, the
// cursors). A window's statement depends on the request's shape only (which cursors it has, its
// direction, whether a total is wanted), never on its values: each shape is compiled once, on first
// use, and run with its parameters (src/db/sql.ts Query), as every hand-written read is.
import type { EntityManager } from '@mikro-orm/core';
import { sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { KeyValue, OrderColumn, PageRequest } from './paging';
import type { BuildHelpers } from './sql-types';

/** The name, in candidate rows, of the instant a `micros` order column orders by (instantKey). */
export const INSTANT_COLUMN = '_at';

/**
 * The column names a window adds to each row: its parent, its parent's total, its place in the
 * page, and (only when the request has the cursor the page is read away from) whether the list has
 * rows past that cursor, pageOf's `beyond`.
 */
export const WINDOW_TOTAL = '_total';
export const WINDOW_PAGE = '_page';
export const WINDOW_PARENT_COLUMN = '_parent';
export const WINDOW_BEYOND = '_beyond';

/** A query that selects rows of any shape: what a window wraps (it names only its own aliases). */
type AnyQuery = SelectQueryBuilder<never, never, object>;

/**
 * The rows of one parent that the window pages: `parent` is the parent's id (an int expression the
 * candidates compare their parent column with), `p` the query's parameters. The rows carry the
 * order's columns under their names (none null, the last one unique within a parent).
 */
export type Candidates<DB, P> = (db: Kysely<DB>, p: P, parent: Expression<number>, helpers: BuildHelpers) => AnyQuery;

/**
 * A statement around the window's rows (`window`, a subquery to alias), for columns worth building
 * for the rows of the pages only (lists under each row): it selects the window's columns and its own.
 */
export type Around<P> = (db: Kysely<never>, p: P, window: AnyQuery, helpers: BuildHelpers) => AnyQuery;

/** What decides a window's statement: its cursors, its direction and whether it counts. */
export interface WindowShape {
  backward: boolean;
  after: boolean;
  before: boolean;
  counted: boolean;
}

/**
 * The columns a window adds to each candidate row: its parent, its parent's total, whether it is on
 * the page, and (with the cursor read away from) `_beyond`.
 */
export type Windowed<R> = R & { _parent: number; _total: number; _page: boolean; _beyond?: boolean };

/** The window's own parameters beside the candidates' (named apart from theirs by the leading `_`). */
type WindowArgs = { _parents: readonly number[]; _size: number } & Record<`_after${number}` | `_before${number}`, KeyValue>;

/** The shape of a request. */
export const shapeOf = (request: PageRequest): WindowShape => ({
  backward: request.backward,
  after: request.after !== null,
  before: request.before !== null,
  counted: request.counted !== false,
});

/**
 * The pages of a list under many parents: for each parent (in the order given), the first `size + 1`
 * candidate rows after `after` (and before `before`), or, backward, the last `size + 1` before
 * `before`, read in the reverse order so that an index on (parent, order) serves them as it serves a
 * forward page; each row with its parent (`_parent`) and its parent's total (`_total`, counted
 * before the cursors apply, or `total`'s expression: a count the database keeps; 0 when the request
 * wants none). Each parent's page is its own `order by ... limit` (a lateral join), so a parent with
 * thousands of rows costs its page; a parent with no row in the window keeps one row with `_page`
 * false, which carries only its total. A count is made once per parent (`offset 0` keeps
 * PostgreSQL from pulling it up into a subplan run for every row). With the cursor the page is read
 * away from (`after` forward, `before` backward) each row also says (`_beyond`) whether the list has
 * a row at or past that cursor. A cursor bounds the page's first order column too (a `seek`), so
 * that the index starts the page at the cursor.
 */
/** What the window needs of a compiled query (src/db/sql.ts Query): its text and a run with parameters. */
export interface Compiled<P, R> {
  sql(em: EntityManager): string;
  run(em: EntityManager, args: P): Promise<R[]>;
}

export class KeysetWindow<P, R> {
  readonly #shapes = new Map<string, Compiled<P & WindowArgs, Windowed<R>>>();

  /** `compile` makes a compiled query (a Query of src/db/sql.ts) of a build (src/db/sql.ts queriesOf's `compiled`). */
  constructor(
    private readonly compile: (
      build: (db: Kysely<never>, p: P & WindowArgs, helpers: BuildHelpers) => AnyQuery,
    ) => Compiled<P & WindowArgs, Windowed<R>>,
    private readonly candidates: Candidates<never, P>,
    readonly order: readonly OrderColumn[],
    private readonly total?: (parent: Expression<number>) => Expression<number>,
    private readonly around?: Around<P>,
  ) {}

  /** The statement of a shape, compiled on first use. */
  query(shape: WindowShape): Compiled<P & WindowArgs, Windowed<R>> {
    const key = `${shape.backward ? 'last' : 'first'}${shape.after ? ' after' : ''}${shape.before ? ' before' : ''}${shape.counted ? '' : ' uncounted'}`;
    const known = this.#shapes.get(key);
    if (known) return known;
    const query = this.compile((db, p, helpers) => this.build(db, p, shape, helpers));
    this.#shapes.set(key, query);
    return query;
  }

  /** The rows of each parent's page (the window's columns beside the candidates'), for pagesByGroup. */
  run(em: EntityManager, parents: readonly number[], params: P, request: PageRequest): Promise<Windowed<R>[]> {
    const args: Record<string, unknown> = { ...params, _parents: parents, _size: request.size + 1 };
    for (const [name, key] of [
      ['after', request.after],
      ['before', request.before],
    ] as const) {
      if (!key) continue;
      if (key.length !== this.order.length) throw new Error('cursor key and order differ in length');
      key.forEach((value, i) => (args[`_${name}${i}`] = value));
    }
    return (this.query(shapeOf(request)) as Compiled<Record<string, unknown>, Windowed<R>>).run(em, args);
  }

  private build(db: Kysely<never>, p: P & WindowArgs, shape: WindowShape, helpers: BuildHelpers) {
    const order = this.order;
    const parent = sql<number>`${sql.id('p', 'g')}`;
    const candidates = () => this.candidates(db, p, parent, helpers);
    const column = (alias: string, o: OrderColumn) => sql.id(alias, o.column);
    const keyOf = (name: 'after' | 'before') => order.map((_, i) => (p as Record<string, KeyValue>)[`_${name}${i}`]);
    // The rows of `b` later than `key` in list order (or earlier), its own row too when `inclusive`:
    // (c1 > v1) or (c1 = v1 and c2 > v2) or ..., each comparison in its column's direction. A `seek`
    // bound adds c1 >= v1 before them: the same rows, but a range of the index on (parent, c1),
    // where the terms alone are a filter on every row of the parent before the cursor.
    const past = (key: readonly KeyValue[], later: boolean, inclusive: boolean, seek = false): RawBuilder<SqlBool> => {
      const towards = (o: OrderColumn, orEqual: boolean) => sql.raw(`${later !== Boolean(o.desc) ? '>' : '<'}${orEqual ? '=' : ''}`);
      const terms = order.map((o, i) => {
        const equal = order.slice(0, i).map((before, j) => sql`${column('b', before)} = ${keyValue(before, key[j])}`);
        const beyond = sql`${column('b', o)} ${towards(o, inclusive && i === order.length - 1)} ${keyValue(o, key[i])}`;
        return sql`(${sql.join([...equal, beyond], sql` and `)})`;
      });
      const any = sql<SqlBool>`${sql.join(terms, sql` or `)}`;
      if (!seek || order.length === 1) return any;
      return sql<SqlBool>`${column('b', order[0])} ${towards(order[0], true)} ${keyValue(order[0], key[0])} and (${any})`;
    };
    const ordered = <Q extends AnyQuery>(query: Q, alias: string, reversed: boolean): Q =>
      order.reduce((q, o) => q.orderBy(column(alias, o), Boolean(o.desc) !== reversed ? 'desc' : 'asc') as Q, query);
    const bounds = [
      shape.after ? past(keyOf('after'), true, false, true) : null,
      shape.before ? past(keyOf('before'), false, false, true) : null,
    ].filter((b) => b !== null);
    const window =
      bounds.length === 0 ? sql<SqlBool>`true` : bounds.length === 1 ? bounds[0] : sql<SqlBool>`(${bounds[0]}) and (${bounds[1]})`;
    // The rows on the far side of the cursor read away from are a prefix (forward) or a suffix
    // (backward) of the list: whether there is any is whether the list's first (last) row is one,
    // a single row read whatever the cursor.
    const far = shape.backward ? (shape.before ? 'before' : null) : shape.after ? 'after' : null;
    const probe = far ? past(keyOf(far), shape.backward, true) : null;
    const loose = db as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const end = ordered(
      loose.selectFrom(candidates().as('b')).select(order.map((o) => column('b', o).as(o.column))),
      'b',
      shape.backward,
    ).limit(sql.lit(1));
    const count = !shape.counted
      ? sql<number>`0`
      : this.total
        ? this.total(parent)
        : loose.selectFrom(candidates().as('c')).select(sql<number>`count(*)::int`.as('n'));
    const totals = loose
      .selectNoFrom((eb) => [
        sql<number>`${count}`.as('n'),
        ...(probe ? [eb.exists(loose.selectFrom(end.as('b')).select(sql.lit(1).as('one')).where(probe)).as('e')] : []),
      ])
      .offset(sql.lit(0));
    const page = ordered(loose.selectFrom(candidates().as('b')).selectAll('b').where(window), 'b', shape.backward).limit(p._size);
    const last = order[order.length - 1];
    const rows = loose
      .selectFrom(sql`unnest(${p._parents}::int[]) with ordinality`.as<'p'>(sql`p(g, o)`))
      .crossJoinLateral(totals.as('t'))
      .leftJoinLateral(page.as('x'), (join) => join.onTrue())
      .selectAll('x')
      .select([
        sql.id('p', 'g').as(WINDOW_PARENT_COLUMN),
        sql.id('t', 'n').as(WINDOW_TOTAL),
        sql<boolean>`(${column('x', last)} is not null)`.as(WINDOW_PAGE),
        ...(probe ? [sql.id('t', 'e').as(WINDOW_BEYOND)] : []),
      ])
      .orderBy(sql.id('p', 'o'));
    const windowed = ordered(rows, 'x', false) as AnyQuery;
    return this.around ? this.around(db, p, windowed, helpers) : windowed;
  }
}

/**
 * A cursor's value as the column's type, by key kind: a `micros` value back to its instant, exactly
 * (int8 * 1 us fits a double's integers); an `int` as a bigint, so that a prepared statement does
 * not take it as its column's integer, which a safe integer past 2^31 would overflow.
 */
function keyValue(o: OrderColumn, value: KeyValue): RawBuilder<unknown> {
  if (o.kind === 'micros') return sql`(timestamptz 'epoch' + ${value}::bigint * interval '1 microsecond')`;
  return o.kind === 'int' ? sql`${value}::bigint` : sql`${value}`;
}

/**
 * What a candidate row selects for an instant key: the timestamptz column itself as `_at` (which
 * the order names, so that an index on it serves the page) and its exact epoch microseconds as
 * `_us` (the cursor's value: `String(row._us)`; int8, text on PostgreSQL, a bigint on PGlite).
 */
export const instantKey = (column: Expression<Date>) =>
  [sql<unknown>`${column}`.as(INSTANT_COLUMN), sql<string | bigint>`(extract(epoch from ${column}) * 1000000)::bigint`.as('_us')] as const;

/** A timestamptz as epoch milliseconds (a float8, floored: what a JS Date keeps of it), for `new Date(ms)`. */
export const epochMillisOf = (column: Expression<Date>) => sql<number>`floor(extract(epoch from ${column}) * 1000)::float8`;
