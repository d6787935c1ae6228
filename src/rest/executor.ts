// The REST facade: each route runs its pre-parsed, pre-validated GraphQL document in-process
// against the same schema and context builder as /graphql, then shapes the exact REST body.
// The documents are ours and fixed, so each is compiled once at start-up with graphql-jit
// (execution as generated code rather than graphql-js walking the document per request:
// docs/performance.md). Client documents on /graphql stay with Apollo Server and graphql-js.
import crypto from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import { parse, validate, getOperationAST, type ExecutionResult, type GraphQLSchema, type OperationTypeNode } from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { buildContext, type AppDeps, type Context } from '../context';
import { authenticate } from './authenticate';
import { classify, isDependencyFailure } from '../graphql/error-mapping';
import { ServiceError, isErrorCode, statusOf } from '../graphql/errors';
import type { RouteDef } from './route';
import { sendError } from './respond';
import { parseMultipart, type ParsedMultipart } from './multipart';
import { traceOperation, recordOperationError } from '../observability/tracing';

export interface CompiledRoute {
  def: RouteDef;
  /** query or mutation (a span attribute of each request). */
  operationType: OperationTypeNode;
  /** The document compiled for this schema: runs the operation with a context and variables. */
  execute(contextValue: Context, variables: Record<string, unknown>): Promise<ExecutionResult> | ExecutionResult;
}

/** Parses and validates every route's document; a broken route fails start-up, not a request. */
export function compileRoutes(schema: GraphQLSchema, routes: RouteDef[]): CompiledRoute[] {
  const seen = new Set<string>();
  return routes.map((def) => {
    const key = `${def.method} ${def.path}`;
    if (seen.has(key)) throw new Error(`Duplicate route ${key}`);
    seen.add(key);
    const document = parse(def.document);
    const errors = validate(schema, document);
    if (errors.length) throw new Error(`Route ${key} (${def.operation}): ${errors.map((e) => e.message).join('; ')}`);
    const op = getOperationAST(document);
    if (!op || op.name?.value !== def.operation) {
      throw new Error(`Route ${key}: the document must hold one operation named ${def.operation}`);
    }
    const compiled = compileQuery(schema, document, def.operation);
    if (!isCompiledQuery(compiled)) throw new Error(`Route ${key} (${def.operation}): ${compiled.errors?.map((e) => e.message).join('; ')}`);
    const variableDefinitions = op.variableDefinitions ?? [];
    const execute = (contextValue: Context, variables: Record<string, unknown>) => {
      // Variables are checked by graphql-js first: its messages name the offending input field,
      // which the REST error body reports (error-mapping.ts); graphql-jit words them otherwise.
      const checked = getVariableValues(schema, variableDefinitions, variables, { maxErrors: 50 });
      if (checked.errors) return { errors: checked.errors };
      return compiled.query(undefined, contextValue, variables);
    };
    return { def, operationType: op.operation, execute };
  });
}

function etagOf(body: unknown): string {
  return `W/"${crypto.createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 27)}"`;
}

function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v.replace(/^W\//, '') === etag.replace(/^W\//, '');
  });
}

/** A credential check that failed for a reason other than the credential itself: a store
 * that does not answer is the route's service exception (503), anything else internal. */
function credentialFailure(def: RouteDef, err: unknown, ctx: Context): ServiceError {
  if (err instanceof ServiceError) return err;
  if (isDependencyFailure(err)) {
    // The module's own service exception (its database is the token store's too); the cache
    // exception stays for the cache itself, which the principal module reports on its own.
    const code = def.openapi.errors.find((c) => isErrorCode(c) && statusOf(c) === 503 && c !== 'WSCacheServiceException');
    return new ServiceError(code && isErrorCode(code) ? code : 'WSCacheServiceException', undefined, { cause: err });
  }
  ctx.logger.error({ err, operation: def.operation }, 'unhandled error while checking credentials');
  return new ServiceError('WSInternalException');
}

export function createRestRouter(deps: AppDeps, compiled: CompiledRoute[]): Router {
  const router = new Router();
  for (const { def, operationType, execute } of compiled) {
    const handler: Koa.Middleware = async (ctx) => {
      ctx.state.operation = def.operation;
      const contextValue = buildContext(deps, ctx.state.requestId, ctx.headers, ctx.state.logger ?? deps.logger);
      contextValue.clientIp = ctx.ip;
      // The credential first: nothing about the request is looked at, or read from the
      // socket, for a caller without one.
      try {
        await authenticate(def.credential, contextValue);
      } catch (err) {
        return sendError(ctx, credentialFailure(def, err, contextValue));
      }
      if (!def.multipart) return run(ctx, (ctx.request as any).body ?? {}, contextValue);
      // A multipart body streams while the operation runs; the answer waits for its end.
      let multipart: ParsedMultipart | undefined;
      try {
        multipart = await parseMultipart(ctx, def.multipart, deps.config);
        await run(ctx, multipart.body, contextValue);
      } finally {
        multipart?.drain();
        await multipart?.finished;
      }
    };
    const run = async (ctx: Koa.Context, requestBody: unknown, contextValue: Context) => {
      const logger = contextValue.logger;
      let variables: Record<string, unknown>;
      try {
        variables = def.variables({ params: ctx.params ?? {}, query: ctx.query, headers: ctx.headers, body: requestBody });
      } catch (err) {
        if (err instanceof ServiceError) return sendError(ctx, err);
        throw err;
      }
      const { result, classified } = await traceOperation(def.operation, { 'graphql.operation.name': def.operation, 'graphql.operation.type': operationType }, async (span) => {
        const result = await execute(contextValue, variables);
        const classified = result.errors?.length ? classify(result.errors[0]) : undefined;
        if (result.errors?.length) recordOperationError(span, classified?.error.code ?? 'WSInternalException', !classified || classified.internal);
        return { result, classified };
      });
      if (result.errors?.length) {
        if (!classified || classified.internal) {
          logger.error({ err: result.errors[0].originalError ?? result.errors[0], operation: def.operation }, 'unhandled error in REST operation');
        }
        return sendError(ctx, classified?.error ?? new ServiceError('WSInternalException'));
      }
      ctx.status = def.status ?? 200;
      if (def.respond) return def.respond(ctx, result.data, deps);
      const body = def.result(result.data);
      if (body === undefined) {
        ctx.body = '';
        return;
      }
      if (def.etag) {
        const etag = etagOf(body);
        ctx.set('ETag', etag);
        ctx.set('Cache-Control', 'no-cache');
        if (etagMatches(ctx.get('If-None-Match'), etag)) {
          ctx.status = 304;
          return;
        }
      }
      ctx.body = body;
    };
    router.register(def.path, [def.method], handler, { name: def.operation });
  }
  return router;
}
