// Relay cursor connections (https://relay.dev/graphql/connections.htm) for every GraphQL list that
// can grow: `edges { cursor node }`, `pageInfo`, `totalCount`, paged forward with `first` and
// `after` or backward with `last` and `before` (at most 100 either way). Cursors are opaque keyset
// cursors: base64url of the list's name and the sort key of the row they stand on, so a page asked
// for after (or before) a cursor starts right after (or ends right before) that row however many
// rows were inserted or removed meanwhile (no row skipped or repeated, as page numbers would).
//
// A list that hangs under many parents (Company.events under fifty connections) reads the pages of
// every parent in one statement: a keyset window (src/db/keyset.ts) wraps the candidate rows of all the parents into the
// first `first + 1` rows per parent after the cursor (or, backward, the last `last + 1` before it,
// read in the reverse order), with each parent's total, and `pagesByGroup` turns those rows into one
// connection per parent, its edges in the list's order either way.
import { ArgsType, Directive, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import DataLoader from 'dataloader';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { invalidParameter } from '../core/errors';
import type { KeyKind, KeyValue, OrderColumn, PageRequest } from '../db/paging';

export type { KeyKind, KeyValue, OrderColumn, PageRequest } from '../db/paging';
import { INSTANT_COLUMN, WINDOW_BEYOND, WINDOW_PAGE, WINDOW_PARENT_COLUMN, WINDOW_TOTAL } from '../db/keyset';

export { INSTANT_COLUMN, WINDOW_BEYOND, WINDOW_PAGE, WINDOW_PARENT_COLUMN, WINDOW_TOTAL };

/** The most edges one page may ask for. */
export const MAX_FIRST = 100;
/** Edges per page when `first` is not given. */
export const DEFAULT_FIRST = 20;

// Every Relay subgraph defines a PageInfo of these four fields: @shareable lets a supergraph hold
// theirs and ours (each subgraph resolves it for its own connections). The other subgraph marks its
// PageInfo @shareable too; test/federation/composition.test.ts composes the pair.
@Directive('@shareable')
@ObjectType({ description: 'Where a page of a cursor connection stands in its list (Relay PageInfo).', simpleResolvers: true })
export class PageInfo {
  @Field({
    description:
      'Whether the list has edges after this page. With first: whether more edges follow endCursor before the cursor before (or ' +
      'the end of the list); read on with after: endCursor. With last: whether the list has edges at or after before (false without before).',
  })
  hasNextPage!: boolean;

  @Field({
    description:
      'Whether the list has edges before this page. With last: whether more edges precede startCursor after the cursor after (or ' +
      'the start of the list); read back with before: startCursor. With first: whether the list has edges at or before after (false without after).',
  })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: "Cursor of the page's first edge; null when the page is empty." })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: "Cursor of the page's last edge; null when the page is empty." })
  endCursor!: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

/** What a connection field answers. */
export interface ConnectionPage<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
  totalCount: number;
}

/**
 * The `<name>Connection` and `<name>Edge` object types over `node` (a type-graphql object type):
 * `@FieldResolver(() => connectionType(EventView, 'CompanyEvent', 'event'))`. Made once per name.
 */
export function connectionType<T extends object>(node: ClassType<T>, name: string, what: string): ClassType<ConnectionPage<T>> {
  const made = MADE.get(name);
  if (made) {
    if (made.node !== node) throw new Error(`connection type ${name} made twice over different nodes`);
    return made.type as ClassType<ConnectionPage<T>>;
  }

  @ObjectType(`${name}Edge`, { description: `One ${what} of a ${name}Connection, with its cursor.`, simpleResolvers: true })
  class EdgeType {
    @Field({ description: `Opaque cursor of this ${what}: pass it as after to read on from here, or as before to read back.` })
    cursor!: string;

    @Field(() => node, { description: `The ${what}.` }) node!: T;
  }

  @ObjectType(`${name}Connection`, { description: `A page of ${what}s (a Relay cursor connection).`, simpleResolvers: true })
  class ConnectionType {
    @Field(() => [EdgeType], { description: `The ${what}s of this page, in the list's order.` }) edges!: Edge<T>[];

    @Field(() => PageInfo, { description: 'Where this page stands in the list.' }) pageInfo!: PageInfo;

    @Field(() => Int, { description: `${what[0].toUpperCase()}${what.slice(1)}s in the whole list, on every page.` })
    totalCount!: number;
  }

  MADE.set(name, { node, type: ConnectionType });
  return ConnectionType;
}

