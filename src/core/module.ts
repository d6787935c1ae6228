// What a module is: one definition, exported by src/modules/<m>/index.ts, that says in data
// everything the app needs to wire it. src/modules/index.ts lists the definitions once; the
// ORM, the schema, the context's loaders, the route table, the demo seed, the background jobs
// and the OpenAPI document's 429s all read that list. Nothing registers itself by being imported.
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import type { Seeder } from '@mikro-orm/seeder';
import type { Config } from '../config';
import type { Context } from '../context';
import type { Logger } from '../logger';
import type { NodeLoaders, NodeTypes } from '../graphql/node';
import type { RouteDef } from '../rest/route';
import type { ApiTag } from '../rest/openapi-tags';
import type { Services } from '../services';
import type { HookHandlers } from './hooks';
import type { SqlDoors } from './sql-doors';

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

/** Which run of a job this is: retryCount 0 is the first; retryCount === retryLimit is the last. */
export interface JobAttempt {
  retryCount: number;
  retryLimit: number;
}

/**
 * A module's handler of one named job queue (src/core/queue.ts): the workers run it for each job,
 * retrying a job whose handler throws, with backoff, up to the limit.
 */
export interface QueueHandler {
  name: string;
  /** Runs one job; `data` is what `queue.send` was given (check its shape: it comes from the database). */
  handle(data: unknown, deps: JobDeps, attempt?: JobAttempt): Promise<void>;
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** A recurring job: pg-boss's cron expression (minute resolution); one instance runs each occurrence. */
  cron?: string;
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
  /** The request's DataLoaders of the module (created per request, never at module scope). */
  loaders?: (em: EntityManager) => L;
  /** The area of the module's routes, their OpenAPI tag (a route may name its own). */
  tag?: ApiTag;
  /** REST route table rows. */
  routes?: readonly RouteDef[];
  /** Demo data, loaded only when the demo tenant is seeded, so production never loads a seeder. */
  seeders?: () => Promise<readonly (new () => Seeder)[]>;
  /** Handlers of other modules' events (src/core/hooks.ts). */
  hooks?: HookHandlers;
  /** Predicates on the module's tables for modules that may not import it (src/core/sql-doors.ts). */
  sql?: Partial<SqlDoors>;
  /** Background work. */
  jobs?: readonly Job[];
  /** Handlers of named job queues (src/core/queue.ts). */
  queues?: readonly QueueHandler[];
  /** Operations that count against a rate limit and can answer 429 (src/core/rate-limit.ts). */
  rateLimited?: readonly string[];
  /** Columns that keep stored blobs alive. */
  blobReferences?: readonly BlobReference[];
}

/** Declares a module; the loaders' type flows into the context's Loaders type. */
export function defineModule<L extends object = object>(definition: ModuleDefinition<L>): ModuleDefinition<L> {
  return definition;
}
