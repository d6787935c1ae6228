// Global object identification (https://relay.dev/graphql/objectidentification.htm): every record
// type with identity implements `Node` and has `id: ID!`, its type and key as base64url
// (`User:4`), opaque to clients and stable for as long as the record lives. `node(id:)` and
// `nodes(ids:)` fetch records again by that id, each with the rule of the root operation that
// hands the record out: a module declares, per type, how to read its key from a record and how to
// load the records of many keys that the caller may read (ModuleDefinition.nodes), in one batch.
// Records of one type that two modules hand out under different rules (an Address is a user's
// profile address or a contact record's copy) load through more than one loader: the declaring
// module's first, then each other module's for the keys still unanswered (ModuleDefinition.nodeLoaders).
// What the caller may not read, what does not exist and an id that is not one of ours all answer
// the same: null, with WSRecordNotFoundException naming `id`, so an id tells nothing of what it
// names. Only signed-in users: the federation router resolves records through `_entities`.
// Decorators below read design-time types; loaded first wherever this file is (a unit test may reach it
// through an entity before the schema is built).
import 'reflect-metadata';
import { Arg, Args, ArgsType, Ctx, Field, ID, InterfaceType, Query, Resolver } from 'type-graphql';
import type { Context } from '../context';
import { ServiceError } from '../core/errors';
import { Rule } from './rules';

/** What a module says of one of its types that implements Node. */
export interface NodeType {
  /** The record's key as text (`id` is the type and this), from a record as its fields read it. */
  key(record: never, ctx: Context): string | Promise<string>;
  /**
   * The records of these keys that the caller may read, in key order, null for the others (and for
   * keys that are not this type's). One batch for any number of keys: `nodes` of 50 ids must run a
   * constant number of statements.
   */
  load(keys: readonly string[], ctx: Context): Promise<readonly (object | null)[]>;
}

export type NodeTypes = Readonly<Record<string, NodeType>>;

/** More records of a type another module declares (its `key` reads them too): NodeType's load. */
export type NodeLoaders = Readonly<Record<string, NodeType['load']>>;

/**
 * The Node types of the modules, each declared by exactly one module, with the loaders other
 * modules add: the declaring module's load answers first, each added one (in module order) the
 * keys still null, so the first record found wins and a key costs nothing once answered. Each
 * loader is one batch, so the whole is a constant number of statements too.
 */
export function mergeNodeTypes(modules: readonly { name: string; nodes?: NodeTypes; nodeLoaders?: NodeLoaders }[]): NodeTypes {
  const owner = new Map<string, string>();
  const types: Record<string, NodeType> = {};
  for (const m of modules)
    for (const [type, def] of Object.entries(m.nodes ?? {})) {
      if (owner.has(type)) throw new Error(`Node type ${type} is declared by both ${owner.get(type)} and ${m.name}`);
      owner.set(type, m.name);
      types[type] = def;
    }
  for (const m of modules)
    for (const [type, more] of Object.entries(m.nodeLoaders ?? {})) {
      const first = types[type];
      if (!first) throw new Error(`module ${m.name} adds a loader to ${type}, which no module declares as a Node type`);
      types[type] = {
        key: (record: never, ctx) => first.key(record, ctx),
        async load(keys, ctx) {
          const out = [...(await first.load(keys, ctx))];
          const missing = keys.flatMap((_k, i) => (out[i] ? [] : [i]));
          if (!missing.length) return out;
          const found = await more(
            missing.map((i) => keys[i]),
            ctx,
          );
          missing.forEach((i, j) => (out[i] = found[j] ?? null));
          return out;
        },
      };
    }
  return types;
}

/** The most ids one `nodes` may ask for (WSLimitExceededException beyond), a connection page's worth. */
export const MAX_NODE_IDS = 100;
/** The longest id accepted; longer is not one of ours. */
const MAX_ID_LENGTH = 200;

/** Which type each record handed out by node/nodes is, for Node's resolveType (rows are plain objects). */
const TYPE_OF = new WeakMap<object, string>();

/** Node's resolveType, given to the subgraph schema's resolver map (which graphql-jit reads too). */
export const resolveNodeType = (value: object): string | undefined => TYPE_OF.get(value);

@InterfaceType('Node', {
  description: 'A record with a global id (Relay object identification): fetch it again with node(id:) or nodes(ids:).',
  resolveType: resolveNodeType,
})
export abstract class Node {
  @Field(() => ID, { description: 'Opaque, stable id of the record (its type and key); node(id:) fetches the record again.' })
  id!: string;
}

export function encodeNodeId(type: string, key: string): string {
  return Buffer.from(`${type}:${key}`, 'utf8').toString('base64url');
}

