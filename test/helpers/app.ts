// The service on an ephemeral loopback port over a fresh database, with callers for REST and
// GraphQL that return status, headers and parsed body, as a client sees them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createApp, type App } from '../../src/app';
import { DemoSeeder } from '../../src/db/seed';
import { createTestDb, type TestDb } from './db';
import { checkRestResponse } from './contract';

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as-is (no JSON encoding). */
  rawBody?: string | Buffer;
}

export interface TestApp {
  db: TestDb;
  app: App;
  config: Config;
  baseUrl: string;
  /** Every log line the service wrote, parsed. */
  logs: any[];
  rest<T = any>(method: string, path: string, options?: RequestOptions): Promise<Response<T>>;
  gql<T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<Response<{ data?: T; errors?: any[] }>>;
  /** Runs fn and returns how many SQL statements it caused. */
  countStatements(fn: () => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Seed the demo tenant (default true). */
  demo?: boolean;
  env?: Record<string, string>;
  /** Share an existing database (a second instance). */
  db?: TestDb;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.db ?? (await createTestDb());
  if (options.demo !== false && !options.db) {
    const em = db.orm.em.fork();
    await em.transactional((tx) => new DemoSeeder().run(tx));
    db.statements.length = 0;
  }
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', PUBLIC_BASE_URL: 'http://localhost:4000', ...options.env });
  const logs: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of chunk.toString().split('\n')) if (line) logs.push(JSON.parse(line));
      cb();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const app = await createApp({ config, logger, orm: db.orm });
  const server = http.createServer(app.koa.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function request(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Buffer | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(baseUrl + path, { method, headers, body });
    const text = await res.text();
    let parsed: any = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    checkRestResponse(app.openApi, method, path, res.status, res.headers.get('content-type') ?? '', parsed);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  return {
    db,
    app,
    config,
    baseUrl,
    logs,
    rest: request,
    gql: (query, variables, headers) => request('POST', '/graphql', { body: { query, variables }, headers }),
    async countStatements(fn) {
      db.statements.length = 0;
      await fn();
      return db.statements.length;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      if (!options.db) await db.close();
    },
  };
}
