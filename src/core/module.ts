// What a module is: one definition, exported by src/modules/<m>/index.ts, that says in data
// everything the app needs to wire it. src/modules/index.ts lists the definitions once, and the
// composition root (src/app.ts) hands that list to the ORM, the schema, the context (contextParts,
// below), the services, the route table, the demo seed, the background jobs and the OpenAPI
// document's 429s. Nothing registers itself by being imported.
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Seeder } from '@mikro-orm/seeder';
import type { Config } from '../config';
import type { Auth, Context, ContextParts, Loaders, ModuleServices, Services } from '../context';
import type { Logger } from '../logger';
import type { NodeLoaders, NodeTypes } from '../graphql/node';
import type { DeclaredRoute } from '../rest/route';
import type { ApiTag } from '../rest/openapi-tags';
import type { HookHandlers } from './hooks';
import type { OpenedStore } from './store';
import type { Bus } from './bus';
import type { QueueHandler as GenericQueueHandler } from './queue';

export type { JobAttempt } from './queue';

/** A class the ORM maps, or type-graphql reads decorators from. */
export type DecoratedClass = abstract new (...args: never[]) => object;

/** Federation: resolves another subgraph's reference ({ __typename, key fields }) to a record, or null. */
export type ReferenceResolver = (reference: never, ctx: Context) => Promise<unknown>;

/** A table column that keeps a stored blob (stored_blob.sha256) alive: the purge spares what it names. */
export interface BlobReference {
  table: string;
  column: string;
}

export interface JobDeps {
  orm: MikroORM;
  config: Config;
  logger: Logger;
  services: Services;
  /** The blob references of every module (for purges). */
  blobReferences: readonly BlobReference[];
}

/** A module's handler of one named job queue (src/core/queue.ts), run with the job's deps. */
export type QueueHandler = GenericQueueHandler<JobDeps>;

/** What a module's `services` is given: the app's configuration and the connections it shares. */
export interface ServiceDeps {
  config: Config;
  logger: Logger;
  orm: MikroORM;
  shared: OpenedStore;
  bus: Bus;
}

/** An app-wide service a module started: its part of the services, and how it closes. */
export interface StartedService {
  provides: Partial<ModuleServices>;
  close(): Promise<void> | void;
}

/** Background work one instance runs beside answering requests (src/background.ts starts it). */
export interface Job {
  name: string;
  start(deps: JobDeps): { stop(): Promise<void> | void };
}

export interface ModuleDefinition<L extends object = object> {
  name: string;
  /** MikroORM entities (and embeddables) of the module. */
  entities?: readonly DecoratedClass[];
  /** type-graphql resolver classes. */
  resolvers?: readonly DecoratedClass[];
  /** Federation __resolveReference per GraphQL type name. */
  references?: Readonly<Record<string, ReferenceResolver>>;
  /** Types that implement Node: their key and how node(id:) loads them (src/graphql/node.ts). */
  nodes?: NodeTypes;
  /** More loaders of Node types other modules declare, for records this module hands out under its own rule (src/graphql/node.ts). */
  nodeLoaders?: NodeLoaders;
  /**
   * The request's DataLoaders of the module (created per request, never at module scope); the module
   * declares them on the context's Loaders (src/context.ts), which contextParts checks.
   */
  loaders?: (em: EntityManager) => L;
  /** The caller's principals on ctx.auth (one module, identity, says; it declares them as the context's Auth). */
  principals?: (ctx: Context) => Auth;
  /** Starts app-wide services the module's code reaches through ctx.services (declared on ModuleServices). */
  services?: (deps: ServiceDeps) => Promise<StartedService>;
  /** Federation: whether the caller is the router, whose token may read `_service` while introspection is off (one module says). */
  isRouter?: (ctx: Context) => Promise<boolean>;
  /** The area of the module's routes, their OpenAPI tag (a route may name its own). */
  tag?: ApiTag;
  /** REST route table rows. */
  routes?: readonly DeclaredRoute[];
  /** Demo data, loaded only when the demo tenant is seeded, so production never loads a seeder. */
  seeders?: () => Promise<readonly (new () => Seeder)[]>;
  /** Handlers of other modules' events (src/core/hooks.ts). */
  hooks?: HookHandlers;
  /** Background work. */
  jobs?: readonly Job[];
  /** Handlers of named job queues (src/core/queue.ts). */
  queues?: readonly QueueHandler[];
  /** Operations that count against a rate limit and can answer 429 (src/core/rate-limit.ts). */
  rateLimited?: readonly string[];
  /** Columns that keep stored blobs alive. */
  blobReferences?: readonly BlobReference[];
}

/** Declares a module; contextParts checks its loaders' type against the context's Loaders. */
export function defineModule<L extends object = object>(definition: ModuleDefinition<L>): ModuleDefinition<L> {
  return definition;
}

/** The intersection of the members of union `U` (A | B gives A & B). */
export type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

type LoadersOf<M> = M extends ModuleDefinition<infer L> ? L : never;

/**
 * What the modules add to each request's context. The modules' loaders together must be what they
 * declare as the context's Loaders (else `check` wants an argument no caller has); one module gives
 * the principals.
 */
export function contextParts<M extends ModuleDefinition<object>>(
  modules: readonly M[],
  ...check: Intersection<LoadersOf<M>> extends Loaders ? [] : [never]
): ContextParts {
  void check;
  const auth = modules.find((m) => m.principals)?.principals;
  if (!auth) throw new Error('no module gives the principals (ModuleDefinition.principals)');
  return {
    loaders: (em) => Object.assign({}, ...modules.map((m) => m.loaders?.(em) ?? {})) as Loaders,
    auth,
  };
}
