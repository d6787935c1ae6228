// The scenarios of a read on the peer (SOFA, sofa-server.ts) and on the design's floor
// (floor-server.ts): the same request where each can serve it, or why it cannot.
import { Kind, OperationTypeNode, parse, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { CompiledRoute } from '../src/rest/executor';
import { graphqlTwin } from './twin';
import type { Scenario } from './scenarios';

/** sofa-server.ts's base path. */
export const SOFA_BASE = '/sofa';

/** SOFA's path of a root field (sofa-api's convertName: param-case). */
const paramCase = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/**
 * The scenario's read as SOFA serves it: GET /sofa/<root-field> with the field's arguments in the
 * query string (the values the REST route binds from the request), or the reason SOFA cannot.
 */
export function sofaScenario(routes: CompiledRoute[], schema: GraphQLSchema, s: Scenario): Scenario | { reason: string } {
  const twin = graphqlTwin(routes, s);
  if (!twin)
    return {
      reason:
        'a GraphQL document with arguments on nested fields (entries(first:), events(first:)): SOFA makes one route per root field ' +
        'with a generated selection, and a route cannot carry arguments below the root',
    };
  const { query, variables } = twin.body as { query: string; variables: Record<string, unknown> };
  const operation = parse(query).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  if (operation.operation !== OperationTypeNode.QUERY) return { reason: 'a mutation' };
  const root = operation.selectionSet.selections[0];
  if (root.kind !== Kind.FIELD) return { reason: 'a fragment at the root' };
  const field = schema.getQueryType()!.getFields()[root.name.value];
  const search = new URLSearchParams();
  for (const arg of field.args) {
    const value = variables[arg.name];
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) search.append(arg.name, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const qs = search.toString();
  return {
    ...s,
    name: `${s.name} (SOFA)`,
    method: 'GET',
    path: `${SOFA_BASE}/${paramCase(field.name)}${qs ? `?${qs}` : ''}`,
    headers: { ...s.headers },
    body: undefined,
    setupRequest: undefined,
  };
}

/** The scenario's request on the floor server: its REST route, without the outer middleware. */
export function floorScenario(s: Scenario): Scenario | undefined {
  if (!s.path.startsWith('/rest/')) return undefined;
  return { ...s, name: `${s.name} (floor)` };
}
