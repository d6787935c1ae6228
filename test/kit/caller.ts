// t.as(user): the app's callers with a user's x-service-authtoken. A user id gets one token per
// database (so once per test file): stored when the app starts for a caller made at the top of
// the file, else on first use; a token string is sent as given.
import type { MikroORM } from '@mikro-orm/core';
import type { Client } from './client';
import type { TestDb } from './db';
import { tokenFor } from './factories';

/** A user id (OLIVIA, a row's uId), a user row, or a token. */
export type Who = number | string | { uId: number };

export interface Caller extends Client {
  /** The user's id; undefined for a caller made from a token. */
  readonly uId: number | undefined;
  /** The caller's token (created on first use for a user id). */
  token(): Promise<string>;
  /** The headers the caller sends (its auth header and any given to with()), with `extra` headers. */
  headers(extra?: Record<string, string>): Promise<Record<string, string>>;
  /** The same user, sending these headers too (a company API key, a request id). */
  with(headers: Record<string, string>): Caller;
}

/** The header a user's token travels in. */
const userAuth = (token: string) => ({ 'x-service-authtoken': token });

/** What a caller needs of the test app: its client, and its database to store a user's token in. */
interface CallerApp extends Client {
  db: TestDb;
  orm: MikroORM;
}

const tokens = new WeakMap<TestDb, Map<number, Promise<string>>>();

function cachedToken(t: CallerApp, uId: number): Promise<string> {
  if (!tokens.has(t.db)) tokens.set(t.db, new Map());
  const perUser = tokens.get(t.db)!;
  if (!perUser.has(uId)) perUser.set(uId, tokenFor(t.orm, uId));
  return perUser.get(uId)!;
}

/** `app` is read at call time, so a caller may be made before the app starts (at the top of a test file). */
export function callerOf(app: () => CallerApp, who: Who, fixed: Record<string, string> = {}): Caller {
  const uId = typeof who === 'string' ? undefined : typeof who === 'number' ? who : who.uId;
  const token = () => (typeof who === 'string' ? Promise.resolve(who) : cachedToken(app(), uId!));
  const headers = async (extra: Record<string, string> = {}) => ({ ...userAuth(await token()), ...fixed, ...extra });
  return {
    uId,
    token,
    headers,
    rest: async (method, path, options = {}) => app().rest(method, path, { ...options, headers: await headers(options.headers) }),
    gql: async (query, variables, extra) => app().gql(query, variables, await headers(extra)),
    multipart: async (path, parts, extra) => app().multipart(path, parts, await headers(extra)),
    gqlMultipart: async (query, variables, files, extra) => app().gqlMultipart(query, variables, files, await headers(extra)),
    with: (extra) => callerOf(app, who, { ...fixed, ...extra }),
  };
}
