// JSON Schemas of the REST bodies, derived by walking a route's document against the GraphQL
// schema: request bodies from the variables' input types (with the bounds of each field's
// @Rule), answers from the root field's selection (every selected field present, null where
// the GraphQL type is nullable). Nothing about a field is written here; the schema says it.
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
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
  type FragmentDefinitionNode,
} from 'graphql';
import { rulesOf, type FieldRule } from '../graphql/rules';

export type JsonSchema = Record<string, unknown>;

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
function orNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string')
    return { ...schema, type: [schema.type, 'null'], ...(schema.enum ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
  return { anyOf: [schema, { type: 'null' }] };
}

function withDescription(schema: JsonSchema, description: string | null | undefined): JsonSchema {
  return description && !schema.description ? { ...schema, description } : schema;
}

/** The bounds a rule adds to a field's schema (on the items of a list of text). */
function ruled(schema: JsonSchema, rule: FieldRule | undefined): JsonSchema {
  if (!rule) return schema;
  const bounds: JsonSchema = {};
  if (rule.maxLength !== undefined) bounds.maxLength = rule.maxLength;
  if (rule.oneOf && !rule.anyCase) bounds.enum = [...rule.oneOf];
  if (rule.pattern) bounds.pattern = rule.pattern.source;
  if (rule.min !== undefined) bounds.minimum = rule.min;
  if (rule.max !== undefined) bounds.maximum = rule.max;
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) {
    const out: JsonSchema = { ...schema, ...(rule.maxItems !== undefined ? { maxItems: rule.maxItems } : {}) };
    if (Object.keys(bounds).length) out.items = { ...(schema.items as JsonSchema), ...bounds };
    return out;
  }
  return { ...schema, ...bounds };
}

/** Schema of a value of an input type (a request body, or one of its fields); `bare`: without null at the top. */
export function inputSchema(type: GraphQLInputType, rule?: FieldRule, bare = false): JsonSchema {
  const inner = getNullableType<GraphQLInputType>(type);
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: inputSchema(inner.ofType) };
  else if (isInputObjectType(inner)) {
    const rules = rulesOf(inner.name);
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const f of Object.values(inner.getFields())) {
      const r = rules?.get(f.name);
      properties[f.name] = withDescription(inputSchema(f.type, r), f.description);
      if ((isNonNullType(f.type) && f.defaultValue === undefined) || r?.required) required.push(f.name);
    }
    schema = {
      type: 'object',
      ...(inner.description ? { description: inner.description } : {}),
      properties,
      ...(required.length ? { required } : {}),
    };
  } else schema = scalarSchema(inner);
  schema = ruled(schema, rule);
  return isNonNullType(type) || rule?.required || bare ? schema : orNull(schema);
}

/** Schema of an answer: the selection of `type`, every selected field present. */
export function outputSchema(
  schemaDef: GraphQLSchema,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
): JsonSchema {
  const inner = getNullableType(type) as GraphQLOutputType;
  let schema: JsonSchema;
  if (isListType(inner)) schema = { type: 'array', items: outputSchema(schemaDef, inner.ofType, selectionSet, fragments) };
  else if ((isObjectType(inner) || isAbstractType(inner)) && selectionSet) {
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
            properties[key] = withDescription(outputSchema(schemaDef, field.type, sel.selectionSet, fragments), field.description);
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
    schema = { type: 'object', properties, required };
  } else schema = scalarSchema(inner);
  return isNonNullType(type) ? schema : orNull(schema);
}
