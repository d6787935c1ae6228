// Hot reads without MikroORM's query builder. Building a find (criteria processing, query
// builder, SQL rendering) costs about 0.3 ms of CPU per statement here, more than PostgreSQL
// takes to answer these reads (docs/performance.md). On the hot paths the SQL text is written
// once, from the entity's own table and column metadata, and the rows go through em.map: the
// same managed entities em.find would give (identity map, custom types, flushable), through
// the same connection, transaction, statement counting and tracing.
import type { EntityDictionary, EntityManager, EntityName } from '@mikro-orm/core';

/** Table and column names of an entity, quoted for PostgreSQL. */
export interface TableNames<T> {
  table: string;
  column(prop: keyof T & string): string;
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
  };
}

/**
 * A statement built once per entity (on first use, from the metadata) and run on any
 * EntityManager: `sql` uses `?` placeholders and the names from `tableOf`.
 */
export function leanQuery<T extends object, A extends unknown[]>(entity: EntityName<T>, build: (names: TableNames<T>) => string) {
  let sql: string | undefined;
  return async (em: EntityManager, ...params: A): Promise<T[]> => {
    sql ??= build(tableOf(em, entity));
    const rows: Record<string, unknown>[] = await em.getConnection().execute(sql, params, 'all', em.getTransactionContext());
    return rows.map((row) => em.map(entity, row as EntityDictionary<T>));
  };
}

/** Table and column names of any entity (for statements that join several). */
export type NamesOf = <T extends object>(entity: EntityName<T>) => TableNames<T>;

/**
 * A read model (docs/development.md, "Reads and writes"): a statement written once from the
 * entities' metadata (on first use), run on the request's EntityManager (its connection and
 * transaction, counted and traced like every statement), answering plain rows shaped by `shape`
 * for the GraphQL type. No entity is built and nothing enters the identity map, so the rows are
 * not flushable: writes load entities through the unit of work.
 */
export function readQuery<R, A extends unknown[]>(build: (names: NamesOf) => string, shape: (row: Record<string, any>) => R) {
  let sql: string | undefined;
  return async (em: EntityManager, ...params: A): Promise<R[]> => {
    sql ??= build((entity) => tableOf(em, entity));
    const rows: Record<string, unknown>[] = await em.getConnection().execute(sql, params, 'all', em.getTransactionContext());
    return rows.map(shape);
  };
}
