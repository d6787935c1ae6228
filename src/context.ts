// One context builder for GraphQL and REST alike: a forked EntityManager, the caller's
// credentials (resolved lazily, once), and the request's own DataLoaders.
import type { EntityManager } from '@mikro-orm/core';
import type { Config } from './config';
import type { Logger } from './logger';
import { createLoaders, type Loaders } from './loaders';

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
}

export interface Context {
  requestId: string;
  em: EntityManager;
  logger: Logger;
  config: Config;
  credentials: Credentials;
  loaders: Loaders;
  /** Per-request memo for principals and other values computed once. */
  memo: Map<string, unknown>;
  /** The client's address (Koa's ctx.ip: the socket's, or X-Forwarded-For only with koa.proxy on), for per-address rate limits. */
  clientIp?: string;
  /** The HTTP request's state (operation name, error code) for the access log and metrics. */
  httpState?: Record<string, any>;
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

export function buildContext(deps: AppDeps, requestId: string, headers: HeaderBag, logger: Logger): Context {
  const em = deps.em.fork();
  return {
    requestId,
    em,
    logger,
    config: deps.config,
    credentials: readCredentials(headers),
    loaders: createLoaders(em),
    memo: new Map(),
  };
}
