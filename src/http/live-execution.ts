// How the two subscription transports (live-ws.ts, live-sse.ts) run a subscription: graphql-js
// starts it (its variables checked, its subscribe resolver run), each event is executed by the
// document's graphql-jit compilation, and a subscription that is the same for everyone
// (src/graphql/shared-events.ts) has each event executed once for all its subscribers with the
// same variables, and answered as one JSON text on the event streams. What a result is answered
// as: errors worded as /graphql words them.
import {
  createSourceEventStream,
  getOperationAST,
  GraphQLError,
  subscribe,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type VariableDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { formatError } from '../graphql/format-error';
import { sameForEveryone } from '../graphql/shared-events';

/**
 * What graphql-jit compiled for each event of one of a kept document's operations (the operation
 * run with the event as its root value), the operation's variables and whether an event's result
 * is the same for every subscriber with the same variables (`shared`: sameForEveryone), or null
 * where graphql-jit cannot compile it.
 */
type CompiledSubscription = { query: CompiledQuery['query']; variables: readonly VariableDefinitionNode[]; shared: boolean } | null;

/** The compiled subscriptions, by kept document (one object a text: subscriptionDocument) and operation name. */
const compiledSubscriptions = new WeakMap<DocumentNode, Map<string, CompiledSubscription>>();

function compiledSubscription(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CompiledSubscription {
  let byName = compiledSubscriptions.get(document);
  if (!byName) compiledSubscriptions.set(document, (byName = new Map()));
  const key = operationName ?? '';
  if (byName.has(key)) return byName.get(key)!;
  let made: CompiledSubscription = null;
  try {
    const compiled = compileQuery(schema, document, operationName || undefined);
    const operation = getOperationAST(document, operationName || undefined);
    if (operation && isCompiledQuery(compiled) && compiled.subscribe)
      made = { query: compiled.query, variables: operation.variableDefinitions ?? [], shared: sameForEveryone(schema, document) };
  } catch {
    // graphql-js runs what graphql-jit does not compile.
  }
  byName.set(key, made);
  return made;
}

/**
 * The results of events shared by many subscribers (an object event, such as an inbox item handed
 * to every recipient), by the compiled query and variables: made by the first subscriber's
 * execution, held as long as the event is (the subscriptions' queues hold it until it is sent).
 */
const sharedResults = new WeakMap<object, Map<NonNullable<CompiledSubscription>['query'], Map<string, Promise<ExecutionResult>>>>();

/**
 * A subscription's results: each event of its source (the subscribe resolver's iterator) executed
 * by the compiled operation, as graphql-js's and graphql-jit's subscribe map them (a failure of
 * the execution ends the source and is thrown), in one object. Their mapping (an object of three
 * async closures, its scope, an execution context kept for the subscription's life, and a
 * suspended async call while idle) held some 1 KB of each idle subscription (docs/performance.md).
 */
class LiveEvents implements LiveResults {
  constructor(
    private readonly source: AsyncIterator<unknown>,
    private readonly query: NonNullable<CompiledSubscription>['query'],
    private readonly context: unknown,
    private readonly variables: Record<string, unknown> | undefined,
    /** Whether the subscription is the same for everyone: its events' results are shared (sharedResults). */
    private readonly shared: boolean,
  ) {}

  next(): Promise<IteratorResult<ExecutionResult>> {
    return this.source.next().then((event) => this.executed(event));
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    return this.source.return ? this.executed(await this.source.return()) : { value: undefined, done: true };
  }

  async throw(error?: unknown): Promise<IteratorResult<ExecutionResult>> {
    if (!this.source.throw) throw error;
    return this.executed(await this.source.throw(error));
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The event's result: executed for this subscriber, or once for all with the same query and variables. */
  private result(event: unknown): ExecutionResult | Promise<ExecutionResult> {
    if (!this.shared || typeof event !== 'object' || event === null) return this.query(event, this.context, this.variables);
    let byQuery = sharedResults.get(event);
    if (!byQuery) sharedResults.set(event, (byQuery = new Map()));
    let byVariables = byQuery.get(this.query);
    if (!byVariables) byQuery.set(this.query, (byVariables = new Map()));
    // (Made at each event, not kept: a string held by each of ten thousand idle subscriptions.)
    const variables = JSON.stringify(this.variables ?? {});
    let made = byVariables.get(variables);
    if (!made) {
      made = Promise.resolve(this.query(event, this.context, this.variables)).then((result) => {
        sharedJson.set(result, null);
        return result;
      });
      byVariables.set(variables, made);
    }
    return made;
  }

  private async executed(event: IteratorResult<unknown>): Promise<IteratorResult<ExecutionResult>> {
    if (event.done) return event;
    try {
      return { value: await this.result(event.value), done: false };
    } catch (err) {
      await this.source.return?.().catch(() => undefined);
      throw err;
    }
  }
}

/**
 * Starts a subscription on either transport, as graphql-js's subscribe() would, but each event is
 * executed by the document's graphql-jit compilation (made once for a kept document and shared by
 * all its subscribers) instead of by graphql-js's execute(), which plans and checks the whole
 * operation again for every subscriber at every event: one company-wide notification is ten
 * thousand executions at once. Variables are checked and the subscribe resolver run by graphql-js
 * (createSourceEventStream), so their errors read as they always have (graphql-jit words
 * variables' otherwise); each event is then mapped by LiveEvents, with the variables graphql-js
 * coerced. A document that does not compile runs on graphql-js. `document` must be one
 * subscriptionDocument() answered.
 */
export async function liveSubscribe(args: ExecutionArgs): Promise<LiveResults | ExecutionResult> {
  const compiled = compiledSubscription(args.schema, args.document, args.operationName);
  if (!compiled) return subscribe(args);
  // Refused (its variables, or its resolver threw a GraphQLError): the errors.
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  // The events run with the variables as graphql-js coerced them (a default stands for a value not
  // sent), as graphql-jit's own subscribe ran them: given those as sent, it refuses a missing one.
  const coerced = getVariableValues(args.schema, compiled.variables, args.variableValues ?? {});
  const variables = 'coerced' in coerced ? coerced.coerced : (args.variableValues ?? undefined);
  return new LiveEvents(source[Symbol.asyncIterator](), compiled.query, args.contextValue, variables, compiled.shared);
}

/** A subscription's results, which either side may end (graphql-js's and graphql-jit's iterators both have return()). */
export type LiveResults = AsyncIterableIterator<ExecutionResult> & Required<Pick<AsyncIterableIterator<ExecutionResult>, 'return'>>;

/**
 * An error as /graphql answers it: formatError's words (the category in extensions.code, the
 * identifier in errorCode, unknown failures hidden), with the same locations and path. Its JSON is
 * that answer; graphql-jit's errors carry their locations but no nodes, so they are taken as made.
 */
class AnsweredError extends GraphQLError {
  constructor(private readonly answer: GraphQLFormattedError) {
    super(answer.message, { path: answer.path, extensions: answer.extensions });
  }

  override toJSON(): GraphQLFormattedError {
    return this.answer;
  }
}

export function asAnswered(err: unknown): GraphQLError {
  const raw =
    err instanceof GraphQLError ? err : new GraphQLError('Internal error', { originalError: err instanceof Error ? err : undefined });
  return new AnsweredError(formatError(raw.toJSON(), raw));
}

/** A result as the transports answer it: its errors worded as /graphql words them (asAnswered). */
export const answeredResult = (result: ExecutionResult): ExecutionResult =>
  result.errors ? { ...result, errors: result.errors.map(asAnswered) } : result;

/** The JSON of each shared result (null until the first subscriber's is made): made once for all the subscribers it answers. */
const sharedJson = new WeakMap<ExecutionResult, string | null>();

/** A result's JSON as the transports answer it (answeredResult): a shared result's made once. */
export function answeredJson(result: ExecutionResult): string {
  const made = sharedJson.get(result);
  if (made) return made;
  const json = JSON.stringify(answeredResult(result));
  if (made === null) sharedJson.set(result, json);
  return json;
}
