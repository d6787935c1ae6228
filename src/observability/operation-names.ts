// The closed set the `operation` label of the request metrics comes from. prom-client keeps
// every label value it has seen for the life of the process, so a value a client chooses (a
// GraphQL operation name, a path no route takes) would grow /metrics and the heap without end:
// 10 operation names of 500 KB exhausted a 128 MB heap at the first scrape. The set is the
// operations the service itself ships (the REST routes, whose documents are named after them,
// and the explorers' example documents) and the names the HTTP layer gives its own endpoints;
// metrics.ts counts any other operation name as `other` and a request no route took as
// `unmatched`.
import { Kind, parse } from 'graphql';
import type { RouteDef } from '../rest/route';
import * as examples from '../graphql/examples';

/** Any GraphQL operation name the service does not ship. */
export const OTHER_OPERATION = 'other';
/** A request no route took (whatever its status). */
export const UNMATCHED = 'unmatched';

/**
 * What the HTTP layer sets as `ctx.state.operation` for its own endpoints (a test checks every
 * such assignment in src/ is listed), and the name of an operation without one.
 */
export const HTTP_OPERATIONS = ['graphql', 'graphql-stream', 'token', 'authorize', 'authorizeCallback', 'devIdp', 'anonymous'] as const;

/** The operation names of the example documents (examples.ts): Sandbox and /graphiql open with them. */
function exampleOperations(): string[] {
  return (Object.values(examples) as unknown[])
    .filter((v): v is string => typeof v === 'string')
    .flatMap((text) => parse(text).definitions)
    .flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION && d.name ? [d.name.value] : []));
}

/** Every operation label but the two buckets: REST operations (each route's document bears its name), examples, HTTP endpoints. */
export function knownOperations(routes: readonly RouteDef[]): Set<string> {
  return new Set([...routes.map((r) => r.operation), ...exampleOperations(), ...HTTP_OPERATIONS]);
}
