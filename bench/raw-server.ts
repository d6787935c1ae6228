// The raw baseline: a minimal Koa handler per scenario that sends, with `pg` directly, the
// very statements the service sent for the same request (captured by the harness), and
// answers the last statement's rows as JSON. No ORM, no GraphQL, no validation.
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { Pool } from 'pg';

interface Captured {
  name: string;
  statements: { sql: string; params: unknown[]; prepared?: boolean }[];
}

const scenarios: Captured[] = JSON.parse(fs.readFileSync(process.env.RAW_SCENARIOS!, 'utf8'));
const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.RAW_POOL_MAX ?? 10) });
const byPath = new Map(scenarios.map((s) => [`/${s.name}`, s]));

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.path === '/ready') {
    ctx.body = 'ready';
    return;
  }
  const scenario = byPath.get(ctx.path);
  if (!scenario) {
    ctx.status = 404;
    return;
  }
  let rows: unknown[] = [];
  // A statement the service prepares is prepared here too (one name per scenario and statement).
  for (const [i, st] of scenario.statements.entries())
    rows = (
      await (st.prepared ? pool.query({ name: `${scenario.name}_${i}`, text: st.sql, values: st.params }) : pool.query(st.sql, st.params))
    ).rows;
  ctx.body = rows;
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port }));
});
process.on('SIGTERM', () => {
  server.close(() => void pool.end().then(() => process.exit(0)));
});
