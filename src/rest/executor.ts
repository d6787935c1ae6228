// The REST facade: each route runs its pre-parsed, pre-validated GraphQL document in-process
// against the same schema and context builder as /graphql, then shapes the exact REST body.
// The documents are ours and fixed, so each is compiled once at start-up with graphql-jit
// (execution as generated code rather than graphql-js walking the document per request:
// docs/performance.md). Client documents on /graphql are compiled the same way from their second
// use (src/graphql/jit-executor.ts).
// Each route is a pipeline settled at start-up: credential (credential.ts), body (request-body.ts:
// none, JSON or multipart), variables (variables.ts), a mutation's Idempotency-Key (idempotency.ts),
// execute (operation.ts), answer (answer/: JSON, a read with its ETag, a file, none, a whole list).
// A stage that fails throws the service's error to the one error handler
// (src/http/error-handler.ts), which answers it.
import Router from '@koa/router';
import type Koa from 'koa';
import { Kind, validate, visit, getOperationAST, type DocumentNode, type FieldNode, type GraphQLSchema, OperationTypeNode } from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { rememberRouteDocument } from '../graphql/jit-executor';
import { buildContext, credentialKey, type AppDeps, type Context } from '../context';
import { markWrite, routeReads } from '../db/replicas';
import type { RouteDef } from './route';
import { bindRoute, type RouteBinding } from './route-binding';
import type { TextParts } from './multipart';
import { textPartsOf } from './form-parts';
import { bodyLimitOf } from './body-limit';
import { credentialCheck } from './credential';
import { bodyStage } from './request-body';
import { variablesStage } from './variables';
import { compileOperation, type Execute } from './operation';
import { jsonAnswer } from './answer/json';
import { readAnswer } from './answer/read';
import { fileAnswer } from './answer/file';
import { emptyAnswer } from './answer/empty';
import { wholeListAnswer } from './answer/whole-list';
import { idempotencyStage } from './idempotency';

export interface CompiledRoute {
  def: RouteDef;
  binding: RouteBinding;
  /** query or mutation (a span attribute of each request). */
  operationType: OperationTypeNode;
  /** The document compiled for this schema: runs the operation with a context and variables. */
  execute: Execute;
  /** Bytes of JSON body the route admits (body-limit.ts). */
  bodyLimit: number;
  /** A multipart route's text parts and their bounds (form-parts.ts). */
  textParts?: TextParts;
  /** The whole-list variant: the same document with the root field's cursor selected as `_cursor`. */
  executeWithCursor?: Execute;
}

function compileDocument(schema: GraphQLSchema, document: DocumentNode, def: RouteDef, key: string, text?: string) {
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`Route ${key} (${def.operation}): ${errors.map((e) => e.message).join('; ')}`);
  const op = getOperationAST(document)!;
  const compiled = compileQuery(schema, document, def.operation);
  if (!isCompiledQuery(compiled)) throw new Error(`Route ${key} (${def.operation}): ${compiled.errors?.map((e) => e.message).join('; ')}`);
  // /graphql runs the same text, a trusted document, on this compilation (jit-executor.ts).
  if (text !== undefined) rememberRouteDocument(schema, text, compiled);
  const variableDefinitions = op.variableDefinitions ?? [];
  return (contextValue: Context, variables: Record<string, unknown>) => {
    // Variables are checked by graphql-js first: its messages name the offending input field,
    // which the REST error body reports (error-mapping.ts); graphql-jit words them otherwise.
    const checked = getVariableValues(schema, variableDefinitions, variables, { maxErrors: 50 });
    if (checked.errors) return { errors: checked.errors };
    return compiled.query(undefined, contextValue, variables);
  };
}

/** The document with `_cursor: <cursor>` added to the root field's selection. */
function withCursor(document: DocumentNode, cursor: string): DocumentNode {
  let done = false;
  return visit(document, {
    Field(node) {
      if (done || !node.selectionSet) return undefined;
      done = true;
      const extra: FieldNode = {
        kind: Kind.FIELD,
        alias: { kind: Kind.NAME, value: CURSOR_KEY },
        name: { kind: Kind.NAME, value: cursor },
      };
      return { ...node, selectionSet: { ...node.selectionSet, selections: [...node.selectionSet.selections, extra] } };
    },
  });
}

