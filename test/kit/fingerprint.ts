// A digest of every row of every table, to prove a rejected request changed nothing.
import type { MikroORM } from '@mikro-orm/core';

/** Tables a rejected request may legitimately touch (sliding token expiry, abuse counters). */
const VOLATILE = new Set([
  'mikro_orm_migrations',
  'service_auth_token',
  'login_failure',
  'rate_limit',
  'rate_limiter_flexible',
  'auth_rate_limit',
]);

export async function fingerprint(orm: MikroORM, volatile: string[] = []): Promise<Record<string, string>> {
  const conn = orm.em.fork().getConnection();
  const tables: { table_name: string }[] = await conn.execute(
    `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  const names = tables.map((t) => t.table_name).filter((n) => !VOLATILE.has(n) && !volatile.includes(n));
  if (!names.length) return {};
  const sql = names
    .map((n) => `select '${n}' as t, md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as h from "${n}" x`)
    .join(' union all ');
  const rows: { t: string; h: string }[] = await conn.execute(sql);
  return Object.fromEntries(rows.map((r) => [r.t, r.h]));
}
