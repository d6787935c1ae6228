// Rows of entities as the read models map them, and SQL over every column of an entity, for reads
// that join several tables and for writers. Each row type, select list and insert is derived from
// an entity's metadata, so a column added to an entity reaches every statement without being named
// again: a row type (RowOf), an entity's row as one JSON object (and such objects made rows), a
// managed entity as its row, and a new row as a record by column name.
import {
  ReferenceKind,
  wrap,
  type Collection,
  type Constructor,
  type EntityManager,
  type EntityName,
  type EntityProperty,
  type Primary,
  type Scalar,
} from '@mikro-orm/core';
import { epochMillis } from './lean';
import { columnProps as mappedProps } from './sql';

/** A property of T that is a column (or a relation's key): not a symbol, a method or a collection. */
type ColumnKey<T> = {
  [K in keyof T]-?: K extends symbol ? never : NonNullable<T[K]> extends Collection<object> | ((...args: never[]) => unknown) ? never : K;
}[keyof T];

/**
 * An entity's row as readModel({ entity }) (MikroORM's comparator.mapResult) maps it: every column's
 * property under its own name and type, a relation as the related entity's key. The plain rows the
 * GraphQL object types (the entity classes) are answered from.
 */
export type RowOf<T> = { [K in ColumnKey<T>]: Exclude<KeyOf<T[K]>, undefined> };

/** A column's value: a scalar as it is, a relation as the related entity's key. */
type KeyOf<V> = V extends Scalar | null | undefined ? V : Primary<V>;

/** Any entity's table names, for statements written once for several tables of one shape (links, terms). */
export interface AnyTable {
  table: string;
  column(prop: string): string;
  columns(alias?: string): string;
}

/** A column's name quoted for PostgreSQL, as TableNames quotes it. */
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * A row of the entity (alias `alias`) as one JSON object: every column it maps under its
 * property's name, a timestamp as epoch milliseconds (epochMillis), so that a list of rows
 * (json_agg) arrives as rows of the entity that only need their instants made Dates (jsonRowsOf).
 */
export function rowJson<T extends object>(em: EntityManager, entity: EntityName<T>, alias: string): string {
  const pairs = columnProps(em, entity).map((p) => {
    const column = `${alias}.${quote(p.fieldNames[0])}`;
    return `'${p.name.replace(/'/g, "''")}', ${isInstant(p) ? epochMillis(column) : column}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}

/** Whether the property is an instant: a Date (MikroORM's result mapper makes the same choice). */
const isInstant = (p: EntityProperty) => p.runtimeType === 'Date';

/**
 * Rows of the entity as rowJson wrote them (parsed JSON) to rows of the entity: their instants made
 * Dates, in place. As cheap as a row can be mapped: lists under a page's entries are many.
 */
export function jsonRowsOf<T extends object>(em: EntityManager, entity: EntityName<T>): (row: object) => RowOf<T> {
  const instants = columnProps(em, entity)
    .filter(isInstant)
    .map((p) => p.name);
  return (row) => {
    const r = row as Record<string, unknown>;
    for (const p of instants) if (r[p] !== null) r[p] = new Date(r[p] as number);
    return row as RowOf<T>;
  };
}

/** The properties of the columns the entity maps, each of one column. */
const columnProps = <T extends object>(em: EntityManager, entity: EntityName<T>): EntityProperty[] =>
  mappedProps(em.getMetadata().get(entity)).filter((p) => p.fieldNames?.length === 1);

/** The columns a new row of the entity is inserted with: every column it maps but a generated key. */
const insertedProps = <T extends object>(em: EntityManager, entity: EntityName<T>) =>
  columnProps(em, entity).filter((p) => !(p.primary && p.autoincrement));

/** An entity (a managed instance) as its row: what a read model would read of it, a relation as the related entity's key. */
export function rowOf<T extends object>(em: EntityManager, entity: EntityName<T>, instance: T): RowOf<T> {
  const row: Record<string, unknown> = {};
  for (const p of columnProps(em, entity)) {
    const value = (instance as Record<string, unknown>)[p.name] ?? null;
    row[p.name] = p.kind === ReferenceKind.SCALAR || value === null ? value : wrap(value, true).getPrimaryKey();
  }
  return row as RowOf<T>;
}

/** The quoted columns of insertedProps, in the order of its values. */
export function insertedColumns(em: EntityManager, entity: EntityName<object>): string[] {
  return insertedProps(em, entity).map((p) => quote(p.fieldNames[0]));
}

/**
 * A new row of the entity as a JSON object by column name (for `jsonb_populate_record(null::table, ...)`):
 * each inserted column is the value `values` gives its property, else the entity's own default (what a
 * new instance holds), else null. Relations are given as the related entity's key.
 */
export function recordOf<T extends object>(em: EntityManager, entity: Constructor<T>, values: Partial<RowOf<T>>): Record<string, unknown> {
  const defaults = new entity() as Record<string, unknown>;
  const given = values as Record<string, unknown>;
  const record: Record<string, unknown> = {};
  for (const p of insertedProps(em, entity))
    record[p.fieldNames[0]] = (given[p.name] !== undefined ? given[p.name] : defaults[p.name]) ?? null;
  return record;
}
