// The selection set of a REST body: the GraphQL document of a route selects what the JSON body
// holds, in the order its fields are written. A body is the resource with every field, in the
// order of its GraphQL type's fields (graph-fields.ts: the entity's own, then those its resolvers
// add), so a field added to the type is in every body without being written again; a body's order
// says only where the specification departs from that.
import { fieldsOf, isObjectType, type GraphType } from '../graphql/graph-fields';

/** Where a body departs from its type's order of fields. */
export interface BodyOrder {
  /** Fields the body starts with. */
  first?: readonly string[];
  /** Fields the body places right after another (by that field), wherever the type declares them. */
  after?: Readonly<Record<string, readonly string[]>>;
  /** Fields the body leaves out. */
  omit?: readonly string[];
}

/** The orders of a body's types (its own, and those of the objects it holds). */
export type BodyOrders = ReadonlyMap<GraphType, BodyOrder>;

/**
 * Every field of object type `type`, in its order but for `orders` (by type: the body's own and
 * those of the objects it holds), each object field with its own selection. A field that takes
 * arguments, or an object the body would hold within itself, must be omitted; a name in an order
 * that is no field of its type is refused, so a renamed field cannot fall out of a body unseen.
 */
export function bodySelection(type: GraphType, orders: BodyOrders, within: readonly GraphType[] = []): string {
  const fields = fieldsOf(type);
  const order = orders.get(type) ?? {};
  const byName = new Map(fields.map((f) => [f.name, f]));
  const named = [...(order.first ?? []), ...Object.entries(order.after ?? {}).flat(2), ...(order.omit ?? [])];
  const unknown = named.filter((name) => !byName.has(name));
  if (unknown.length) throw new Error(`${type.name} has no field ${unknown.join(', ')} (a REST body's order names it)`);
  const placed = new Set([...(order.first ?? []), ...Object.values(order.after ?? {}).flat(), ...(order.omit ?? [])]);
  const names: string[] = [...(order.first ?? [])];
  for (const f of fields) {
    if (!placed.has(f.name)) names.push(f.name);
    names.push(...(order.after?.[f.name] ?? []));
  }
  return names
    .map((name) => {
      const field = byName.get(name)!;
      const path = `${type.name}.${name}`;
      if (field.args) throw new Error(`${path} takes arguments: a REST body's order must omit it`);
      if (!isObjectType(field.type)) return name;
      if (field.type === type || within.includes(field.type))
        throw new Error(`${path} holds its own type: a REST body's order must omit it`);
      return `${name} { ${bodySelection(field.type, orders, [...within, type])} }`;
    })
    .join(' ');
}

/**
 * Text worked out when the route table is built (src/rest/routes.ts), not when the module that
 * writes it is loaded: a body then holds every field its type has by then, those other modules'
 * resolvers add included, whatever order the modules were loaded in.
 */
export class Deferred {
  private made?: string;

  constructor(
    private readonly make: () => string,
    /** The text written around the bodies (a document's name and variables are there). */
    readonly written: string,
  ) {}

  /** The text, worked out on first use. */
  text(): string {
    return (this.made ??= this.make());
  }

  /** A plain template literal would work a body out at once: write it as doc`...` instead. */
  toString(): string {
    throw new Error(
      `A REST body is worked out when the route table is built: write ${this.written || 'it'} as doc\`...\`, not as a plain template`,
    );
  }
}

/** Text as a route writes it: plain, or holding bodies. */
export type RouteText = string | Deferred;

/** The text of plain or deferred text. */
export const textOf = (t: RouteText): string => (typeof t === 'string' ? t : t.text());

/** A REST body: every field of `type` but for `orders` (bodySelection), worked out when the route table is built. */
export function body(type: GraphType, orders: BodyOrders = new Map()): Deferred {
  return new Deferred(() => bodySelection(type, orders), '');
}

/** A document, or a part of one, whose bodies (body(...)) are worked out when the route table is built. */
export function doc(strings: TemplateStringsArray, ...parts: RouteText[]): Deferred {
  const join = (each: (t: RouteText) => string) => strings.reduce((text, s, i) => text + each(parts[i - 1]) + s);
  return new Deferred(
    () => join(textOf),
    join((t) => (typeof t === 'string' ? t : t.written)),
  );
}
