// A long list read as one value: PostgreSQL joins the rows into one text (`string_agg`, written by
// the query: discovery.queries.ts `packedColumns`), and this splits it. For a read whose answer is
// hundreds of rows returned whole (recommended entities: 410 companies, 268 KB, docs/performance.md
// "Recommended entities: one packed value"), where the driver would build each row's object and
// strings as its data rows arrive, over several socket reads, while other requests run: those
// objects outlived the young generation's collections and were promoted, and the old generation's
// collections that followed were the largest part of the request's CPU. One value arrives as one
// data row, kept as bytes until it is whole, and is split and shaped in one turn of the event loop.
//
// The encoding: every value as its text, a NULL written as a group separator (U+001D) alone, and
// one unit separator (U+001F) between values, within a row and between rows alike; the statement
// also counts its rows and its NULLs. Nothing in the text is escaped (escaping every column cost
// PostgreSQL 0.6 ms on that read), and nothing is left out (every value is coalesced to the NULL
// mark), so the text holds exactly rows x columns values unless a value holds a unit separator,
// which can only add to the count. `unpack` answers undefined for any count of values or NULLs
// that is not the statement's, an integer or boolean column that does not read as one, or the NULL
// mark in a column declared NOT NULL (a value that is the NULL mark, or a NULL the declaration did
// not expect), and the caller reads the plain rows instead. One split of the whole text, and rows
// built by a function compiled once per packing (each row one object literal of the same shape),
// cost a third less than a split per row and property stores by name (docs/performance.md).
/** How a column is written into the packed text and read back. */
export type PackedKind = 'int' | 'bool' | 'text' | 'text?';

type Value<K extends PackedKind> = K extends 'int' ? number : K extends 'bool' ? boolean : K extends 'text' ? string : string | null;

/** The columns of a packed read: each name, as a row property, with its kind, in the statement's order. */
export type PackedKinds = Readonly<Record<string, PackedKind>>;

export type PackedRow<C extends PackedKinds> = { [K in keyof C]: Value<C[K]> };

/** The statement's one row: the rows' count, their NULLs' count and their text (NULL when there are none). */
export interface PackedResult {
  n: number;
  nulls: number;
  packed: string | null;
}

const SEPARATOR = '\u001f';
const NULL = '\u001d';
/** An integer as PostgreSQL writes one (within a double's exact range). */
const INTEGER = /^-?\d{1,15}$/;

/** Thrown by a compiled row builder at a value that does not read as its column's kind (caught in unpack). */
const UNREADABLE = new Error('a packed value does not read as its column');

/** The NULLs a row builder read (nullable texts that were the NULL mark). */
interface Tally {
  nulls: number;
}

type RowBuilder = (values: string[], offset: number, tally: Tally) => Record<string, unknown>;

/** Refuses a name that is no plain identifier: compiled functions (rowBuilder, copier) write the names into their source. */
function checkNames(names: readonly string[]): void {
  for (const name of names) if (!/^[A-Za-z_]\w*$/.test(name) || name === '__proto__') throw new Error(`Not a packed column name: ${name}`);
}

/**
 * A function that reads one row from `values` at `offset` as an object literal of the columns in
 * their order: every row then has the same shape, where storing each property by its name (a
 * different key at one site) made V8's stores megamorphic. The source is made from the column
 * names and kinds a module declares in code (names JSON-quoted), never from data.
 */
function rowBuilder(entries: [string, PackedKind][]): RowBuilder {
  checkNames(entries.map(([name]) => name));
  const fields = entries.map(([name, kind], j) => {
    const value = `v[o + ${j}]`;
    const read = {
      int: `INTEGER.test(${value}) ? Number(${value}) : unreadable()`,
      bool: `${value} === 't' ? true : ${value} === 'f' ? false : unreadable()`,
      text: `${value} === NULL ? unreadable() : ${value}`,
      'text?': `${value} === NULL ? (tally.nulls++, null) : ${value}`,
    }[kind];
    return `${JSON.stringify(name)}: ${read}`;
  });
  const unreadable = () => {
    throw UNREADABLE;
  };
  const make = new Function('INTEGER', 'NULL', 'unreadable', `return (v, o, tally) => ({ ${fields.join(', ')} });`) as (
    integer: RegExp,
    nullMark: string,
    unreadable: () => never,
  ) => RowBuilder;
  return make(INTEGER, NULL, unreadable);
}

/**
 * A function that copies the properties `names` of a packed row onto an object and answers it: one
 * store by name per property, compiled once, where a loop over the names (a different key at one
 * site) stored megamorphically, 4 times the cost of building the object as a literal (about 15 us
 * against 60 us for 410 rows of eight copied columns). The source is made from names a module
 * declares in code (refused unless plain identifiers), never from data.
 */
export function copier(names: readonly string[]): <T extends object>(from: Record<string, unknown>, to: T) => T {
  checkNames(names);
  const stores = names.map((name) => `to.${name} = from.${name};`);
  return new Function('from', 'to', `${stores.join(' ')} return to;`) as <T extends object>(from: Record<string, unknown>, to: T) => T;
}

export interface Packing<C extends PackedKinds> {
  /** The rows of the packed result; undefined when a value held a separator (read the plain rows then). */
  unpack(result: PackedResult | undefined): PackedRow<C>[] | undefined;
}

/** The decoder of the packed text of `columns` (names and kinds, in the order the statement writes them). */
export function packing<C extends PackedKinds>(columns: C): Packing<C> {
  const entries = Object.entries(columns);
  const width = entries.length;
  const build = rowBuilder(entries);
  return {
    unpack(result) {
      if (!result) return undefined;
      if (result.n === 0) return [];
      if (result.packed === null) return undefined;
      const values = result.packed.split(SEPARATOR);
      if (values.length !== result.n * width) return undefined;
      const rows: PackedRow<C>[] = new Array(result.n);
      const tally: Tally = { nulls: 0 };
      try {
        for (let i = 0, offset = 0; i < result.n; i++, offset += width) rows[i] = build(values, offset, tally) as PackedRow<C>;
      } catch (err) {
        if (err === UNREADABLE) return undefined;
        throw err;
      }
      return tally.nulls === result.nulls ? rows : undefined;
    },
  };
}
