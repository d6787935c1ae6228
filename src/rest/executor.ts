// The REST facade: each route runs its pre-parsed, pre-validated GraphQL document in-process
// against the same schema and context builder as /graphql, then shapes the exact REST body.
// The documents are ours and fixed, so each is compiled once at start-up with graphql-jit
// (execution as generated code rather than graphql-js walking the document per request:
// docs/performance.md). Client documents on /graphql are compiled the same way from their second
// use (src/graphql/jit-executor.ts).
import Router from '@koa/router';
import type Koa from 'koa';
import {
  Kind,
  validate,
  visit,
  getOperationAST,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  type OperationTypeNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { buildContext, type AppDeps, type Context } from '../context';
import { authenticate } from './authenticate';
import { classify, isDependencyFailure } from '../core/error-mapping';
import { ServiceError, isErrorCode, statusOf } from '../core/errors';
import type { RouteDef } from './route';
import { bindRoute, type RouteBinding } from './route-binding';
import { decodeParam, decodeValue } from './decode';
import { formPairs, NotText } from '../core/text';
import { answerWholeList } from './whole-list';
import { cacheControlOf, etagMatches, etagOf, varyOf } from './http-cache';
import { rateLimitHeaders } from '../core/rate-limit';
import { formToInput } from './form';
import { sendError, sendJson } from './respond';
import { parseMultipart, type ParsedMultipart, type TextParts } from './multipart';
import { textPartsOf } from './form-parts';
import { bodyLimitOf } from './body-limit';
import { readJson } from '../http/json-body';
import { inRouteVocabulary } from './route-vocabulary';
import { traceOperation, recordOperationError } from '../observability/tracing';

export interface CompiledRoute {
  def: RouteDef;
  binding: RouteBinding;
  /** query or mutation (a span attribute of each request). */
  operationType: OperationTypeNode;
  /** The document compiled for this schema: runs the operation with a context and variables. */
  execute: (contextValue: Context, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;
  /** Bytes of JSON body the route admits (body-limit.ts). */
  bodyLimit: number;
  /** A multipart route's text parts and their bounds (form-parts.ts). */
  textParts?: TextParts;
  /** The whole-list variant: the same document with the root field's cursor selected as `_cursor`. */
  executeWithCursor?: (contextValue: Context, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;
}

function compileDocument(schema: GraphQLSchema, document: DocumentNode, def: RouteDef, key: string) {
  const errors = validate(schema, document);
  if (errors.length) throw new Error(`Route ${key} (${def.operation}): ${errors.map((e) => e.message).join('; ')}`);
  const op = getOperationAST(document)!;
  const compiled = compileQuery(schema, document, def.operation);
  if (!isCompiledQuery(compiled)) throw new Error(`Route ${key} (${def.operation}): ${compiled.errors?.map((e) => e.message).join('; ')}`);
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
    const execute = compileDocument(schema, binding.document, def, key);
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

/** The route's variables from the request: bound by name, decoded as the legacy service did (decode.ts). */
export function requestVariables(
  compiled: CompiledRoute,
  req: { params: Record<string, string>; query: Record<string, string | string[] | undefined>; querystring?: string; body: unknown },
  ignored?: (path: string) => void,
): Record<string, unknown> {
  const { def, binding } = compiled;
  const options = { invalid: def.invalid ?? ('WSInvalidParameterException' as const), ignored };
  if (req.querystring) {
    // Koa decodes percent-escapes that are not UTF-8 as U+FFFD: read strictly, they are refused.
    try {
      formPairs(req.querystring);
    } catch (err) {
      if (err instanceof NotText) throw new ServiceError(options.invalid, err.message, { field: err.field });
      throw err;
    }
  }
  const takesBody = binding.variables.some((v) => v.source === 'body' || v.source === 'wholeBody');
  const isObject = req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body);
  if (takesBody && req.body !== undefined && !isObject)
    throw new ServiceError(options.invalid, 'The body must be a JSON object.', { field: 'body' });
  const body = isObject ? (req.body as Record<string, unknown>) : {};
  const variables: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const v of binding.variables) {
    let value: unknown;
    switch (v.source) {
      case 'path':
        value = decodeParam(v.type, req.params[v.name], v.name, options);
        break;
      case 'query':
        // An empty value of a parameter (`?pageNum=`) is the parameter left out, on every route.
        value = decodeParam(v.type, req.query[v.name] === '' ? undefined : req.query[v.name], v.name, options);
        break;
      case 'body':
        known.add(v.name);
        value = decodeValue(v.type, body[v.name], v.name, options);
        break;
      case 'wholeBody':
        value = decodeValue(v.type, def.form ? formToInput(body, def.form) : body, '', options);
        break;
    }
    if (value !== undefined) variables[v.name] = value;
  }
  if (ignored && known.size) for (const k of Object.keys(body)) if (!known.has(k)) ignored(k);
  for (const [name, compute] of Object.entries(def.computed ?? {})) variables[name] = compute(variables);
  return variables;
}

/**
 * A read's caching headers (http-cache.ts), on a successful answer only: an error is never
 * kept. Vary adds to what is there (CORS's Origin).
 */
function setCacheHeaders(ctx: Koa.Context, def: RouteDef): void {
  ctx.set('Cache-Control', cacheControlOf(def));
  const vary = varyOf(def);
  if (vary) ctx.vary(vary);
}

/**
 * Sends a GET's JSON with its strong ETag, or 304 without a body when If-None-Match names it.
 * The tag is the digest of the very bytes sent, so any change of the answer changes it.
 */
function sendRead(ctx: Koa.Context, json: string): void {
  const etag = etagOf(json);
  ctx.set('ETag', etag);
  if (etagMatches(ctx.get('If-None-Match'), etag)) ctx.status = 304;
  else sendJson(ctx, json);
}

/**
 * A file a `respond` route wrote (with the ETag of its stored digest), not sent when
 * If-None-Match names that tag: its stream is closed unread.
 */
function notModified(ctx: Koa.Context): void {
  const etag = ctx.response.get('ETag');
  if (!etag || !etagMatches(ctx.get('If-None-Match'), etag)) return;
  const body = ctx.body as { destroy?: () => void } | null;
  body?.destroy?.();
  ctx.status = 304;
}

/** What the request's rate-limited operation counted (RateLimit-Policy, RateLimit), on whatever it answers. */
function setRateLimitHeaders(ctx: Koa.Context, contextValue: Context): void {
  for (const [k, v] of Object.entries(rateLimitHeaders(contextValue) ?? {})) ctx.set(k, v);
}

/** A credential check that failed for a reason other than the credential itself: a store
 * that does not answer is the route's service exception (503), anything else internal. */
function credentialFailure(def: RouteDef, err: unknown, ctx: Context): ServiceError {
  if (err instanceof ServiceError) return err;
  if (isDependencyFailure(err)) {
    // The module's own service exception (its database is the token store's too); the cache
    // exception stays for the cache itself, which the principal module reports on its own.
    const code = def.errors.find((c) => isErrorCode(c) && statusOf(c) === 503 && c !== 'WSCacheServiceException');
    return new ServiceError(code && isErrorCode(code) ? code : 'WSCacheServiceException', undefined, { cause: err });
  }
  ctx.logger.error({ err, operation: def.operation }, 'unhandled error while checking credentials');
  return new ServiceError('WSInternalException');
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The JSON body of a route that takes one, read after the credential was checked: JSON by its
 * media type, or with none or text/plain (legacy HTTP clients leave the type out or send their
 * default); any other media type is 415 naming body. A route that takes no body does not read it.
 */
async function jsonBodyOf(ctx: Koa.Context, route: CompiledRoute): Promise<unknown> {
  if (!WITH_BODY.has(ctx.method) || !route.binding.variables.some((v) => v.source === 'body' || v.source === 'wholeBody')) return {};
  if (ctx.get('content-type') && !ctx.request.is('application/json', '+json', 'text/plain')) {
    throw new ServiceError('WSInvalidParameterException', 'The body must be JSON (application/json).', { field: 'body', status: 415 });
  }
  return readJson(ctx, route.bodyLimit);
}

/** A batch of a whole list answered errors (the executor answers or logs them). */
class BatchFailed extends Error {
  constructor(readonly batch: { result: ExecutionResult; classified: ReturnType<typeof classify> | undefined }) {
    super('a batch of a whole list failed');
  }
}

export interface RestRouterOptions {
  /** Counts a request property the operation does not know (ignored, as legacy clients expect). */
  onIgnoredProperty?: (operation: string) => void;
}

export function createRestRouter(deps: AppDeps, compiled: CompiledRoute[], options: RestRouterOptions = {}): Router {
  const router = new Router();
  for (const route of compiled) {
    const { def, operationType, execute } = route;
    const handler: Koa.Middleware = async (ctx) => {
      ctx.state.operation = def.operation;
      const contextValue = buildContext(deps, ctx.state.requestId, ctx.headers, () => ctx.state.logger ?? deps.logger);
      contextValue.clientIp = ctx.ip;
      // The credential first: nothing about the request is looked at, or read from the
      // socket, for a caller without one.
      try {
        await authenticate(def.credential, contextValue);
        await def.before?.(contextValue);
      } catch (err) {
        setRateLimitHeaders(ctx, contextValue);
        return sendError(ctx, inRouteVocabulary(def, credentialFailure(def, err, contextValue)));
      }
      if (!def.multipart) {
        let body: unknown;
        try {
          body = await jsonBodyOf(ctx, route);
        } catch (err) {
          if (err instanceof ServiceError) return sendError(ctx, inRouteVocabulary(def, err));
          throw err;
        }
        return run(ctx, body, contextValue);
      }
      let multipart: ParsedMultipart | undefined;
      try {
        multipart = await parseMultipart(ctx, def.multipart, route.textParts!, deps.config, deps.em);
        await run(ctx, multipart.body, contextValue);
      } finally {
        await multipart?.cleanup();
      }
    };
    const ignored = options.onIgnoredProperty ? () => options.onIgnoredProperty!(def.operation) : undefined;
    const runOnce = async (contextValue: Context, variables: Record<string, unknown>, exec = execute) =>
      traceOperation(def.operation, { 'graphql.operation.name': def.operation, 'graphql.operation.type': operationType }, async (span) => {
        const result = await exec(contextValue, variables);
        const classified = result.errors?.length ? classify(result.errors[0]) : undefined;
        if (result.errors?.length)
          recordOperationError(span, classified?.error.code ?? 'WSInternalException', !classified || classified.internal);
        return { result, classified };
      });
    const run = async (ctx: Koa.Context, requestBody: unknown, contextValue: Context) => {
      let variables: Record<string, unknown>;
      try {
        variables = requestVariables(
          route,
          { params: ctx.params ?? {}, query: ctx.query, querystring: ctx.querystring, body: requestBody },
          ignored,
        );
      } catch (err) {
        if (err instanceof ServiceError) return sendError(ctx, err);
        throw err;
      }
      const failed = (r: Awaited<ReturnType<typeof runOnce>>) => {
        if (!r.result.errors?.length) return false;
        if (!r.classified || r.classified.internal) {
          contextValue.logger.error(
            { err: r.result.errors[0].originalError ?? r.result.errors[0], operation: def.operation },
            'unhandled error in REST operation',
          );
        }
        sendError(ctx, r.classified?.error ?? new ServiceError('WSInternalException'));
        return true;
      };
      const isRead = def.method === 'GET';
      const whole = def.wholeList;
      if (whole && route.executeWithCursor && variables[whole.unless] === undefined) {
        // Every record, in batches that each start after the last one's cursor. The first batch is
        // of the page size the client gave, if any, so that its argument's rule checks it before
        // anything is sent; the others are of `whole.batch` (a page size of 1 does not make one
        // statement a record).
        const firstSize = typeof variables[whole.pageSize] === 'number' ? (variables[whole.pageSize] as number) : whole.batch;
        const batch = (after: unknown, size: number) =>
          runOnce(
            contextValue,
            { ...variables, [whole.pageSize]: size, [whole.after]: after ?? variables[whole.after] ?? null },
            route.executeWithCursor,
          );
        const first = await batch(undefined, firstSize);
        setRateLimitHeaders(ctx, contextValue);
        if (failed(first)) return;
        ctx.status = def.status ?? 200;
        const rows = first.result.data![route.binding.rootKey] as Record<string, unknown>[];
        try {
          return await answerWholeList(
            ctx,
            rows,
            { first: firstSize, rest: whole.batch },
            async (cursor) => {
              const next = await batch(cursor, whole.batch);
              if (next.result.errors?.length) throw new BatchFailed(next);
              return next.result.data![route.binding.rootKey] as Record<string, unknown>[];
            },
            {
              whole: (json) => {
                setCacheHeaders(ctx, def);
                sendRead(ctx, json);
              },
              streaming: () => setCacheHeaders(ctx, def),
              broke: (err) => {
                const cause = err instanceof BatchFailed ? (err.batch.result.errors![0].originalError ?? err.batch.result.errors![0]) : err;
                contextValue.logger.error({ err: cause, operation: def.operation }, 'a whole list broke off');
              },
            },
          );
        } catch (err) {
          // A batch failed before anything was sent: answered as the route's error.
          if (!(err instanceof BatchFailed)) throw err;
          failed(err.batch);
          return;
        }
      }
      const once = await runOnce(contextValue, variables);
      setRateLimitHeaders(ctx, contextValue);
      if (failed(once)) return;
      ctx.status = def.status ?? 200;
      if (def.respond) {
        await def.respond(ctx, once.result.data, contextValue);
        if (isRead && ctx.status === 200) {
          setCacheHeaders(ctx, def);
          notModified(ctx);
        }
        return;
      }
      if (def.body === 'none' || ctx.status === 204) {
        ctx.body = '';
        return;
      }
      const body = once.result.data![route.binding.rootKey];
      // A null root (an optional answer) keeps Koa's own handling of an empty body.
      if (body == null) ctx.body = body;
      else if (isRead) {
        setCacheHeaders(ctx, def);
        sendRead(ctx, JSON.stringify(body));
      } else sendJson(ctx, JSON.stringify(body));
    };
    router.register(def.path, [def.method], handler, { name: def.operation });
  }
  return router;
}