const MADE = new Map<string, { node: ClassType<object>; type: ClassType<object> }>();

/**
 * `first`/`after` and `last`/`before`, the paging arguments of every connection field (extend it for
 * more). `first` has no default in the schema: a default would stand beside a client's `last`.
 */
@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, {
    nullable: true,
    description: `The first n edges of the list (of those after the cursor after, when given), 1 to ${MAX_FIRST}; null or omitted: ${DEFAULT_FIRST}, unless last is given.`,
  })
  first?: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Return the edges after this cursor (an endCursor or edge cursor of the same list).',
  })
  after?: string | null;

  @Field(() => Int, {
    nullable: true,
    description: `The last n edges of the list (of those before the cursor before, when given), 1 to ${MAX_FIRST}, in the list's order. Not with first (WSInvalidParameterException naming last).`,
  })
  last?: number | null;

  @Field(() => String, {
    nullable: true,
    description: 'Return the edges before this cursor (a startCursor or edge cursor of the same list).',
  })
  before?: string | null;
}

/** The paging arguments as a resolver receives them. */
export type PagingArgs = Pick<ConnectionArgs, 'first' | 'after' | 'last' | 'before'>;

/** A sort key value a cursor holds: the values the list's ORDER BY compares (text, numbers, epoch ms). */

/** Whether a selection asks for `name`, directly or through its fragments. */
function selects(set: SelectionSetNode | undefined, name: string, info: GraphQLResolveInfo): boolean {
  return (set?.selections ?? []).some((s) => {
    if (s.kind === Kind.FIELD) return s.name.value === name;
    if (s.kind === Kind.INLINE_FRAGMENT) return selects(s.selectionSet, name, info);
    return selects(info.fragments[s.name.value]?.selectionSet, name, info);
  });
}

/** Whether the connection field being resolved selects its `totalCount`. */
export function asksTotal(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) => selects(node.selectionSet, 'totalCount', info));
}

/** One parent's page asked of a pageLoader: the parent, and whether its total is (asksTotal). */
export interface PageLoad {
  parent: number;
  counted: boolean;
}

/**
 * The pages of one argument set, per parent: the loads of one tick share one read, which counts
 * when any of them asks for the total (a page with its total serves a load that did not ask); a
 * load that asks for the total after an uncounted read reads again.
 */
export function pageLoader<T>(read: (parents: readonly number[], counted: boolean) => Promise<T[]>): DataLoader<PageLoad, T, string> {
  return new DataLoader<PageLoad, T, string>(
    async (loads) => {
      const parents = [...new Set(loads.map((l) => l.parent))];
      const pages = await read(
        parents,
        loads.some((l) => l.counted),
      );
      const byParent = new Map(parents.map((p, i) => [p, pages[i]]));
      return loads.map((l) => byParent.get(l.parent)!);
    },
    { cacheKeyFn: (l) => `${l.parent}${l.counted ? '+' : ''}` },
  );
}

/** The cursor of a row of list `list` whose sort key is `key`. */
export function encodeCursor(list: string, key: readonly KeyValue[]): string {
  return Buffer.from(JSON.stringify([list, ...key])).toString('base64url');
}

/** The page size asked as `name` (first or last): 1 to 100, else WSInvalidParameterException naming it. */
function checkedSize(name: 'first' | 'last', size: number): number {
  if (!Number.isInteger(size) || size < 1 || size > MAX_FIRST) throw invalidParameter(name, `${name} must be from 1 to ${MAX_FIRST}.`);
  return size;
}

/**
 * Checks the paging arguments: `first` or `last` (not both, which Relay discourages: that is
 * WSInvalidParameterException naming `last`), 1 to 100; neither given is `first: 20`. Decodes `after`
 * and `before` as cursors of list `list` whose key has a value of the right kind for each of the
 * list's `order` columns; anything else is WSInvalidParameterException naming the argument.
 */
