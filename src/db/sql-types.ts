// The shapes the one runner (sql.ts) and the keyset window (keyset.ts) share: an entity's row and
// what a query's builder gets besides `db` and `p`. Types only, so both import them without a circle.
import type { Collection, Primary, Scalar } from '@mikro-orm/core';

/** A property of T that is a column (or a relation's key): not a symbol, a method or a collection. */
export type ColumnKey<T> = {
  [K in keyof T]-?: K extends symbol ? never : NonNullable<T[K]> extends Collection<object> | ((...args: never[]) => unknown) ? never : K;
}[keyof T];

/** A column's value: a scalar as it is, a relation as the related entity's key. */
type KeyOf<V> = V extends Scalar | null | undefined ? V : Primary<V>;

/** An entity's row: every column's property under its own name and type, a relation as the related entity's key. */
export type RowOf<T> = { [K in ColumnKey<T>]: Exclude<KeyOf<T[K]>, undefined> };

/** What a query's builder gets besides `db` and `p`: names read from the entities' metadata. */
export interface BuildHelpers {
  /**
   * Every column the entity maps (its scalars and the keys of the relations it owns), as
   * `alias.property`, in declaration order: what a query selects instead of `*`, whose row type a
   * column added by a later migration would change under a running instance (PostgreSQL refuses
   * to run such a prepared statement: "cached plan must not change result type").
   */
  columns: <T extends object, A extends string>(
    entity: abstract new (...args: never[]) => T,
    alias: A,
  ) => `${A}.${ColumnKey<T> & string}`[];
  /** Which of those columns hold instants (Date properties), by property name. */
  instants: (entity: abstract new (...args: never[]) => object) => ReadonlySet<string>;
}
