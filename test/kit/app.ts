// The service on an ephemeral loopback port over a fresh database, with callers for REST,
// GraphQL and multipart forms that return status, headers and parsed body, as a client sees them.
// Every REST answer is checked against the app's OpenAPI document (contract.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { EntityName, FilterQuery, MikroORM } from '@mikro-orm/core';
import { createApp, createLogger, createOrm, DemoSeeder, loadConfig, type App, type Config, type User } from './src';
import { createTestDb, type TestDb } from './db';
import { checkRestResponse } from './contract';
import { gqlForm, postForm, readReply, toForm, type Reply, type RequestOptions } from './http';
import { callerOf, type Caller, type Who } from './caller';
import { clientWith, GQL_ACCEPT, type Client } from './client';
import { createUser } from './factories';
import * as stored from './rows';
import { ENTITIES } from '../../src/modules';

export { clientWith, GQL_ACCEPT, type Client, type GqlBody } from './client';

/** A user made for the test, signed in (their token is already stored). */
export type NewUser = Caller & { uId: number; user: User };

export interface TestApp extends Client {
  db: TestDb;
  orm: MikroORM;
  app: App;
  config: Config;
  baseUrl: string;
  /** Every log line the service wrote, parsed. */
  logs: any[];
  /** Calls as this user: a user id (demo users: OLIVIA, CARA, ...), a user row, or a token. */
  as(who: Who): Caller;
  /** A new user (createUser with `data`, entity field names) and their token. */
  newUser(data?: Partial<User> | Record<string, unknown>): Promise<NewUser>;
  /** Stored rows, read with plain SQL (test/kit/rows.ts). */
  sql(text: string, params?: unknown[]): Promise<any[]>;
  rows(table: string, where?: stored.Where): Promise<any[]>;
  row(table: string, where: stored.Where): Promise<any>;
  countRows(table: string, where?: stored.Where): Promise<number>;
  tableRows(tables: readonly string[]): Promise<Record<string, any[]>>;
  tableCounts(tables: readonly string[]): Promise<Record<string, number>>;
  /** One entity as the ORM loads it, from a fresh EntityManager (null when there is none). */
  findOne<T extends object>(entity: EntityName<T>, where: FilterQuery<T>): Promise<T | null>;
  /** Runs fn and returns how many SQL statements it caused. */
  countStatements(fn: () => Promise<unknown>): Promise<number>;
  /** Work to undo before the app stops (mocks to restore, loops to stop); the last registered runs first. */
  onClose(fn: () => unknown): void;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Seed the demo tenant (default true). */
  demo?: boolean;
  env?: Record<string, string>;
  /** Share an existing database (a second instance); it is neither seeded nor closed by this app. */
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
  const handler = app.koa.callback();
  const server = http.createServer((req, res) => void handler(req, res));
  app.live.attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const orm = db.orm;
  const closing: (() => unknown)[] = [];

  const checked = (method: string, path: string, res: Reply): Reply => {
    checkRestResponse(app.openApi, method, path, res.status, res.headers.get('content-type') ?? '', res.body);
    return res;
  };

  async function rest(method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...opts.headers };
    let body: string | Buffer | undefined;
    if (opts.rawBody !== undefined) body = opts.rawBody;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    return checked(method, path, await readReply(await fetch(baseUrl + path, { method, headers, body })));
  }

  const self: TestApp = {
    db,
    orm,
    app,
    config,
    baseUrl,
    logs,
    rest,
    gql: (query, variables, headers) => rest('POST', '/graphql', { body: { query, variables }, headers: { ...GQL_ACCEPT, ...headers } }),
    multipart: async (path, parts, headers) => checked('POST', path, await postForm(baseUrl + path, toForm(parts), headers)),
    gqlMultipart: (query, variables, files, headers) =>
      postForm(`${baseUrl}/graphql`, gqlForm(query, variables, files), { 'apollo-require-preflight': 'true', ...GQL_ACCEPT, ...headers }),
    with: (headers) => clientWith(self, headers),
    as: (who) => callerOf(() => self, who),
    async newUser(data = {}) {
      const user = await createUser(orm, data);
      const caller = callerOf(() => self, user.uId);
      await caller.token();
      return Object.assign(caller, { uId: user.uId, user });
    },
    sql: (text, params) => stored.sql(orm, text, params),
    rows: (table, where) => stored.rows(orm, table, where),
    row: (table, where) => stored.row(orm, table, where),
    countRows: (table, where) => stored.countRows(orm, table, where),
    tableRows: (tables) => stored.tableRows(orm, tables),
    tableCounts: (tables) => stored.tableCounts(orm, tables),
    findOne: (entity, where) => orm.em.fork().findOne(entity, where as any),
    async countStatements(fn) {
      db.statements.length = 0;
      await fn();
      return db.statements.length;
    },
    onClose: (fn) => void closing.push(fn),
    async close() {
      for (const fn of closing.reverse()) await fn();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      if (!options.db) await db.close();
    },
  };
  return self;
}

/** The service over a database that never answers (nothing listens on its port): it must start and say so. */
export async function startWithoutDatabase(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const orm = await createOrm({ entities: ENTITIES, databaseUrl: 'postgres://postgres@127.0.0.1:1/nowhere', embeddedDir: 'memory://' });
  const app = await createApp({ config: loadConfig({ NODE_ENV: 'test' }), logger: createLogger('silent'), orm });
  const handler = app.koa.callback();
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.stop();
      await orm.close(true);
    },
  };
}
