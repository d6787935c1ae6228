// One context builder for GraphQL and REST alike: a forked EntityManager, the app's services,
// the caller's credentials and principals (resolved lazily, once), and the request's own
// DataLoaders. Everything on it is typed; nothing is kept in an untyped bag.
//
// What the modules add to it is theirs to say, and this file imports no module: each declares its
// part of the open interfaces below (`declare module '../../context' { interface Loaders ... }`,
// TypeScript's declaration merging), and app.ts hands buildContext the functions that make them
// (ContextParts, from the module list: src/core/module.ts).
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import type { RequestState } from './http/request-state';
import type { Clock } from './core/clock';
import type { Hooks } from './core/hooks';
import type { RateLimits } from './core/rate-limit';
import type { Bus } from './core/bus';
import type { JobQueue, QueueWorkers } from './core/queue';
import { createHash } from 'node:crypto';
import { inRoutedRequest, onPrimary, type ReadRouting } from './db/replicas';

/** The request's DataLoaders (ctx.loaders): each module declares its own here, in its <m>.loaders.ts. */
export interface Loaders {}

/** The caller's principals (ctx.auth: ctx.auth.requireUser() and the like): the identity module declares them. */
export interface Auth {}

/** The app-wide services modules start (the identity runtime, the mailer): each declares its own here. */
export interface ModuleServices {}

/** The app-wide services, built once at start-up (src/services.ts) and carried by every request's context. */
export interface Services extends ModuleServices {
  limits: RateLimits;
  hooks: Hooks;
  clock: Clock;
  /** Messages between the instances (LISTEN/NOTIFY, or Redis pub/sub with REDIS_URL). */
  bus: Bus;
  /** The job queue (src/core/queue.ts): send in a transaction; background.ts starts its workers. */
  queue: JobQueue & Partial<QueueWorkers>;
  /** Reads on the replicas (DATABASE_REPLICA_URLS, src/db/replicas.ts); null without replicas. */
  reads: ReadRouting | null;
  /**
   * The stores every authenticated request needs besides the database, each up or down (/readyz):
   * `cache` (Redis, holding the token cache and the counters) with REDIS_URL; none without.
   */
  readiness(): Promise<Record<string, 'up' | 'down'>>;
}

/** What the modules add to each request's context, made per request (app.ts has them from the module list). */
export interface ContextParts {
  /** The request's DataLoaders (made on first use). */
  loaders(em: EntityManager): Loaders;
  /** The caller's principals, resolved lazily from the context's credentials. */
  auth(ctx: Context): Auth;
}

export interface Credentials {
  /** x-service-authtoken */
  authToken?: string;
  /** x-api-key */
  apiKey?: string;
  /** x-service-company-api-key */
  companyApiKey?: string;
  /** Authorization: Bearer ... */
  bearer?: string;
}

export interface AppDeps {
  config: Config;
  logger: Logger;
  em: EntityManager;
  services: Services;
  parts: ContextParts;
}

export interface Context {
  requestId: string;
  em: EntityManager;
  logger: Logger;
  config: Config;
  /** The app-wide services (rate limits, hooks, clock, and what the modules start: the identity runtime, the mailer). */
  services: Services;
  credentials: Credentials;
  /** The caller's principals, each resolved at most once: ctx.auth.requireUser() and the like. */
  auth: Auth;
  loaders: Loaders;
  /** The client's address (Koa's ctx.ip: the socket's, or X-Forwarded-For only with koa.proxy on), for per-address rate limits. */
  clientIp?: string;
  /** The HTTP request's state (operation name, error code) for the access log and metrics. */
  request?: RequestState;
}

type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

export function readCredentials(headers: HeaderBag): Credentials {
  const authz = header(headers, 'authorization');
  const bearer = authz && /^Bearer\s+(\S+)$/i.exec(authz)?.[1];
  return {
    authToken: header(headers, 'x-service-authtoken'),
    apiKey: header(headers, 'x-api-key'),
    companyApiKey: header(headers, 'x-service-company-api-key'),
    bearer: bearer || undefined,
  };
}

/**
 * The caller's principals when reads may go to a replica: a lookup refused there is made once more
 * on the primary, with principals of its own (a refusal is kept), since a credential issued a
 * moment ago (a sign-in on another instance) may not have reached the replica yet. A revoked token
 * is refused by the token cache first, wherever the lookup reads.
 */
function primaryOnRefusal(make: () => Auth): Auth {
  let current = make();
  let retried = false;
  return new Proxy({} as Auth, {
    get(_, name) {
      const value: unknown = Reflect.get(current, name);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const first: unknown = value.apply(current, args);
        if (retried || !(first instanceof Promise)) return first;
        return first.catch(() => {
          if (!retried) {
            retried = true;
            current = make();
          }
          return onPrimary(() => (Reflect.get(current, name) as (...a: unknown[]) => unknown).apply(current, args));
        });
      };
    },
  });
}

/**
 * The digest (SHA-256 hex) of the credentials a request sent: whose writes its reads must see
 * (src/db/replicas.ts); undefined for a request that sent none.
 */
export function credentialKey(credentials: Credentials): string | undefined {
  const sent = [credentials.authToken, credentials.companyApiKey, credentials.apiKey, credentials.bearer];
  if (sent.every((c) => c === undefined)) return undefined;
  return createHash('sha256')
    .update(sent.map((c) => c ?? '').join('\n'))
    .digest('hex');
}

/** A request's context: its DataLoaders are made on first use (most REST reads use none). */
class RequestContext implements Context {
  readonly em: EntityManager;
  readonly config: Config;
  readonly services: Services;
  readonly credentials: Credentials;
  readonly auth: Auth;
  clientIp?: string;
  request?: RequestState;
  // Not a #private field: Apollo Server runs each operation on a shallow copy of the context
  // (same prototype, own properties copied), which a #field would not be readable on.
  private made?: Loaders;
  private readonly parts: ContextParts;

  constructor(
    deps: AppDeps,
    readonly requestId: string,
    headers: HeaderBag,
    private readonly log: Logger | (() => Logger),
  ) {
    this.parts = deps.parts;
    this.em = deps.em.fork();
    this.config = deps.config;
    this.services = deps.services;
    this.credentials = readCredentials(headers);
    this.auth = inRoutedRequest() ? primaryOnRefusal(() => deps.parts.auth(this)) : deps.parts.auth(this);
  }

  /** The request's logger; one given as a function is asked for when a line is first written. */
  get logger(): Logger {
    return typeof this.log === 'function' ? this.log() : this.log;
  }

  get loaders(): Loaders {
    return (this.made ??= this.parts.loaders(this.em));
  }
}

/** The context of one request (or one live session); pass it on as it is, never a copy: the
 * loaders and the principals belong to this object. */
export function buildContext(deps: AppDeps, requestId: string, headers: HeaderBag, logger: Logger | (() => Logger)): Context {
  return new RequestContext(deps, requestId, headers, logger);
}
