import { executeSync, parse, type GraphQLSchema } from 'graphql';

/** The SDL committed as schema/schema.graphql: exactly what `_service { sdl }` gives a gateway. */
export function printSdl(schema: GraphQLSchema): string {
  const result = executeSync({ schema, document: parse('{ _service { sdl } }') });
  const sdl = (result.data as { _service?: { sdl?: string } } | null | undefined)?._service?.sdl;
  if (!sdl) throw new Error('The schema does not answer _service { sdl }');
  return `${sdl.trim()}\n`;
}
