// What a keyset page asks for and is ordered by: the types the connection (src/graphql/connection.ts)
// and the window (keyset.ts) share, below both.

/** A cursor's value for one order column. */
export type KeyValue = string | number;

/**
 * A checked page request. The window is the list's rows after `after` and before `before` (each
 * null: from the start, to the end); the page is the window's first `size` rows, or its last `size`
 * when `backward` (`last`). `counted` says whether the list's total is wanted (absent: it is);
 * counting a list costs its length.
 */
export interface PageRequest {
  size: number;
  backward: boolean;
  after: KeyValue[] | null;
  before: KeyValue[] | null;
  counted?: boolean;
}

/**
 * What a cursor holds for an order column: `micros` a timestamptz column's instant as epoch
 * microseconds in integer text (exact, where a JS number of milliseconds is not), `int` an integer,
 * `text` a string.
 */
export type KeyKind = 'micros' | 'int' | 'text';

/**
 * One column of a keyset order: its name in the candidate rows, its direction and the kind of its
 * cursor value. A `micros` column is the table's own timestamptz column, so that an index on
 * (parent, column) gives each parent's page in order; the rows also carry its microseconds
 * (keyset.ts `instantKey`) for their cursors.
 */
export interface OrderColumn {
  column: string;
  desc?: boolean;
  kind: KeyKind;
}
