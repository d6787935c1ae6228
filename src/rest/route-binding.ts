// What a route's document says about its REST wire, worked out once at start-up: where each
// variable comes from (path, query, body property or the whole body), which GraphQL argument
// it feeds (for its description), and which root field the answer's body is.
import {
  Kind,
  OperationTypeNode,
  getNullableType,
  getOperationAST,
  isInputObjectType,
  parse,
  typeFromAST,
  visit,
  type DocumentNode,
  type FieldNode,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Binding, RouteDef } from './route';

export interface VariableBinding {
  name: string;
  type: GraphQLInputType;
  source: Binding;
  /** The argument the variable is passed to (its description documents the parameter). */
  argument?: GraphQLArgument;
}

export interface RouteBinding {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: VariableBinding[];
  /** The response key of the root field the body is (its alias, or its name). */
  rootKey: string;
  rootNode: FieldNode;
  rootField: GraphQLField<unknown, unknown>;
}

const pathParams = (path: string) => new Set([...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]));

export function bindRoute(schema: GraphQLSchema, def: RouteDef): RouteBinding {
  const key = `${def.method} ${def.path}`;
  const document = parse(def.document);
  const operation = getOperationAST(document);
  if (!operation || operation.name?.value !== def.operation)
    throw new Error(`Route ${key}: the document must hold one operation named ${def.operation}`);
  const rootType = operation.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  const roots = operation.selectionSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD);
  if (roots.length !== 1 && def.body !== 'none') throw new Error(`Route ${key}: the document must select one root field (the body)`);
  const rootNode = roots[0];
  const rootField = rootType?.getFields()[rootNode.name.value];
  if (!rootField) throw new Error(`Route ${key}: unknown root field ${rootNode.name.value}`);

  // The argument each variable is passed to, anywhere in the document.
  const argumentOf = new Map<string, GraphQLArgument>();
  for (const root of roots) {
    const field = rootType?.getFields()[root.name.value];
    for (const arg of root.arguments ?? []) {
      const target = field?.args.find((a) => a.name === arg.name.value);
      if (!target) continue;
      visit(arg.value, { Variable: (v) => void (argumentOf.has(v.name.value) || argumentOf.set(v.name.value, target)) });
    }
  }

  const inPath = pathParams(def.path);
  const bodyless = def.method === 'GET' || def.method === 'DELETE';
  const variables: VariableBinding[] = [];
  for (const v of operation.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    if (def.computed?.[name]) continue;
    const type = typeFromAST(schema, v.type) as GraphQLInputType | undefined;
    if (!type) throw new Error(`Route ${key}: variable $${name} has an unknown type`);
    const source: Binding =
      def.bind?.[name] ??
      (inPath.has(name) ? 'path' : isInputObjectType(getNullableType(type)) && !bodyless ? 'wholeBody' : bodyless ? 'query' : 'body');
    if (source === 'path' && !inPath.has(name)) throw new Error(`Route ${key}: $${name} is bound to the path, which has no :${name}`);
    if ((source === 'body' || source === 'wholeBody') && bodyless)
      throw new Error(`Route ${key}: a ${def.method} request has no body for $${name}`);
    variables.push({ name, type, source, argument: argumentOf.get(name) });
  }
  if (variables.filter((v) => v.source === 'wholeBody').length > 1)
    throw new Error(`Route ${key}: only one variable can take the whole body`);
  for (const p of inPath)
    if (!variables.some((v) => v.name === p && v.source === 'path'))
      throw new Error(`Route ${key}: no variable takes the path parameter :${p}`);
  return { document, operation, variables, rootKey: rootNode.alias?.value ?? rootNode.name.value, rootNode, rootField };
}
