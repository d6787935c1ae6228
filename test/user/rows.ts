// Raw reads of stored rows, so tests see the database rather than the ORM's identity map.
import type { MikroORM } from '@mikro-orm/core';

export async function rowsOf(orm: MikroORM, sql: string, params: unknown[] = []): Promise<any[]> {
  return orm.em.fork().getConnection().execute(sql, params);
}

export async function userRow(orm: MikroORM, uId: number): Promise<any> {
  const [row] = await rowsOf(orm, 'select * from app_user where u_id = ?', [uId]);
  return row;
}
