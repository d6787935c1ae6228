// Stored rows read with plain SQL, so a test sees the database rather than the ORM's identity
// map. The test app exposes these bound to its database (t.rows, t.row, t.countRows, ...).
import type { MikroORM } from '@mikro-orm/core';

export type Where = Record<string, unknown>;

function whereClause(where: Where): { text: string; params: unknown[] } {
  const entries = Object.entries(where);
  if (!entries.length) return { text: '', params: [] };
  const text = entries.map(([k, v]) => (v === null ? `"${k}" is null` : `"${k}" = ?`)).join(' and ');
  return { text: ` where ${text}`, params: entries.filter(([, v]) => v !== null).map(([, v]) => v) };
}

export function sql(orm: MikroORM, text: string, params: unknown[] = []): Promise<any[]> {
  return orm.em.fork().getConnection().execute(text, params);
}

/** Every row of the table (matching `where`, column = value), ordered by the first column. */
export function rows(orm: MikroORM, table: string, where: Where = {}): Promise<any[]> {
  const w = whereClause(where);
  return sql(orm, `select * from "${table}"${w.text} order by 1`, w.params);
}

/** The first row matching `where`, or undefined. */
export async function row(orm: MikroORM, table: string, where: Where): Promise<any> {
  return (await rows(orm, table, where))[0];
}

export async function countRows(orm: MikroORM, table: string, where: Where = {}): Promise<number> {
  const w = whereClause(where);
  return (await sql(orm, `select count(*)::int as n from "${table}"${w.text}`, w.params))[0].n;
}

/** Every row of several tables, by table name (for "nothing changed" assertions). */
export async function tableRows(orm: MikroORM, tables: readonly string[]): Promise<Record<string, any[]>> {
  return Object.fromEntries(await Promise.all(tables.map(async (n) => [n, await rows(orm, n)] as const)));
}

/** Row counts of several tables, by table name, in one statement. */
export async function tableCounts(orm: MikroORM, tables: readonly string[]): Promise<Record<string, number>> {
  const result: { t: string; n: number }[] = await sql(
    orm,
    tables.map((n) => `select '${n}' as t, count(*)::int as n from "${n}"`).join(' union all '),
  );
  return Object.fromEntries(result.map((r) => [r.t, r.n]));
}
