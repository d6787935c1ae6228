// The bounds sweep's reading of the schema: where an input field sits in a variable's type, a
// value that is a field's bound long, and a variable's value with one field set deep inside it.
// Pure functions of graphql-js types; test/contract/bounds-sweep.test.ts says what to send.
import { getNullableType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType } from 'graphql';

/** A character outside the Basic Multilingual Plane: one character, two UTF-16 units, four bytes of UTF-8. */
export const WIDE = '\u{1F600}';

/** `n` characters of WIDE. */
export const wide = (n: number) => WIDE.repeat(n);

/** The bounded field: an input type's field, or an argument (an args class's field, at the top of its variable). */
export interface FieldRef {
  typeName: string;
  fieldName: string;
}

/**
 * The path from a value of `type` to the field: field names, and `[]` for the items of a list.
 * [] when the value itself is the field (an argument); undefined when the type does not hold it.
 */
export function pathTo(type: GraphQLInputType, ref: FieldRef, seen = new Set<string>()): string[] | undefined {
  const t = getNullableType(type);
  if (isListType(t)) {
    const inner = pathTo(t.ofType, ref, seen);
    return inner && ['[]', ...inner];
  }
  if (!isInputObjectType(t) || seen.has(t.name)) return undefined;
  seen.add(t.name);
  const fields = t.getFields();
  if (t.name === ref.typeName && fields[ref.fieldName]) return [ref.fieldName];
  for (const f of Object.values(fields)) {
    const inner = pathTo(f.type, ref, seen);
    if (inner) return [f.name, ...inner];
  }
  return undefined;
}

/** A list item the base value lacks: the values given for its type, else its required fields as plain text. */
export type ItemOf = (typeName: string) => Record<string, unknown>;

/**
 * A copy of `value` (of `type`) with the field at `path` set to `leaf` (a list of scalars gets
 * [leaf]); a missing object or list item on the way is made with `itemOf`.
 */
export function setIn(value: unknown, type: GraphQLInputType, path: string[], leaf: unknown, itemOf: ItemOf): unknown {
  const t = getNullableType(type);
  if (path.length === 0) return isListType(t) ? [leaf] : leaf;
  if (isListType(t)) {
    const itemType = t.ofType;
    const items = Array.isArray(value) && value.length ? [...value] : [undefined];
    items[0] = setIn(items[0], itemType, path.slice(1), leaf, itemOf);
    return items;
  }
  if (!isInputObjectType(t)) throw new Error(`setIn: ${String(t)} has no field ${path[0]}`);
  const object = { ...((value as Record<string, unknown> | undefined) ?? itemOf(t.name)) };
  const [name, ...rest] = path;
  object[name] = setIn(object[name], t.getFields()[name].type, rest, leaf, itemOf);
  return object;
}

/** The required text fields of an input type, as plain text: the least a list item needs. */
export function requiredText(type: GraphQLInputType, required: (field: string) => boolean): Record<string, unknown> {
  const t = getNullableType(type);
  if (!isInputObjectType(t)) return {};
  return Object.fromEntries(
    Object.values(t.getFields())
      .filter((f) => isNonNullType(f.type) || required(f.name))
      .map((f) => [f.name, 'sweep']),
  );
}

/** Candidates for a text of exactly `n` characters, widest first: all WIDE, an e-mail address with a WIDE local part, ASCII. */
export function textsOfLength(n: number): string[] {
  const domain = '@example.org';
  return [
    wide(n),
    ...(n > domain.length ? [`${wide(n - domain.length)}${domain}`, `${'a'.repeat(n - domain.length)}${domain}`] : []),
    'a'.repeat(n),
  ];
}
