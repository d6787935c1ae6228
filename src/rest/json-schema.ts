// JSON Schemas of the REST bodies, derived by walking a route's document against the GraphQL
// schema: request bodies from the variables' input types (with the bounds of each field's
// @Rule), answers from the root field's selection (every selected field present, null where
// the GraphQL type is nullable). Nothing about a field is written here; the schema says it.
//
// Object types become named component schemas (Components): an input type is one component
// named after it; an output type is named after it too, but a route selects a field set of its
// own, so a type selected with different field sets has one component per set (openapi-names.ts).
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  Kind,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isInterfaceType,
  isAbstractType,
  type GraphQLField,
  type GraphQLInputField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
  type FragmentDefinitionNode,
} from 'graphql';
import { rulesOf, type FieldRule } from '../graphql/rules';
import { Components, type JsonSchema } from './openapi-names';

export { Components, type JsonSchema };

function scalarSchema(type: GraphQLInputType | GraphQLOutputType): JsonSchema {
  if (type === GraphQLString || type === GraphQLID) return { type: 'string' };
  if (type === GraphQLInt) return { type: 'integer' };
  if (type === GraphQLFloat) return { type: 'number' };
  if (type === GraphQLBoolean) return { type: 'boolean' };
  if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
  const name = (type as { name: string }).name;
  if (name === 'Timestamp') return { type: 'integer', description: 'Epoch milliseconds (UTC).' };
  if (name === 'Upload') return { type: 'string', format: 'binary' };
  return {};
}

/** Allows null too. */
export function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string')
    return { ...schema, type: [schema.type, 'null'], ...(schema.enum ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
  return { anyOf: [schema, { type: 'null' }] };
}

/** The description, and `deprecated` for a field or argument GraphQL marks @deprecated. */
export function annotated(schema: JsonSchema, description: string | null | undefined, deprecationReason?: string | null): JsonSchema {
  // The field's own words first; a scalar's note (Timestamp: epoch milliseconds) after them.
  const out = description
    ? {
        ...schema,
        description: typeof schema.description === 'string' && schema.description ? `${description} ${schema.description}` : description,
      }
    : schema;
  return deprecationReason ? { ...out, deprecated: true } : out;
}

/**
 * The bounds a description states in the words of ruleText (src/graphql/rules.ts): output fields
 * and columns say their length bound in prose read from the same constant as the input rule
 * (lengthNotes), and here that prose becomes the keyword, so a bound is still said once.
 */
export function ruleOfText(description: string | null | undefined): FieldRule | undefined {
  const m = /\(([^()]*)\.\)\s*$/.exec(description ?? '');
  if (!m) return undefined;
  const rule: FieldRule = {};
  for (const part of m[1].split('; ')) {
    const chars = /^at most (\d+) characters$/.exec(part);
    const items = /^at most (\d+) items$/.exec(part);
    if (chars) rule.maxLength = Number(chars[1]);
    else if (items) rule.maxItems = Number(items[1]);
  }
  return Object.keys(rule).length ? rule : undefined;
}

const isText = (schema: JsonSchema) => schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));

/** A code as a pattern matching it in any case: Ab-1 -> [Aa][Bb]-1. */
function anyCase(code: string): string {
  return [...code]
    .map((c) =>
      c.toLowerCase() !== c.toUpperCase() ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'),
    )
    .join('');
}

/** The keywords a rule adds to a field's schema (on the items of a list of text). */
export function ruled(schema: JsonSchema, rule: FieldRule | undefined): JsonSchema {
  if (!rule) return schema;
  const bounds: JsonSchema = {};
  if (rule.required && isText(schema)) bounds.minLength = 1;
  if (rule.maxLength !== undefined) bounds.maxLength = rule.maxLength;
  if (rule.oneOf && !rule.anyCase) bounds.enum = [...rule.oneOf];
  // What an optional field admits besides its pattern: blanks (trimmed text, no value) or '' (a pattern judges given text).
  const none = rule.required ? '' : rule.trim ? '^\\s*$|' : '^$|';
  // Codes compared regardless of case (after trimming): a pattern, as JSON Schema has no case-insensitive enum.
  if (rule.oneOf && rule.anyCase) bounds.pattern = `${rule.trim ? none : ''}^\\s*(?:${rule.oneOf.map(anyCase).join('|')})\\s*$`;
  if (rule.pattern) {
    const inner = rule.pattern.source.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
    bounds.pattern = rule.trim ? `${none}^\\s*(?:${inner})\\s*$` : `${none}${rule.pattern.source}`;
  }
  if (rule.min !== undefined) bounds.minimum = rule.min;
  if (rule.max !== undefined) bounds.maximum = rule.max;
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  if (types.includes('array')) {
    const out: JsonSchema = { ...schema, ...(rule.maxItems !== undefined ? { maxItems: rule.maxItems } : {}) };
    if (Object.keys(bounds).length) out.items = { ...(schema.items as JsonSchema), ...bounds };
    return out;
  }
  if (schema.$ref || schema.anyOf) return schema;
  return { ...schema, ...bounds };
}

