// Captures the SQL the service sends for one request: the service runs in this process with an
// onQuery hook, each request is sent once to warm caches and once more to record. The raw
// baseline (raw-server.ts) then replays exactly these statements with pg.
import http from 'node:http';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { createOrm, type Orm } from '../src/db/orm';
import { sendingOf } from '../src/db/sql';
import { createApp } from '../src/app';
import { ENTITIES } from '../src/modules';

export interface CapturedStatement {
  sql: string;
  params: unknown[];
  /** Sent as a named prepared statement with `params` (src/db/sql.ts send): replayed the same way. */
  prepared?: boolean;
}

export interface CaptureRequest {
  name: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export async function captureStatements(
  databaseUrl: string,
  requests: CaptureRequest[],
  serviceEnv: NodeJS.ProcessEnv = {},
): Promise<{ name: string; statements: CapturedStatement[] }[]> {
  const env = { ...process.env, ...serviceEnv, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', QUEUE_WORKERS: '0' };
  const config = loadConfig(env);
  const logger = createLogger('warn');
  let sink: CapturedStatement[] | null = null;
  // The hook sees `?` placeholders and parameter values (some of them raw SQL fragments); the
  // driver formats them into the statement client-side, so the text pg receives is this.
  const format = (sql: string, params: readonly unknown[]) => orm.em.getPlatform().formatQuery(sql, params as unknown[]);
  // A statement of src/db/sql.ts goes with its parameters apart (named or not), MikroORM's own formatted.
  const captured = (sql: string, params: readonly unknown[]): CapturedStatement => {
    const sending = sendingOf(params);
    if (sending === 'named') return { sql, params: [...params], prepared: true };
    return sending === 'unnamed' ? { sql, params: [...params] } : { sql: format(sql, params), params: [] };
  };
  const orm: Orm = await createOrm({
    entities: ENTITIES,
    databaseUrl,
    embeddedDir: 'memory://',
    logger,
    onQuery: (sql, params) => void sink?.push(captured(sql, params)),
  });
  const app = await createApp({ config, logger, orm });
  const handle = app.koa.callback();
  // Koa's handler settles its own promise (errors go to ctx.onerror): nothing to await here.
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  try {
    const out = [];
    for (const r of requests) {
      const send = async () => {
        const res = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.body });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`capture ${r.name}: status ${res.status}`);
      };
      await send();
      sink = [];
      await send();
      out.push({ name: r.name, statements: sink });
      sink = null;
    }
    return out;
  } finally {
    await new Promise((r) => server.close(r));
    await app.stop();
    await orm.close();
  }
}