export function pageRequest(list: string, order: readonly OrderColumn[], args: PagingArgs): PageRequest {
  const { first, last, after, before } = args;
  const backward = last !== undefined && last !== null;
  if (backward && first !== undefined && first !== null) throw invalidParameter('last', 'first and last may not be given together.');
  return {
    size: backward ? checkedSize('last', last) : checkedSize('first', first ?? DEFAULT_FIRST),
    backward,
    after: after === undefined || after === null ? null : decodeCursor(list, order, after, 'after'),
    before: before === undefined || before === null ? null : decodeCursor(list, order, before, 'before'),
  };
}

/** The instants a cursor may hold, in epoch microseconds: years 1 to 9999 (PostgreSQL's timestamptz holds more, bigint less). */
const MIN_MICROS = -62135596800000000n;
const MAX_MICROS = 253402300799999999n;

const KEY_CHECKS: Record<KeyKind, (v: unknown) => boolean> = {
  micros: (v) => {
    if (typeof v !== 'string' || !/^-?\d{1,19}$/.test(v)) return false;
    const us = BigInt(v);
    return us >= MIN_MICROS && us <= MAX_MICROS;
  },
  int: (v) => typeof v === 'number' && Number.isSafeInteger(v),
  text: (v) => typeof v === 'string',
};

function decodeCursor(list: string, order: readonly OrderColumn[], cursor: string, name: 'after' | 'before'): KeyValue[] {
  const notOurs = () => invalidParameter(name, `${name} is not a cursor of this list.`);
  if (!/^[A-Za-z0-9_-]{1,512}$/.test(cursor)) throw notOurs();
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw notOurs();
  }
  if (!Array.isArray(decoded) || decoded.length !== order.length + 1 || decoded[0] !== list) throw notOurs();
  const key = decoded.slice(1) as unknown[];
  if (!key.every((v, i) => KEY_CHECKS[order[i].kind](v))) throw notOurs();
  return key as KeyValue[];
}

/**
 * One connection from up to `size + 1` rows of the window in list order (the extra row, the last
 * one forward and the first one backward, only tells that the window goes on past the page), the
 * request it answers, the list's total, and `beyond`: whether the list has rows on the cursor's
 * side the page was not read towards (at or before `after` forward, at or after `before`
 * backward; false without that cursor).
 */
export function pageOf<R, T = R>(
  rows: readonly R[],
  request: PageRequest,
  totalCount: number,
  cursorOf: (row: R) => string,
  nodeOf: (row: R) => T = (row) => row as unknown as T,
  beyond = false,
): ConnectionPage<T> {
  const more = rows.length > request.size;
  const page = !more ? rows : request.backward ? rows.slice(rows.length - request.size) : rows.slice(0, request.size);
  const edges = page.map((row) => ({ cursor: cursorOf(row), node: nodeOf(row) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: request.backward ? beyond : more,
      hasPreviousPage: request.backward ? more : beyond,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount,
  };
}

/** The columns a candidate row of an instant key has (src/db/keyset.ts instantKey: a timestamptz as the driver returns it, and int8). */
export type InstantKeyed = { _at: unknown; _us: string | bigint };

/** The connection of each group (in the order of `groups`) from a keyset window's rows (src/db/keyset.ts). */
export function pagesByGroup<R extends Record<string, unknown>, T = R>(
  groups: readonly number[],
  rows: readonly R[],
  request: PageRequest,
  cursorOf: (row: R) => string,
  nodeOf: (row: R) => T = (row) => row as unknown as T,
): ConnectionPage<T>[] {
  const byGroup = new Map<number, { total: number; beyond: boolean; page: R[] }>();
  for (const row of rows) {
    const key = Number(row[WINDOW_PARENT_COLUMN]);
    let entry = byGroup.get(key);
    if (!entry) byGroup.set(key, (entry = { total: Number(row[WINDOW_TOTAL]), beyond: row[WINDOW_BEYOND] === true, page: [] }));
    if (row[WINDOW_PAGE]) entry.page.push(row);
  }
  return groups.map((g) => {
    const entry = byGroup.get(g);
    return pageOf(entry?.page ?? [], request, entry?.total ?? 0, cursorOf, nodeOf, entry?.beyond ?? false);
  });
}
