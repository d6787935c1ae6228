// One context builder for GraphQL and REST alike: a forked EntityManager, the app's services,
// the caller's credentials and principals (resolved lazily, once), and the request's own
// DataLoaders. Everything on it is typed; nothing is kept in an untyped bag.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import type { RequestState } from './http/request-state';
import type { Services } from './services';
import { createLoaders, Principals, type Loaders } from './modules';

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
}

export interface Context {
  requestId: string;
  em: EntityManager;
  logger: Logger;
  config: Config;
  /** The app-wide services (identity runtime, rate limits, mailer, hooks, clock). */
  services: Services;
  credentials: Credentials;
  /** The caller's principals, each resolved at most once: ctx.auth.requireUser() and the like. */
  auth: Principals;
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

/** A request's context: its DataLoaders are made on first use (most REST reads use none). */
class RequestContext implements Context {
  readonly em: EntityManager;
  readonly config: Config;
  readonly services: Services;
  readonly credentials: Credentials;
  readonly auth: Principals;
  clientIp?: string;
  request?: RequestState;
  // Not a #private field: Apollo Server runs each operation on a shallow copy of the context
  // (same prototype, own properties copied), which a #field would not be readable on.
  private made?: Loaders;

  constructor(
    deps: AppDeps,
    readonly requestId: string,
    headers: HeaderBag,
    private readonly log: Logger | (() => Logger),
  ) {
    this.em = deps.em.fork();
    this.config = deps.config;
    this.services = deps.services;
    this.credentials = readCredentials(headers);
    this.auth = new Principals(this);
  }

  /** The request's logger; one given as a function is asked for when a line is first written. */
  get logger(): Logger {
    return typeof this.log === 'function' ? this.log() : this.log;
  }

  get loaders(): Loaders {
    return (this.made ??= createLoaders(this.em));
  }
}

/** The context of one request (or one live session); pass it on as it is, never a copy: the
 * loaders and the principals belong to this object. */
export function buildContext(deps: AppDeps, requestId: string, headers: HeaderBag, logger: Logger | (() => Logger)): Context {
  return new RequestContext(deps, requestId, headers, logger);
}
