// The named component schemas of the OpenAPI document, so that a generated client has an
// `Address` or a `SmartEntry` to import. Names are the GraphQL type names:
// - an input type is one component, named after it (its fields do not depend on the route);
// - an output type is named after it when every route selects the same fields of it. Routes
//   that select different field sets get one component per set: the set with the most fields
//   (the first of them on a tie) keeps the type's name, each other set is named
//   `<Type>_<operation>` after the first operation (in route-table order) that selects it,
//   with `_2`, `_3` when one operation selects the type twice with different sets.
// One component holding every field any route selects would claim fields a route never
// answers; a component per set keeps each answer's schema exact (the contract tests check
// every answer against it).
/** A JSON Schema, as the OpenAPI document holds it (json-schema.ts derives them). */
export type JsonSchema = Record<string, unknown>;

const PLACEHOLDER = '#/components/schemas/\u0000';
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

interface Variant {
  id: number;
  typeName: string;
  schema: JsonSchema;
  operation: string;
}

export class Components {
  private readonly inputs = new Map<string, JsonSchema | null>();
  private readonly variants = new Map<string, Variant>();
  private readonly hand = new Map<string, JsonSchema>();

  /** A reference to the input type's component; `build` makes its body the first time. */
  input(typeName: string, build: () => JsonSchema): JsonSchema {
    if (!this.inputs.has(typeName)) {
      this.inputs.set(typeName, null); // a recursive input refers to itself while it is built
      this.inputs.set(typeName, build());
    }
    return ref(typeName);
  }

  /** A reference (resolved by finish()) to the component of this selection of an output type. */
  output(typeName: string, schema: JsonSchema, operation: string): JsonSchema {
    const key = `${typeName} ${JSON.stringify(schema)}`;
    let variant = this.variants.get(key);
    if (!variant) {
      variant = { id: this.variants.size, typeName, schema, operation };
      this.variants.set(key, variant);
    }
    return { $ref: `${PLACEHOLDER}${variant.id}` };
  }

  /** A component written out by the caller (what is not derived from the GraphQL schema). */
  named(name: string, schema: JsonSchema): JsonSchema {
    this.hand.set(name, schema);
    return ref(name);
  }

  /** The components by name, and `resolve`, which rewrites the references output() gave out. */
  finish(): { schemas: Record<string, JsonSchema>; resolve: <T>(value: T) => T } {
    const byType = new Map<string, Variant[]>();
    for (const v of this.variants.values()) byType.set(v.typeName, [...(byType.get(v.typeName) ?? []), v]);
    const names = new Map<number, string>();
    const size = (v: Variant) => Object.keys(v.schema.properties as object).length;
    for (const [typeName, variants] of byType) {
      const main = variants.reduce((best, v) => (size(v) > size(best) ? v : best));
      const taken = new Map<string, number>();
      for (const v of variants) {
        if (v === main) {
          names.set(v.id, typeName);
          continue;
        }
        const base = `${typeName}_${v.operation}`;
        const n = (taken.get(base) ?? 0) + 1;
        taken.set(base, n);
        names.set(v.id, n === 1 ? base : `${base}_${n}`);
      }
    }
    const resolve = <T>(value: T): T => {
      if (Array.isArray(value)) return value.map(resolve) as T;
      if (value === null || typeof value !== 'object') return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        out[k] =
          k === '$ref' && typeof v === 'string' && v.startsWith(PLACEHOLDER)
            ? ref(names.get(Number(v.slice(PLACEHOLDER.length)))!).$ref
            : resolve(v);
      }
      return out as T;
    };
    const schemas: Record<string, JsonSchema> = {};
    for (const [name, schema] of this.inputs) schemas[name] = schema!;
    for (const v of this.variants.values()) schemas[names.get(v.id)!] = resolve(v.schema);
    for (const [name, schema] of this.hand) schemas[name] = schema;
    const sorted = Object.fromEntries(
      Object.keys(schemas)
        .sort()
        .map((k) => [k, schemas[k]]),
    );
    for (const name of Object.keys(sorted)) if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`Component name ${name} is not valid`);
    return { schemas: sorted, resolve };
  }
}