/** The type and key an id names, or null when it is not an id of ours. */
export function decodeNodeId(id: string): { type: string; key: string } | null {
  if (id.length > MAX_ID_LENGTH || !/^[A-Za-z0-9_-]+$/.test(id)) return null;
  const text = Buffer.from(id, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  if (colon <= 0 || encodeNodeId(text.slice(0, colon), text.slice(colon + 1)) !== id) return null;
  return { type: text.slice(0, colon), key: text.slice(colon + 1) };
}

const notFound = (): ServiceError => new ServiceError('WSRecordNotFoundException', undefined, { field: 'id' });

/** The `id` field of each Node type, for the schema's resolver map. */
export function nodeIdResolvers(types: NodeTypes): Record<string, object> {
  return Object.fromEntries([
    ['Node', { __resolveType: resolveNodeType }],
    ...Object.entries(types).map(([type, def]) => [
      type,
      {
        id: (record: never, _args: unknown, ctx: Context) => {
          const key = def.key(record, ctx);
          return typeof key === 'string' ? encodeNodeId(type, key) : key.then((k) => encodeNodeId(type, k));
        },
      },
    ]),
  ]);
}

/** Loads ids of any types: one batch per type, a located NOT_FOUND error in place of each record the caller may not read. */
async function loadNodes(types: NodeTypes, ids: readonly string[], ctx: Context): Promise<(object | ServiceError)[]> {
  await ctx.auth.requireUser();
  const decoded = ids.map(decodeNodeId);
  const byType = new Map<string, number[]>();
  decoded.forEach((d, i) => {
    if (d && Object.hasOwn(types, d.type)) byType.set(d.type, [...(byType.get(d.type) ?? []), i]);
  });
  const out: (object | ServiceError)[] = ids.map(notFound);
  await Promise.all(
    [...byType].map(async ([type, at]) => {
      const records = await types[type].load(
        at.map((i) => decoded[i]!.key),
        ctx,
      );
      at.forEach((i, j) => {
        const record = records[j];
        if (!record) return;
        TYPE_OF.set(record, type);
        out[i] = record;
      });
    }),
  );
  return out;
}

@ArgsType()
class NodesArgs {
  @Field(() => [ID], { description: 'Ids (Node.id) of the records.' })
  @Rule({ maxItems: MAX_NODE_IDS })
  ids!: string[];
}

/** Query.node and Query.nodes over the modules' Node types. */
export function nodeResolver(types: NodeTypes): abstract new () => object {
  @Resolver()
  class NodeResolver {
    @Query(() => Node, {
      nullable: true,
      description: 'The record with this id (Node.id), or null with WSRecordNotFoundException when the caller may not read it.',
    })
    async node(
      @Ctx() ctx: Context,
      @Arg('id', () => ID, { description: 'Id (Node.id) of the record.' }) id: string,
    ): Promise<object | null> {
      const [record] = await loadNodes(types, [id], ctx);
      if (record instanceof ServiceError) throw record;
      return record;
    }

    @Query(() => [Node], {
      nullable: 'items',
      description: `The records with these ids, in order; null with WSRecordNotFoundException in place of each the caller may not read. At most ${MAX_NODE_IDS} ids.`,
    })
    async nodes(@Ctx() ctx: Context, @Args(() => NodesArgs) { ids }: NodesArgs): Promise<(object | ServiceError)[]> {
      return loadNodes(types, ids, ctx);
    }
  }
  return NodeResolver;
}

/** A refusal of one record (not found, not the caller's): null in its place. Failures of a dependency stay errors. */
function refusedAsNull(err: unknown): null {
  if (err instanceof ServiceError && err.status < 500) return null;
  throw err;
}

/** Keys as the records spell them: integers without sign or leading zero; lower-case UUIDs. */
export const NODE_KEY = {
  int: /^[1-9][0-9]{0,9}$/,
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
} as const;

/** An integer key that fits PostgreSQL's `integer`, as a number; null for anything else. */
export function nodeIntKey(key: string): number | null {
  return NODE_KEY.int.test(key) && Number(key) <= 0x7fffffff ? Number(key) : null;
}

/** A key of two integer keys (`4:7`: a user and a company, an inbox's owner and its item); null for anything else. */
export function nodeIntPair(key: string): readonly [number, number] | null {
  const colon = key.indexOf(':');
  const first = colon < 0 ? null : nodeIntKey(key.slice(0, colon));
  const second = first === null ? null : nodeIntKey(key.slice(colon + 1));
  return second === null ? null : [first!, second];
}

/**
 * A Node type keyed by one field whose records load as its federation references do (the same
 * rule, the same batching loaders): the reference resolver answers the key `{ [field]: key }`.
 */
export function nodeFromReference(
  field: string,
  keyPattern: RegExp,
  resolve: (reference: never, ctx: Context) => Promise<unknown>,
): NodeType {
  return {
    key: (record: never) => String((record as Record<string, unknown>)[field]),
    load: (keys, ctx) =>
      Promise.all(
        keys.map((key) =>
          keyPattern.test(key)
            ? resolve({ [field]: key } as never, ctx).then((found) => found ?? null, refusedAsNull)
            : Promise.resolve(null),
        ),
      ),
  };
}
