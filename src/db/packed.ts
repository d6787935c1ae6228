// A long list read as one value: PostgreSQL joins the rows into one text (`string_agg`), and the
// service splits it. For a read whose answer is hundreds of rows returned whole (recommended
// entities: 410 companies, 268 KB, docs/performance.md "Recommended entities: one packed value"),
// where the driver would build each row's object and strings as its data rows arrive, over several
// socket reads, while other requests run: those objects outlived the young generation's
// collections and were promoted, and the old generation's collections that followed were the
// largest part of the request's CPU. One value arrives as one data row, kept as bytes until it is
// whole, and is split and shaped in one turn of the event loop.
//
// The encoding: a record separator (U+001E) between rows, a unit separator (U+001F) between
// columns, and a NULL written as a group separator (U+001D) alone. The statement also counts its
// rows and its NULLs. Nothing in the text is escaped (escaping every column cost PostgreSQL 0.6 ms
// on that read), so a value holding a separator would shift the rows or the columns, and a value
// that is a group separator would read as NULL: `unpack` then answers undefined, as it does for
// any count of rows, columns or NULLs that is not the one the statement gave, and the caller reads
// the plain rows instead.
import type { EntityManager } from '@mikro-orm/core';

/** How a column is written into the packed text and read back. */
export type PackedKind = 'int' | 'bool' | 'text' | 'text?';

type Value<K extends PackedKind> = K extends 'int' ? number : K extends 'bool' ? boolean : K extends 'text' ? string : string | null;

/** The columns of a packed read: each name, as a row property, with its SQL expression and kind. */
export type PackedColumns = Record<string, readonly [expression: string, kind: PackedKind]>;

export type PackedRow<C extends PackedColumns> = { [K in keyof C]: Value<C[K][1]> };

/** The row type of a packing. */
export type RowOf<P> = P extends Packing<infer C> ? PackedRow<C> : never;

/** The statement's one row: the rows' count, their NULLs' count and their text (NULL when there are none). */
export interface PackedResult {
  n: number;
  nulls: number;
  packed: string | null;
}

const ROW = '\u001e';
const COLUMN = '\u001f';
const NULL = '\u001d';
/** An integer as PostgreSQL writes one (within a double's exact range). */
const INTEGER = /^-?\d{1,15}$/;

export interface Packing<C extends PackedColumns> {
  /** The select list of the packed statement: `count(*)::int as n, ... as nulls, string_agg(...) as packed`. */
  select: string;
  /** The select list of the same columns as plain rows (the fallback), each aliased to its name. */
  plain: string;
  /** The rows of the packed result; undefined when a value held a separator. */
  unpack(result: PackedResult | undefined): PackedRow<C>[] | undefined;
}

export function packing<C extends PackedColumns>(columns: C): Packing<C> {
  const entries = Object.entries(columns);
  // concat_ws leaves a NULL out: a NOT NULL kind that is NULL after all leaves its row a column short.
  const written = entries.map(([, [expression, kind]]) =>
    kind === 'text?' ? `coalesce((${expression})::text, chr(29))` : `(${expression})`,
  );
  const nullable = entries.filter(([, [, kind]]) => kind === 'text?').map(([, [expression]]) => `(${expression})`);
  const nulls = nullable.length ? `coalesce(sum(num_nulls(${nullable.join(', ')})), 0)::int` : '0';
  const select = `count(*)::int as n, ${nulls} as nulls, string_agg(concat_ws(chr(31), ${written.join(', ')}), chr(30)) as packed`;
  const plain = entries.map(([name, [expression]]) => `${expression} as "${name}"`).join(', ');
  const names = entries.map(([name]) => name);
  const kinds = entries.map(([, [, kind]]) => kind);
  const width = entries.length;
  return {
    select,
    plain,
    unpack(result) {
      if (!result) return undefined;
      if (result.n === 0) return [];
      if (result.packed === null) return undefined;
      const lines = result.packed.split(ROW);
      if (lines.length !== result.n) return undefined;
      const rows: PackedRow<C>[] = new Array(lines.length);
      let nulls = 0;
      for (let i = 0; i < lines.length; i++) {
        const values = lines[i].split(COLUMN);
        if (values.length !== width) return undefined;
        const row: Record<string, unknown> = {};
        for (let j = 0; j < width; j++) {
          const text = values[j];
          switch (kinds[j]) {
            case 'int':
              if (!INTEGER.test(text)) return undefined;
              row[names[j]] = Number(text);
              break;
            case 'bool':
              if (text !== 't' && text !== 'f') return undefined;
              row[names[j]] = text === 't';
              break;
            case 'text':
              row[names[j]] = text;
              break;
            case 'text?':
              if (text === NULL) nulls++;
              row[names[j]] = text === NULL ? null : text;
          }
        }
        rows[i] = row as PackedRow<C>;
      }
      if (nulls !== result.nulls) return undefined;
      return rows;
    },
  };
}

/** Runs a packed statement, then, when a value held a separator, the same statement as plain rows. */
export async function readPacked<C extends PackedColumns>(
  em: EntityManager,
  pack: Packing<C>,
  run: <R>(em: EntityManager, select: string) => Promise<R[]>,
): Promise<PackedRow<C>[]> {
  const [result] = await run<PackedResult>(em, pack.select);
  return pack.unpack(result) ?? run<PackedRow<C>>(em, pack.plain);
}
