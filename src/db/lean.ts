// Reads without MikroORM's query builder or entities. Building a find (criteria processing, query
// builder, SQL rendering) costs about 0.3 ms of CPU per statement here, more than PostgreSQL
// takes to answer the hot reads, and hydrating entities (identity map, change-set snapshots)
// costs more again (docs/performance.md). Reads write their SQL text once, from the entities' own
// table and column metadata, and answer plain rows, through the same connection, transaction,
// statement counting and tracing as every statement. The rule for which path a resolver takes is
// in docs/development.md ("Reads and writes"). Two doors read: readModel (a statement written once
// from the entities' metadata, prepared or not by an option, rows mapped by the entity's own
// metadata or shaped by the caller) and runSql (a statement run by hand). Everything else here
// builds statement text.
//
// Statements that runPrepared sends are named prepared statements (src/db/sql.ts `send`).
import type { EntityManager, EntityName, EntityProperty } from '@mikro-orm/core';
import { columnProps, send } from './sql';

/** Table and column names of an entity, quoted for PostgreSQL. */
export interface TableNames<T> {
  table: string;
  column(prop: keyof T & string): string;
  /**
   * Every column the entity maps (its scalars and the keys of the relations it owns), quoted
   * and comma-separated, in declaration order: what a prepared statement selects instead of
   * `*`, whose row type a column added by a later migration would change under a running
   * instance (PostgreSQL refuses to run such a statement: "cached plan must not change result type").
   */
  columns(alias?: string): string;
  /**
   * The same columns (or those of `props`), each under its property's name (`alias."col" as
   * "prop"`; a relation's key under the relation's name): rows of the entity's own type with no
   * mapping per row, for lists whose columns need no conversion (no dates or custom types; those
   * want readModel's `entity`), or a joined entity's values beside a mapped row.
   */
  fields(alias: string, props?: readonly (keyof T & string)[]): string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function tableOf<T extends object>(em: EntityManager, entity: EntityName<T>): TableNames<T> {
  const meta = em.getMetadata().get(entity);
  return {
    table: quote(meta.tableName),
    column: (prop) => {
      const p = meta.properties[prop as keyof typeof meta.properties] as { fieldNames?: string[] } | undefined;
      if (!p?.fieldNames?.length || p.fieldNames.length !== 1) throw new Error(`${meta.className}.${prop} has no single column`);
      return quote(p.fieldNames[0]);
    },
    columns: (alias) =>
      columnProps(meta)
        .flatMap((p) => p.fieldNames.map((f) => (alias ? `${alias}.${quote(f)}` : quote(f))))
        .join(', '),
    fields: (alias, props) =>
      (props ? props.map((prop) => meta.properties[prop as keyof typeof meta.properties] as EntityProperty) : columnProps(meta))
        .map((p) => {
          if (p?.fieldNames?.length !== 1) throw new Error(`${meta.className}.${p?.name} has no single column`);
          return `${alias}.${quote(p.fieldNames[0])} as ${quote(p.name)}`;
        })
        .join(', '),
  };
}

/** How a statement is sent: `prepared` sends it as a named prepared statement (see runPrepared). */
export interface SendOptions {
  prepared?: boolean;
}

/** Texts numbered by positional(), by the text as written (`?` placeholders). */
const numbered = new Map<string, string>();

/**
 * Runs `sql` on the EntityManager's connection, inside its transaction when it has one, counted
 * and traced like every statement. Every hand-written statement goes through here, so none can
 * leave the request's transaction by forgetting its context.
 *
 * Placeholders are `?`. With `prepared` the statement goes as a named prepared statement: each
 * pooled connection parses and plans it once (see runPrepared); its text must come from a bounded
 * set (built from code, never from values), and may use PostgreSQL's own `$1`, `$2` placeholders
 * (a value used twice) instead of `?`.
 */
export function runSql<R>(em: EntityManager, sql: string, params: readonly unknown[] = [], options: SendOptions = {}): Promise<R[]> {
  if (!options.prepared) return em.getConnection().execute<R[]>(sql, [...params], 'all', em.getTransactionContext());
  let text = numbered.get(sql);
  if (text === undefined) numbered.set(sql, (text = positional(sql)));
  return runPrepared<R>(em, text, params);
}

/**
 * The values of one prepared statement, sent apart from its text: `add` answers the placeholder
 * (`$1`, `$2`, ...) of a value. The text then depends only on the shape of the request, never on
 * its values, so it is one of a few prepared statements.
 */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Runs `text` (PostgreSQL's `$1`, `$2` placeholders) with `params` apart from the text, as a
 * named prepared statement (src/db/sql.ts `send`).
 */
const runPrepared = <R>(em: EntityManager, text: string, params: readonly unknown[]): Promise<R[]> => send<R>(em, text, params, true);

/**
 * A timestamptz column as epoch milliseconds (a float8, floored: what a JS Date keeps of it), for
 * read models: `new Date(ms)` is one call, where parsing the timestamp's text costs more per value.
 */
export const epochMillis = (column: string) => `floor(extract(epoch from ${column}) * 1000)::float8`;

export { intArray } from './sql';

/** `alias.column as "field"` for each field of `fields`, whose values are properties of the entity behind `names`. */
export function selectAs<T>(names: TableNames<T>, alias: string, fields: Record<string, keyof T & string>): string[] {
  return Object.entries(fields).map(([field, prop]) => `${alias}.${names.column(prop)} as "${field}"`);
}

/** Table and column names of any entity (for statements that join several). */
export type NamesOf = <T extends object>(entity: EntityName<T>) => TableNames<T>;

/** What a read model reads: its statement, how its rows are mapped, how it is sent. */
export interface ReadModelSpec<R, Row extends object> {
  /** The statement (`?` placeholders), written once from the entities' metadata on first use. */
  sql: (names: NamesOf) => string;
  /**
   * Rows are mapped by this entity's own metadata (MikroORM's compiled result mapper: columns to
   * property names, dates and custom types converted as hydration would, a relation as its key),
   * so the statement selects the entity's columns (`names(entity).columns()`) under their own
   * names. No entity is created and nothing enters the identity map: mapping a user row this way
   * costs about 7 us against 53 us for em.map (docs/performance.md).
   */
  entity?: EntityName<object>;
  /** The row (as mapped by `entity`, or as the driver returns it) to what the caller answers. */
  shape?: (row: Row) => R;
  /**
   * Send it as a prepared statement (runSql's `prepared`): for a statement whose plan cannot
   * depend on its values (none, or rows looked up by their keys). A list of values is then one
   * array parameter (`= any(?::int[])`); `in (?)` is refused when the statement is first built.
   * Without it PostgreSQL plans the statement for its values each time: after five runs of a
   * prepared statement it may keep one plan for all values, which for a page of the events a user
   * is invited to (`limit ? offset ?` over two filters) was a hundred times slower.
   */
  prepared?: boolean;
}

/**
 * A read model (docs/development.md, "Reads and writes"): a statement written once from the
 * entities' metadata, run on the request's EntityManager (its connection and transaction, counted
 * and traced like every statement), answering plain rows. No entity is built and nothing enters
 * the identity map, so the rows are not flushable: writes load entities through the unit of work.
 */
export function readModel<R, A extends unknown[] = [], Row extends object = R & object>(spec: ReadModelSpec<R, Row>) {
  // A prepared statement is numbered once, here, when it is first built (runSql would look its
  // numbered text up on every call).
  const sqlOf = sqlOnce(spec.prepared ? (names) => positional(spec.sql(names)) : spec.sql);
  const run = spec.prepared ? runPrepared : runSql;
  const { entity, shape } = spec;
  return async (em: EntityManager, ...params: A): Promise<R[]> => {
    const rows = await run<Record<string, unknown>>(em, sqlOf(em), params);
    if (!entity) return shape ? rows.map((row) => shape(row as Row)) : (rows as R[]);
    const meta = em.getMetadata().get(entity);
    const comparator = em.getComparator();
    return rows.map((row) => {
      const mapped = comparator.mapResult(meta, row) as Row;
      return shape ? shape(mapped) : (mapped as unknown as R);
    });
  };
}

/**
 * `sql` with each `?` placeholder (outside quoted literals and identifiers) numbered `$1`, `$2`,
 * ... in order. Refuses PostgreSQL's operators that contain `?` (`?|`, `?&`, `??`), which a
 * placeholder would be mistaken for, and `in (?)` (a list of values belongs in one array parameter).
 */
export function positional(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null; // a doubled quote closes and reopens: the same text either way
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === '?') {
      const next = sql[i + 1];
      if (next === '?' || next === '|' || next === '&') throw new Error(`An operator with "?" in a read model's statement: ${sql}`);
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  if (quote) throw new Error(`An unterminated quote in a read model's statement: ${sql}`);
  if (/\bin\s*\(\s*\$\d+\s*\)/i.test(out))
    throw new Error(`"in (?)" in a read model's statement: pass the list as one array, "= any(?::type[])": ${sql}`);
  return out;
}

/** A statement text written once from the entities' metadata (on first use), for statements run by hand. */
export function sqlOnce(build: (names: NamesOf) => string): (em: EntityManager) => string {
  let sql: string | undefined;
  return (em) => (sql ??= build((entity) => tableOf(em, entity)));
}
