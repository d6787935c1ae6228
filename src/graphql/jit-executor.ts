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
  parse,
  validate,
  specifiedRules,
  type DocumentNode,
  type ValidationRule,
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

/**
 * A query /graphql runs without Apollo's request pipeline (src/http/graphql-lane.ts): a document
 * already parsed, validated and compiled, found by its text and the operation name sent with it.
 */
export interface Lane {
  /** The document's id, the SHA-256 of its text (the trusted documents' check). */
  id: string;
  operation: OperationDefinitionNode;
  /** The operation's name in the document (the access log's and the span's), null when it has none. */
  name: string | null;
  query: CompiledQuery;
}

/** The lanes by document text, then by the operation name sent ('' for none). */
export interface Lanes {
  find(text: string, operationName: string | undefined): Lane | undefined;
  /** How many lanes there are now (tests and diagnostics). */
  size(): number;
}

export interface JitExecutor {
  schema: GraphQLSchema;
  executor: GatewayExecutor;
  /** How many documents are compiled now (tests and diagnostics). */
  compiled(): number;
  lanes: Lanes;
  /**
   * Hands the executor what the lane's run of a request gave (its result, or what it threw), by
   * answerKey of its context: Apollo then answers it (its errors formatted, its plugins' hooks
   * run) without running the operation again.
   */
  answerWith(key: object, answer: () => ExecutionResult | Promise<ExecutionResult>): void;
}

/** The REST routes' documents compiled at start-up, by schema and text (rememberRouteDocument). */
const routeDocuments = new WeakMap<GraphQLSchema, Map<string, CompiledQuery>>();

/**
 * A REST route's document as the route table compiled it (one named operation, validated): the
 * same text sent to /graphql, a trusted document, runs on it rather than on a second compilation.
 */
export function rememberRouteDocument(schema: GraphQLSchema, text: string, query: CompiledQuery): void {
  const known = routeDocuments.get(schema) ?? routeDocuments.set(schema, new Map()).get(schema)!;
  known.set(text, query);
}

/** Options of jitExecutor beyond the bounds of its cache. */
export interface JitOptions {
  /**
   * Documents compiled at start-up, text by id: the trusted documents (the REST routes' and the
   * explorer's examples, GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST's), each query a lane from the first
   * request. A document that does not pass `validationRules` is left to Apollo, which refuses it.
   */
  trusted?: ReadonlyMap<string, string>;
  validationRules?: readonly ValidationRule[];
  /**
   * What answerWith keys a result by, from the executor's context: Apollo runs the operation with
   * a copy of the context its context function made, so a member both share (the context itself
   * by default).
   */
  answerKey?: (contextValue: object) => object;
}

export function jitExecutor(
  schema: GraphQLSchema,
  maxCompiled = MAX_COMPILED,
  maxBytes = MAX_COMPILED_BYTES,
  options: JitOptions = {},
): JitExecutor {
  const lanes = new Map<string, Map<string, Lane>>();
  const addLane = (text: string, sentName: string, lane: Lane) => {
    const byName = lanes.get(text) ?? lanes.set(text, new Map()).get(text)!;
    byName.set(sentName, lane);
  };
  // A client's lanes live as long as their compiled query: the cache's key names them.
  const clientLanes = new Map<string, [text: string, sentName: string]>();
  const dropLane = (key: string) => {
    const named = clientLanes.get(key);
    if (!named) return;
    clientLanes.delete(key);
    const byName = lanes.get(named[0]);
    byName?.delete(named[1]);
    if (byName?.size === 0) lanes.delete(named[0]);
  };
  // Least recently used out first; each entry's size is set with it.
  const compiled = new LRUCache<string, CompiledQuery | 'interpret'>({
    max: maxCompiled,
    maxSize: maxBytes,
    dispose: (_value, key) => dropLane(key),
  });
  const seen = new LRUCache<string, number>({ max: MAX_SEEN });
  const answers = new WeakMap<object, () => ExecutionResult | Promise<ExecutionResult>>();
  const rules = [...specifiedRules, ...(options.validationRules ?? [])];
  for (const [id, text] of options.trusted ?? []) {
    const document = parse(text);
    // A REST route's document was validated and compiled by the route table (src/rest/executor.ts).
    const route = routeDocuments.get(schema)?.get(text);
    if (!route && validate(schema, document, rules).length) continue;
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    for (const operation of operations.filter(compilable)) {
      const name = operation.name?.value ?? null;
      const made = route ?? compileQuery(schema, document, name ?? undefined);
      if (!isCompiledQuery(made)) continue;
      const lane = { id, operation, name, query: made };
      if (name) addLane(text, name, lane);
      if (operations.length === 1) addLane(text, '', lane);
    }
  }

  const interpret = (document: DocumentNode, operationName: string | null, variables: Record<string, unknown>, contextValue: unknown) =>
    execute({ schema, document, operationName, variableValues: variables, contextValue }) as Promise<ExecutionResult> | ExecutionResult;

  const executor: GatewayExecutor = async (rc) => {
    const answerKey = options.answerKey?.(rc.context) ?? rc.context;
    const answered = answers.get(answerKey);
    if (answered) {
      answers.delete(answerKey);
      return answered();
    }
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
      // Apollo has parsed and validated the document, and its plugins have passed its literals:
      // the next request sending this text and operation name may take the lane.
      const sentName = rc.request.operationName ?? '';
      if (query !== 'interpret' && rc.source && !lanes.get(rc.source)?.has(sentName)) {
        addLane(rc.source, sentName, { id: rc.queryHash, operation, name: operation.name?.value ?? null, query });
        clientLanes.set(key, [rc.source, sentName]);
      }
    }
    if (query === 'interpret') return interpret(rc.document, rc.operationName, variables, rc.context);
    // Variables are checked by graphql-js first, so their errors read as Apollo's always did
    // (graphql-jit words them otherwise); the REST executor does the same.
    const checked = getVariableValues(schema, operation.variableDefinitions ?? [], variables, { maxErrors: 50 });
    if (checked.errors) return { errors: checked.errors };
    return query.query(undefined, rc.context, variables);
  };
  return {
    schema,
    executor,
    compiled: () => compiled.size,
    lanes: {
      find: (text, operationName) => lanes.get(text)?.get(operationName ?? ''),
      size: () => [...lanes.values()].reduce((n, byName) => n + byName.size, 0),
    },
    answerWith: (key, answer) => void answers.set(key, answer),
  };
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
