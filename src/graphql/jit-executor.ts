// Client documents on /graphql run as generated code, as the REST routes' documents do
// (src/rest/executor.ts): Apollo Server takes an executor through its gateway interface, and this
// one compiles a document with graphql-jit the second time it is seen (a document sent once is not
// worth compiling, and a stream of distinct documents must not cost a compilation each), keeps up
// to MAX_COMPILED of them in MAX_COMPILED_BYTES, and runs everything else with graphql-js as Apollo would. Parsing,
// validation (graphql-armor's limits, introspection off in production), the context and the
// plugins stay Apollo's. Measured in docs/performance.md.
import {
  execute,
  GraphQLError,
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
 * 40 KB of heap before it runs (more once V8 optimises it); a client app sends a few dozen distinct
 * documents at most.
 */
export const MAX_COMPILED = 100;
/**
 * The heap the compiled documents may take together, by compiledBytes(). graphql-armor bounds a
 * document's tokens, not its text: a name or a comment may be 500 KB, and compiled code keeps the
 * document's source (twice, for a long operation name), so a hundred such documents would take 100 MB.
 */
export const MAX_COMPILED_BYTES = 12 * 1024 * 1024;
/** A compiled document's heap, near enough: 40 KB of code and twice its source text. */
const compiledBytes = (source: string) => 40 * 1024 + 2 * Buffer.byteLength(source);
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

/** Apollo's own answer when no operation matches (a name is echoed cut to 100 characters). */
function unresolvedOperation(name: string | undefined): GraphQLError {
  const message =
    typeof name === 'string'
      ? `Unknown operation named "${name.length > 100 ? `${name.slice(0, 100)}...` : name}".`
      : 'Must provide operation name if query contains multiple operations.';
  return new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE', http: { status: 400 } } });
}

export interface JitExecutor {
  executor: GatewayExecutor;
  /** How many documents are compiled now (tests and diagnostics). */
  compiled(): number;
}

export function jitExecutor(schema: GraphQLSchema, maxCompiled = MAX_COMPILED, maxBytes = MAX_COMPILED_BYTES): JitExecutor {
  // Least recently used out first; each entry's size is set with it.
  const compiled = new LRUCache<string, CompiledQuery | 'interpret'>({ max: maxCompiled, maxSize: maxBytes });
  const seen = new LRUCache<string, number>({ max: MAX_SEEN });

  const interpret = (document: DocumentNode, operationName: string | null, variables: Record<string, unknown>, contextValue: unknown) =>
    execute({ schema, document, operationName, variableValues: variables, contextValue }) as Promise<ExecutionResult> | ExecutionResult;

  const executor: GatewayExecutor = async (rc) => {
    const variables = rc.request.variables ?? {};
    // Apollo, with a gateway, calls the executor whether or not the operation name matched one of
    // the document's operations: no operation is the client's error, as Apollo answers without one.
    const { operation } = rc;
    if (!operation) return { errors: [unresolvedOperation(rc.request.operationName)] };
    if (!compilable(operation)) return interpret(rc.document, rc.operationName, variables, rc.context);
    // The document's hash and the operation's place in it: a key of bounded length, whatever the
    // length of the operation's name.
    const key = `${rc.queryHash}/${rc.document.definitions.indexOf(operation)}`;
    let query = compiled.get(key);
    if (!query) {
      const uses = (seen.get(key) ?? 0) + 1;
      seen.set(key, uses);
      if (uses < COMPILE_AT_USE) return interpret(rc.document, rc.operationName, variables, rc.context);
      // A document graphql-jit cannot compile, or too large to keep compiled, is remembered as
      // one to interpret, in a few bytes.
      const size = compiledBytes(rc.source);
      const made = size <= maxBytes ? compileQuery(schema, rc.document, rc.operationName ?? undefined) : null;
      query = made && isCompiledQuery(made) ? made : 'interpret';
      compiled.set(key, query, { size: query === 'interpret' ? 1 : size });
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
