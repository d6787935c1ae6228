// The federation router's `_entities`, bounded before execution. @apollo/subgraph resolves each
// representation on its own: one of a type that is no entity (`Address`, `Query`) or that names no
// type at all (`{}`, `"Nope"`) failed item by item inside execution, as an unknown fault with a
// stack in the log each, and 15,000 of them took a 128 MB heap. Here the representations the
// request carries are counted and weighed on its variables and literals, before graphql-js coerces
// them or a reference resolver runs: more than ENTITIES_LIMITS allows, or any that is not an object
// naming an entity type of this subgraph, and the whole request is one client error (400 naming
// `representations`, 413 past the bytes), logged once by the access log. Representations of an
// entity type with keys the caller may not see or that are malformed stay each one `null`, as
// federation expects (the reference resolvers' rules, docs/security.md).
import type { ApolloServerPlugin } from '@apollo/server';
import {
  isUnionType,
  Kind,
  valueFromASTUntyped,
  visit,
  type DocumentNode,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type ValueNode,
} from 'graphql';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { ENTITIES_LIMITS } from '../limits';

const FIELD = 'representations';

/** The `representations` arguments of a document's `_entities` fields, in any operation or fragment (nearly always none). */
const argumentsOf = new WeakMap<DocumentNode, ValueNode[]>();

function representationArguments(document: DocumentNode): ValueNode[] {
  let found = argumentsOf.get(document);
  if (found) return found;
  const values: ValueNode[] = [];
  visit(document, {
    Field(node) {
      if (node.name.value !== '_entities') return;
      const arg = node.arguments?.find((a) => a.name.value === FIELD);
      if (arg) values.push(arg.value);
    },
  });
  found = values;
  argumentsOf.set(document, found);
  return found;
}

/** The names of the schema's entity types (the members of `_Entity`). */
const entityTypesOf = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

function entityTypes(schema: GraphQLSchema): ReadonlySet<string> {
  let names = entityTypesOf.get(schema);
  if (!names) {
    const union = schema.getType('_Entity');
    names = new Set(isUnionType(union) ? union.getTypes().map((t) => t.name) : []);
    entityTypesOf.set(schema, names);
  }
  return names;
}

/** The variables as execution will see them: the request's, else the operation's defaults. */
function variablesOf(operation: OperationDefinitionNode | undefined, given: Record<string, unknown> | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const definition of operation?.variableDefinitions ?? [])
    if (definition.defaultValue) values[definition.variable.name.value] = valueFromASTUntyped(definition.defaultValue);
  return { ...values, ...given };
}

/** One argument's representations: a list, or one value that GraphQL takes as a list of one. */
function listOf(value: ValueNode, variables: Record<string, unknown>): unknown[] {
  const given = value.kind === Kind.VARIABLE ? variables[value.name.value] : valueFromASTUntyped(value, variables);
  if (Array.isArray(given)) return given;
  return given === undefined || given === null ? [] : [given];
}

function refuse(error: ServiceError): never {
  // Apollo takes the status of an error raised before execution from here.
  (error.extensions as Record<string, unknown>).http = { status: error.status };
  throw error;
}

/** Refuses the request unless its representations are within ENTITIES_LIMITS and each names an entity type. */
export function checkRepresentations(lists: unknown[][], entities: ReadonlySet<string>): void {
  const { maxRepresentations, maxRepresentationBytes } = ENTITIES_LIMITS;
  // Counted before anything is looked at, so a request of ten times the bound costs no more than one within it.
  const count = lists.reduce((n, list) => n + list.length, 0);
  if (count > maxRepresentations)
    refuse(
      new ServiceError(
        'WSLimitExceededException',
        `_entities takes at most ${maxRepresentations} representations a request; this request sends ${count}.`,
        { field: FIELD },
      ),
    );
  let bytes = 0;
  let index = 0;
  for (const list of lists) {
    for (const item of list) {
      const typename =
        typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as { __typename?: unknown }).__typename : null;
      if (typeof typename !== 'string' || !entities.has(typename))
        refuse(
          new ServiceError(
            'WSInvalidParameterException',
            `${FIELD}[${index}] is not the representation of an entity of this service (an object whose __typename names one of its entity types).`,
            { field: FIELD },
          ),
        );
      bytes += Buffer.byteLength(JSON.stringify(item));
      if (bytes > maxRepresentationBytes)
        refuse(
          new ServiceError(
            'WSLimitExceededException',
            `_entities takes at most ${maxRepresentationBytes} bytes of representations a request.`,
            {
              field: FIELD,
              status: 413,
            },
          ),
        );
      index++;
    }
  }
}

export function representationsPlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation, schema }) {
          const values = representationArguments(document);
          if (!values.length) return;
          const variables = variablesOf(operation, request.variables);
          checkRepresentations(
            values.map((value) => listOf(value, variables)),
            entityTypes(schema),
          );
        },
      };
    },
  };
}
