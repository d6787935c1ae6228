// The fields of a GraphQL object type as type-graphql declares them, read from its metadata
// before (or after) the schema is built: those of the object type its class extends, the class's
// own @Field properties, then the fields its resolvers add (@FieldResolver), each in declaration
// order, which is their order in the schema.
// What a REST body selects (src/rest/body-selection.ts) and which input fields are an entity's own
// (the library's entry.draft.ts) are derived from them.
import { getMetadataStorage } from 'type-graphql';

export interface GraphField {
  /** The field's name in the schema. */
  name: string;
  /** The class's property (or the resolver's method) behind it. */
  property: string;
  /** Its type as declared (a class for an object type, a scalar otherwise), the item type of a list. */
  type: unknown;
  /** Whether it takes arguments. */
  args: boolean;
  /** Whether the class declares it (an @Field property) rather than a resolver. */
  own: boolean;
  /** Whether its value may be null (a list that may be null counts; one whose items may be null alone does not). */
  nullable: boolean;
}

/** Whether a field declared with these options may be null itself. */
const mayBeNull = (options: { nullable?: unknown } | undefined) => options?.nullable === true || options?.nullable === 'itemsAndList';

/** A class declared as a GraphQL type (the entity classes are). */
export type GraphType = abstract new (...args: never[]) => unknown;

/** The type a resolver class extends with fields; none for a resolver of root fields (`@Resolver()`, whose getter throws). */
function extended(resolver: { getObjectType?: () => unknown }): unknown {
  try {
    return resolver.getObjectType?.();
  } catch {
    return undefined;
  }
}

/**
 * The fields of object type `type`: those of the object type it extends (a field it declares again
 * keeps its place), then its own, then those its resolvers add (each once): the schema's order.
 */
export function fieldsOf(type: GraphType): GraphField[] {
  const parent: unknown = Object.getPrototypeOf(type);
  const inherited = isObjectType(parent) ? fieldsOf(parent) : [];
  const storage = getMetadataStorage();
  const resolvers = new Set(storage.resolverClasses.filter((r) => extended(r) === type).map((r) => r.target));
  const added: GraphField[] = storage.fieldResolvers
    .filter((r) => resolvers.has(r.target))
    .map((r) => ({
      name: r.schemaName,
      property: r.methodName,
      type: r.getType?.(),
      args: storage.params.some((p) => p.target === r.target && p.methodName === r.methodName && (p.kind === 'arg' || p.kind === 'args')),
      own: false,
      nullable: mayBeNull(r.typeOptions),
    }));
  const addedNames = new Set(added.map((f) => f.name));
  // Once the schema is built, the fields resolvers add are listed among the type's own too.
  const own: GraphField[] = storage.fields
    .filter((f) => f.target === type && !addedNames.has(f.schemaName))
    .map((f) => ({
      name: f.schemaName,
      property: f.name,
      type: f.getType(),
      args: (f.params?.length ?? 0) > 0,
      own: true,
      nullable: mayBeNull(f.typeOptions),
    }));
  const seen = new Set<string>();
  const declared = [...own, ...added].filter((f) => !seen.has(f.name) && seen.add(f.name));
  const byName = new Map(declared.map((f) => [f.name, f]));
  return [...inherited.map((f) => byName.get(f.name) ?? f), ...declared.filter((f) => !inherited.some((i) => i.name === f.name))];
}

/** Whether `type` is a class declared as a GraphQL object type. */
export const isObjectType = (type: unknown): type is GraphType => getMetadataStorage().objectTypes.some((o) => o.target === type);

/** The properties behind the fields `type` declares itself (its @Field properties, not its resolvers'), in the schema's order. */
export const ownFieldProperties = (type: GraphType): string[] =>
  fieldsOf(type)
    .filter((f) => f.own)
    .map((f) => f.property);
