// Builds the type-graphql schema and serves it as an Apollo Federation 2 subgraph:
// the type-graphql schema is printed with its directives and fed to buildSubgraphSchema,
// with type-graphql's resolvers and each entity's reference resolver. `_service { sdl }` hands out
// the whole schema, as introspection does: with introspection off it answers only the router.
import 'reflect-metadata';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import { printSchemaWithDirectives, type IResolvers } from '@graphql-tools/utils';
import { type GraphQLFieldResolver, type GraphQLSchema, parse } from 'graphql';
import {
  buildSchema,
  createResolversMap,
  getMetadataStorage,
  type BuildSchemaOptions,
  type NonEmptyArray,
  type PubSub,
} from 'type-graphql';
import { Timestamp } from './scalars';
import { describeRules, validateArgument } from './rules';
import { carrySharedEvents } from './shared-events';
import { ServiceError } from '../core/errors';
import { mergeNodeTypes, nodeIdResolvers, nodeResolver, type NodeTypes } from './node';
import type { Context } from '../context';
import type { ModuleDefinition } from '../core/module';

/** type-graphql's own type of the resolver list (it says Function). */
type Resolvers = NonEmptyArray<NonNullable<BuildSchemaOptions['resolvers']>[number]>;

/** __resolveReference per federation entity, from the modules' definitions. */
function referenceResolvers(modules: readonly ModuleDefinition[]): IResolvers {
  return Object.fromEntries(
    modules.flatMap((m) => Object.entries(m.references ?? {})).map(([type, resolve]) => [type, { __resolveReference: resolve }]),
  );
}

const FEDERATION_LINK = 'extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key", "@shareable"])';

/**
 * type-graphql wants a PubSub once there is a subscription, though ours name their own subscribe
 * (fed by the bus, src/core/bus.ts): topics are not used, so this one refuses.
 */
const NO_TOPICS: PubSub = {
  publish: () => {
    throw new Error('subscriptions here take their own subscribe function; topics are not used');
  },
  subscribe: () => {
    throw new Error('subscriptions here take their own subscribe function; topics are not used');
  },
};

/**
 * Types declared with `simpleResolvers` (nearly all: their fields are then read as properties,
 * not through type-graphql's per-field wrapper, docs/performance.md) have their plain fields read
 * by graphql-js's default resolver, as `source[schemaName]`, with no middleware or role check.
 * A field renamed from its property, or given middlewares or roles, on such a type would answer
 * wrongly; it fails the build instead.
 */
export function checkSimpleFields(): void {
  const storage = getMetadataStorage();
  const withResolver = new Set(storage.fieldResolvers.map((r) => `${r.getObjectType?.()?.name}.${r.methodName}`));
  const wrong: string[] = [];
  for (const type of storage.objectTypes) {
    for (const field of type.fields ?? []) {
      const simple = field.simple ?? type.simpleResolvers === true;
      if (!simple || withResolver.has(`${field.target.name}.${field.name}`)) continue;
      if (field.schemaName !== field.name || field.middlewares?.length || field.roles?.length)
        wrong.push(`${type.name}.${field.schemaName}`);
    }
  }
  if (wrong.length)
    throw new Error(
      `Fields read as properties cannot be renamed or carry middlewares or roles (give them simple: false): ${wrong.join(', ')}`,
    );
}

let cached: GraphQLSchema | undefined;

/**
 * The schema of the modules' resolvers (each module's, then node/nodes over every type that
 * implements Node). Built once: type-graphql's decorators are global, so there is one schema a process.
 */
export async function createSchema(modules: readonly ModuleDefinition[]): Promise<GraphQLSchema> {
  if (cached) return cached;
  describeRules();
  const nodeTypes: NodeTypes = mergeNodeTypes(modules);
  const base = await buildSchema({
    resolvers: [...modules.flatMap((m) => m.resolvers ?? []), nodeResolver(nodeTypes)] as unknown as Resolvers,
    scalarsMap: [{ type: Date, scalar: Timestamp }],
    // Every argument passes the declared field rules (rules.ts), for /graphql and REST alike.
    validateFn: validateArgument,
    pubSub: NO_TOPICS,
    emitSchemaFile: false,
    skipCheck: true,
  });
  checkSimpleFields();
  const typeDefs = parse(`${FEDERATION_LINK}\n\n${printSchemaWithDirectives(base)}`);
  const resolvers = createResolversMap(base) as IResolvers;
  for (const extra of [referenceResolvers(modules), nodeIdResolvers(nodeTypes)])
    for (const [type, fields] of Object.entries(extra)) resolvers[type] = { ...(resolvers[type] as object), ...fields };
  cached = buildSubgraphSchema([{ typeDefs, resolvers: resolvers as GraphQLResolverMap }]);
  carrySharedEvents(base, cached);
  const isRouter = modules.find((m) => m.isRouter)?.isRouter;
  if (!isRouter) throw new Error('no module says who the federation router is (ModuleDefinition.isRouter)');
  guardServiceSdl(cached, isRouter);
  return cached;
}

/**
 * `_service` (the SDL rover and the router's composition read) needs, while GRAPHQL_INTROSPECTION
 * is off, the credential `_entities` knows as the router's: a system token of the `federation`
 * scope in `x-api-key` (the module that says, ModuleDefinition.isRouter: src/modules/user/user.reference.ts). Anyone else is answered as
 * `_entities` answers them: no credential, or an unknown one, WSInvalidAuthTokenException; a token
 * of another scope InsufficientPrivilegesException; a signed-in user (whose token wins over a key,
 * as there) InsufficientPrivilegesException too.
 */
function guardServiceSdl(schema: GraphQLSchema, isRouter: (ctx: Context) => Promise<boolean>): void {
  const field = schema.getQueryType()?.getFields()._service;
  const sdl = field?.resolve;
  if (!field || !sdl) throw new Error('the subgraph schema has no _service resolver to guard');
  const guarded: GraphQLFieldResolver<unknown, Context | undefined> = (source, args, ctx, info) => {
    // Synchronous when open: printSdl (the committed schema) executes it without a request.
    if (!ctx || ctx.config.introspection) return sdl(source, args, ctx, info);
    return isRouter(ctx).then((router) => {
      if (!router) throw new ServiceError('InsufficientPrivilegesException', "Only the federation router's token may read the schema.");
      return sdl(source, args, ctx, info);
    });
  };
  field.resolve = guarded as typeof field.resolve;
}
