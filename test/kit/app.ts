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
import {
  gqlForm,
  postForm,
  readReply,
  toForm,
  type FilePart,
  type FormEntries,
  type FormParts,
  type Reply,
  type RequestOptions,
} from './http';
import { callerOf, type Caller, type Who } from './caller';
import { createUser } from './factories';
import * as stored from './rows';

export type GqlBody<T = any> = { data?: T; errors?: any[] };

/**
 * What the kit's GraphQL caller accepts: GraphQL over HTTP's own media type, as a client that
 * knows the server speaks it is told to send (and Apollo Client sends first), so a document the
 * service refuses is answered 400. A test of what a plain-JSON client gets sends its own Accept
 * (or calls t.rest, which sends fetch's default: any type, answered as application/json).
 */
export const GQL_ACCEPT = { accept: 'application/graphql-response+json' } as const;

/** What an anonymous client and a signed-in caller (t.as(user)) both do. */
export interface Client {
  rest<T = any>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>;
  /** POST /graphql with GQL_ACCEPT (a header given here wins). */
  gql<T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<Reply<GqlBody<T>>>;
  /** POSTs a multipart form (parts by name, parts in order, or a FormData) to a path, on a connection of its own. */
  multipart(path: string, parts: FormData | FormParts | FormEntries, headers?: Record<string, string>): Promise<Reply>;
  /** A GraphQL multipart request (with the CSRF preflight header and GQL_ACCEPT): `files` maps variable paths to files. */
  gqlMultipart(
    query: string,
    variables: Record<string, unknown>,
    files: Record<string, FilePart>,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  /** The same client sending these headers too (an API key, a system token, a request id). */
  with(headers: Record<string, string>): Client;
}

/** `base` with `extra` headers on every request; a request's own headers win. */
export function clientWith(base: Client, extra: Record<string, string>): Client {
  const headers = (own?: Record<string, string>) => ({ ...extra, ...own });
  return {
    rest: (method, path, options = {}) => base.rest(method, path, { ...options, headers: headers(options.headers) }),
    gql: (query, variables, own) => base.gql(query, variables, headers(own)),
    multipart: (path, parts, own) => base.multipart(path, parts, headers(own)),
    gqlMultipart: (query, variables, files, own) => base.gqlMultipart(query, variables, files, headers(own)),
    with: (more) => clientWith(base, headers(more)),
  };
}

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
  /** Stored rows, read with plain SQL (rows.ts). */
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
  const orm = await createOrm({ databaseUrl: 'postgres://postgres@127.0.0.1:1/nowhere', embeddedDir: 'memory://' });
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
