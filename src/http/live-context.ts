// The GraphQL context of a live session (src/http/live-sessions.ts). A session lives for hours and
// is idle nearly all of that time, so it keeps only its credentials: the EntityManager fork, the
// principals and the loaders a request context holds (its identity map with the token's and the
// user's rows) are made on first use, as buildContext makes them, and dropped by release():
// the transports release once an operation has started and after each event, so an idle session
// holds none. An operation that reads them again (a second subscribe on a socket) gets fresh ones.
import type { EntityManager } from '@mikro-orm/core';
import { buildContext, readCredentials, type AppDeps, type Auth, type Context, type Credentials, type Loaders } from '../context';
import type { Logger } from '../logger';

export class LiveContext implements Context {
  readonly config: AppDeps['config'];
  readonly services: AppDeps['services'];
  readonly credentials: Credentials;
  private current?: Context;
  private log?: Logger;

  constructor(
    private readonly deps: AppDeps,
    readonly requestId: string,
    private readonly headers: Record<string, string>,
  ) {
    this.config = deps.config;
    this.services = deps.services;
    this.credentials = readCredentials(headers);
  }

  /** The session's logger (the request id bound), made when a line is first written. */
  get logger(): Logger {
    return (this.log ??= this.deps.logger.child({ requestId: this.requestId }));
  }

  get em(): EntityManager {
    return this.made().em;
  }

  get auth(): Auth {
    return this.made().auth;
  }

  get loaders(): Loaders {
    return this.made().loaders;
  }

  /** Drops the request context (and the logger) made since the last release; the next use makes another. */
  release(): void {
    this.current = undefined;
    this.log = undefined;
  }

  private made(): Context {
    return (this.current ??= buildContext(this.deps, this.requestId, this.headers, () => this.logger));
  }
}
