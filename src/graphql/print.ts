import { executeSync, GraphQLSchema, parse, printSchema, specifiedDirectives } from 'graphql';
import { filterSchema } from '@graphql-tools/utils';

/** The SDL committed as schema/schema.graphql: exactly what `_service { sdl }` gives a gateway. */
export function printSdl(schema: GraphQLSchema): string {
  const result = executeSync({ schema, document: parse('{ _service { sdl } }') });
  const sdl = (result.data as { _service?: { sdl?: string } } | null | undefined)?._service?.sdl;
  if (!sdl) throw new Error('The schema does not answer _service { sdl }');
  return `${sdl.trim()}\n`;
}

/** What Federation adds for the router: its types, the two router fields, and its directives. */
const FEDERATION_TYPE = /^(_Any|_Entity|_Service|link__.*|federation__.*)$/;
const ROUTER_FIELDS = new Set(['_entities', '_service']);

/**
 * The schema clients see, committed as schema/client.graphql: the subgraph's types and fields
 * without the federation machinery (`@link`, `@key`, `@shareable`, `_entities`, `_service`, `_Any`,
 * `federation__*`, `link__*`), which relay-compiler refuses and code generators turn into types of
 * their own. Custom scalars keep `@specifiedBy`.
 */
export function printClientSchema(schema: GraphQLSchema): string {
  const filtered = filterSchema({
    schema,
    typeFilter: (name) => !FEDERATION_TYPE.test(name),
    rootFieldFilter: (operation, name) => !(operation === 'Query' && ROUTER_FIELDS.has(name)),
  });
  const config = filtered.toConfig();
  const client = new GraphQLSchema({ ...config, directives: specifiedDirectives, astNode: undefined, extensionASTNodes: [] });
  return `${printSchema(client).trim()}\n`;
}