/** The schema of one input field of `type` (its rules, description and deprecation). */
export function inputFieldSchema(components: Components, f: GraphQLInputField, rule: FieldRule | undefined): JsonSchema {
  return annotated(inputSchema(components, f.type, rule), f.description, f.deprecationReason);
}

/** The inline object schema of an input type: the body of its component (and, without the field `omit`, of a flat form). */
export function inputObjectSchema(components: Components, type: GraphQLInputObjectType, omit?: string): JsonSchema {
  const rules = rulesOf(type.name);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const f of Object.values(type.getFields())) {
    if (f.name === omit) continue;
    // A field without a rule may state its bound in the rule's words (a bound its service checks).
    const r = rules?.get(f.name) ?? ruleOfText(f.description);
    properties[f.name] = inputFieldSchema(components, f, r);
    if ((isNonNullType(f.type) && f.defaultValue === undefined) || r?.required) required.push(f.name);
  }
  return {
    type: 'object',
    ...(type.description ? { description: type.description } : {}),
    properties,
    ...(required.length ? { required } : {}),
  };
}

/** Schema of a value of an input type (a request body, or one of its fields); `bare`: without null at the top. */
export function inputSchema(components: Components, type: GraphQLInputType, rule?: FieldRule, bare = false): JsonSchema {
  const inner = getNullableType<GraphQLInputType>(type);
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: inputSchema(components, inner.ofType) };
  else if (isInputObjectType(inner)) schema = components.input(inner.name, () => inputObjectSchema(components, inner));
  else schema = scalarSchema(inner);
  schema = ruled(schema, rule);
  return isNonNullType(type) || rule?.required || bare ? schema : orNull(schema);
}

/** Schema of an output field: its type's schema with the bounds its description states. */
function outputFieldSchema(field: GraphQLField<unknown, unknown>, schema: JsonSchema): JsonSchema {
  return annotated(ruled(schema, ruleOfText(field.description)), field.description, field.deprecationReason);
}

/** Schema of an answer: the selection of `type`, every selected field present; `operation` names variants. */
export function outputSchema(
  components: Components,
  operation: string,
  schemaDef: GraphQLSchema,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
): JsonSchema {
  const inner = getNullableType(type) as GraphQLOutputType;
  let schema: JsonSchema;
  if (isListType(inner)) {
    schema = { type: 'array', items: outputSchema(components, operation, schemaDef, inner.ofType, selectionSet, fragments) };
  } else if ((isObjectType(inner) || isAbstractType(inner)) && selectionSet) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const collect = (set: SelectionSetNode, parent: typeof inner, conditional: boolean) => {
      for (const sel of set.selections) {
        const skippable = conditional || Boolean(sel.directives?.some((d) => d.name.value === 'include' || d.name.value === 'skip'));
        if (sel.kind === Kind.FIELD) {
          const key = sel.alias?.value ?? sel.name.value;
          if (sel.name.value === '__typename') {
            properties[key] = { type: 'string' };
          } else {
            const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
            if (!field) continue;
            properties[key] = outputFieldSchema(
              field,
              outputSchema(components, operation, schemaDef, field.type, sel.selectionSet, fragments),
            );
          }
          if (!skippable && !required.includes(key)) required.push(key);
        } else {
          const set2 = sel.kind === Kind.INLINE_FRAGMENT ? sel.selectionSet : fragments[sel.name.value]?.selectionSet;
          const on = sel.kind === Kind.INLINE_FRAGMENT ? sel.typeCondition : fragments[sel.name.value]?.typeCondition;
          const target = on ? (schemaDef.getType(on.name.value) as typeof inner) : parent;
          if (set2) collect(set2, target ?? parent, skippable || (on !== undefined && on.name.value !== getNamedType(inner).name));
        }
      }
    };
    collect(selectionSet, inner, false);
    // A body holds exactly its selection: a strict client (Jackson's default ObjectMapper) refuses a
    // property it does not know, so the document says there is none, and the tests' answer check with it.
    const object: JsonSchema = {
      type: 'object',
      ...(inner.description ? { description: inner.description } : {}),
      properties,
      required,
      additionalProperties: false,
    };
    schema = components.output(inner.name, object, operation);
  } else schema = scalarSchema(inner);
  return isNonNullType(type) ? schema : orNull(schema);
}
