// Client documents on /graphql run as generated code, as the REST routes' documents do
// (src/rest/executor.ts): Apollo Server takes an executor through its gateway interface, and this
// one compiles a document with graphql-jit the second time it is seen (a document sent once is not
// worth compiling, and a stream of distinct documents must not cost a compilation each), keeps up
// to MAX_COMPILED of them, and runs everything else with graphql-js as Apollo would. Parsing,
// validation (graphql-armor's limits, introspection off in production), the context and the
// plugins stay Apollo's. Measured in docs/performance.md.
import {
  execute,
  Kind,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import { LRUCache } from 'lru-cache';

/** Apollo Server's gateway interface, and the executor its `load` answers (types of @apollo/server's own). */
type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;

/**
 * Compiled documents kept (least recently used out first). A compiled home-screen query holds about
 * 40 KB of heap before it runs (more once V8 optimises it), and graphql-armor's limits bound a
 * document's size: 100 keeps the worst case near 10 MB of a 128 MB heap, while a client app sends a
 * few dozen distinct documents at most.
 */
export const MAX_COMPILED = 100;
/** The use of a document at which it is compiled (the first ones run with graphql-js). */
export const COMPILE_AT_USE = 2;
/** Documents whose uses are counted until they are compiled. */
const MAX_SEEN = 5000;

/**
 * Only queries are compiled, and not those reading introspection (`__schema`, `__type`: the
 * explorers are written against graphql-js) or the federation router's `_entities` and `_service`.
 * graphql-jit answered `_entities` with an error in two items by cutting the list after the first,
 * and a mutation's unknown failure as Apollo's bare "Internal server error" (tests in
 * test/federation and test/security); a mutation's result is one object, where compiled code gains
 * little.
 */
const compilable = (operation: OperationDefinitionNode) =>
  operation.operation === OperationTypeNode.QUERY &&
  !operation.selectionSet.selections.some(
    (s) =>
      s.kind === Kind.FIELD &&
      (s.name.value === '_entities' || s.name.value === '_service' || (s.name.value.startsWith('__') && s.name.value !== '__typename')),
  );

export interface JitExecutor {
  executor: GatewayExecutor;
  /** How many documents are compiled now (tests and diagnostics). */
  compiled(): number;
}

export function jitExecutor(schema: GraphQLSchema, maxCompiled = MAX_COMPILED): JitExecutor {
  // Least recently used out first.
  const compiled = new LRUCache<string, CompiledQuery | 'interpret'>({ max: maxCompiled });
  const seen = new LRUCache<string, number>({ max: MAX_SEEN });

  const interpret = (document: DocumentNode, operationName: string | null, variables: Record<string, unknown>, contextValue: unknown) =>
    execute({ schema, document, operationName, variableValues: variables, contextValue }) as Promise<ExecutionResult> | ExecutionResult;

  const executor: GatewayExecutor = async (rc) => {
    const variables = rc.request.variables ?? {};
    // Apollo calls the executor once it has resolved the operation.
    const { operation } = rc;
    if (!compilable(operation)) return interpret(rc.document, rc.operationName, variables, rc.context);
    const key = `${rc.queryHash}\u0000${rc.operationName ?? ''}`;
    let query = compiled.get(key);
    if (!query) {
      const uses = (seen.get(key) ?? 0) + 1;
      seen.set(key, uses);
      if (uses < COMPILE_AT_USE) return interpret(rc.document, rc.operationName, variables, rc.context);
      const made = compileQuery(schema, rc.document, rc.operationName ?? undefined);
      query = isCompiledQuery(made) ? made : 'interpret';
      compiled.set(key, query);
    }
    if (query === 'interpret') return interpret(rc.document, rc.operationName, variables, rc.context);
    // Variables are checked by graphql-js first, so their errors read as Apollo's always did
    // (graphql-jit words them otherwise); the REST executor does the same.
    const checked = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (checked.errors) return { errors: checked.errors };
    return query.query(undefined, rc.context, variables);
  };
  return { executor, compiled: () => compiled.size };
}

/** The gateway Apollo Server takes instead of a schema: this schema, run by `executor`. */
export function jitGateway(schema: GraphQLSchema, executor: GatewayExecutor): GatewayInterface {
  return {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async load() {
      return { executor };
    },
    async stop() {},
  };
}