const CURSOR_KEY = '_cursor';

/** Parses, binds and validates every route's document; a broken route fails start-up, not a request. */
export function compileRoutes(schema: GraphQLSchema, routes: RouteDef[]): CompiledRoute[] {
  const seen = new Set<string>();
  return routes.map((def) => {
    const key = `${def.method} ${def.path}`;
    if (seen.has(key)) throw new Error(`Duplicate route ${key}`);
    seen.add(key);
    const binding = bindRoute(schema, def);
    const execute = compileDocument(schema, binding.document, def, key, def.document);
    const executeWithCursor = def.wholeList
      ? compileDocument(schema, withCursor(binding.document, def.wholeList.cursor), def, key)
      : undefined;
    const textParts = def.multipart ? textPartsOf(binding, def.multipart, def.form) : undefined;
    return {
      def,
      binding,
      operationType: binding.operation.operation,
      execute,
      executeWithCursor,
      bodyLimit: bodyLimitOf(def, binding),
      textParts,
    };
  });
}

export interface RestRouterOptions {
  /** Counts a request property the operation does not know (ignored, as legacy clients expect). */
  onIgnoredProperty?: (operation: string) => void;
}

/** What a route does with its document's data: one of answer/, chosen once per route. */
type Answer = (ctx: Koa.Context, data: Record<string, unknown>, request: Context) => Promise<void> | void;

function answerOf(def: RouteDef, rootKey: string): Answer {
  if (def.respond) return fileAnswer(def);
  if (def.body === 'none' || def.status === 204) return emptyAnswer;
  return def.method === 'GET' ? readAnswer(def, rootKey) : jsonAnswer(rootKey);
}

/** The route's request handler: its stages compiled once, then run in order for each request. */
function pipelineOf(deps: AppDeps, route: CompiledRoute, options: RestRouterOptions): Koa.Middleware {
  const { def, binding, execute, executeWithCursor } = route;
  const credential = credentialCheck(def);
  const body = bodyStage(route, deps);
  const variablesOf = variablesStage(route, options.onIgnoredProperty ? () => options.onIgnoredProperty!(def.operation) : undefined);
  const operation = compileOperation(def, route.operationType);
  const answer = answerOf(def, binding.rootKey);
  const once = async (ctx: Koa.Context, request: Context, variables: Record<string, unknown>) =>
    answer(ctx, await operation.execute(ctx, request, variables, execute), request);
  const run = def.wholeList && executeWithCursor ? wholeListAnswer(def, binding.rootKey, executeWithCursor, operation, once) : once;
  const idempotent = idempotencyStage(route);
  return async (ctx) => {
    ctx.state.operation = def.operation;
    const request = buildContext(deps, ctx.state.requestId, ctx.headers, () => ctx.state.logger ?? deps.logger);
    request.clientIp = ctx.ip;
    // A read on a replica that has the caller's writes, a mutation on the primary (src/db/replicas.ts):
    // chosen from the credential's header alone, so the credential's own lookup reads there too.
    if (deps.services.reads)
      await (route.operationType === OperationTypeNode.MUTATION ? markWrite() : routeReads(credentialKey(request.credentials)));
    // The credential first: nothing about the request is looked at, or read from the socket, for a caller without one.
    await credential(ctx, request);
    await body(ctx, (requestBody) => {
      const variables = variablesOf({ params: ctx.params ?? {}, query: ctx.query, querystring: ctx.querystring, body: requestBody });
      // A mutation sent with an Idempotency-Key runs, and is answered, under its key (idempotency.ts).
      return idempotent(ctx, request, requestBody, () => run(ctx, request, variables));
    });
  };
}

export function createRestRouter(deps: AppDeps, compiled: CompiledRoute[], options: RestRouterOptions = {}): Router {
  const router = new Router();
  for (const route of compiled)
    router.register(route.def.path, [route.def.method], pipelineOf(deps, route, options), { name: route.def.operation });
  return router;
}
