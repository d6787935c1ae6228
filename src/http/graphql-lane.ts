// The lane of /graphql: a POST whose document Apollo has already parsed, validated and compiled
// (a trusted document, compiled at start-up; a client's own, once compiled at its second use:
// src/graphql/jit-executor.ts) runs as a REST route does, without Apollo's request pipeline
// (content negotiation, hashing the text, the document store, the plugins' hooks): what that
// pipeline cost was most of what /graphql spent above the REST route on the same read
// (docs/performance.md, "/graphql and REST"). The lane does what Apollo and its plugins would
// for such a request: the trusted documents' check (by the id kept with the lane, never hashing
// the text again), text checks of the operation name and variables (text-input plugin), graphql-js's
// check of the variables, the read routing to a replica, the operation's name in the span and
// the request's state, and a success answered as Apollo answers it (request-outcome plugin:
// no-store, the negotiated media type, the rate-limit headers; `{"data":...}` and a newline).
// Anything else goes to Apollo: another method or body, an Idempotency-Key, a refused check, and
// a result with errors, which Apollo answers from the result already computed (answerWith), so
// every error reads and counts as it always has.
import type Koa from 'koa';
import type { ExecutionResult } from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import type { Context } from '../context';
import { credentialKey } from '../context';
import { isText, firstBadText } from '../core/text';
import { rateLimitHeaders } from '../core/rate-limit';
import { routeReads } from '../db/replicas';
import { jsonLineBytes } from '../rest/respond';
import { activeSpan } from '../observability/tracing';
import type { JitExecutor } from '../graphql/jit-executor';
import { MAX_LOGGED_NAME } from '../graphql/plugins/request-outcome';
import { nameOperationSpan } from '../graphql/plugins/operation-span';
import type { GraphqlMediaType, RequestState } from './request-state';

/** The request's parts the lane reads: a JSON object with these keys and no other. */
const LANE_KEYS = new Set(['query', 'variables', 'operationName']);

type LaneRequest = { query: string; variables?: Record<string, unknown>; operationName?: string };

/** The JSON body as a request the lane may take, else null. */
function laneRequest(ctx: Koa.Context): LaneRequest | null {
  if (ctx.method !== 'POST' || !ctx.request.is('application/json')) return null;
  const body = (ctx.request as { body?: unknown }).body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  for (const key in body) if (!LANE_KEYS.has(key)) return null;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== 'string') return null;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  if (operationName !== undefined && operationName !== null && (typeof operationName !== 'string' || !operationName)) return null;
  return { query, variables: (variables ?? undefined) as LaneRequest['variables'], operationName: operationName ?? undefined };
}

export interface GraphqlLaneOptions {
  jit: JitExecutor;
  /** The context of a /graphql request, as Apollo's context function makes it (graphql-route.ts). */
  context: (ctx: Koa.ParameterizedContext<RequestState>, mediaType: GraphqlMediaType) => Context;
  /** The trusted documents' check by a document's id; throws its refusal (null: GRAPHQL_TRUSTED_DOCUMENTS=off). */
  trusted: ((ctx: Context, id: string, operationName: string | undefined) => Promise<void>) | null;
}

/**
 * Runs the request in the lane and answers it (true), or leaves it to Apollo (false), having
 * handed Apollo the context and, when it ran, the result (`handOver`).
 */
export function graphqlLane(
  options: GraphqlLaneOptions,
): (ctx: Koa.ParameterizedContext<RequestState>, handOver: (context: Context) => void) => Promise<boolean> {
  const { jit } = options;
  const { schema } = jit;
  return async (ctx, handOver) => {
    const request = laneRequest(ctx);
    const lane = request && jit.lanes.find(request.query, request.operationName);
    if (!request || !lane || ctx.get('idempotency-key')) return false;
    const mediaType = ctx.accepts('application/json', 'application/graphql-response+json') as GraphqlMediaType | false;
    if (!mediaType) return false;
    if (request.operationName && !isText(request.operationName)) return false;
    const variables = request.variables ?? {};
    if (request.variables && firstBadText(request.variables, 'variables')) return false;
    if (getVariableValues(schema, lane.operation.variableDefinitions ?? [], variables, { maxErrors: 50 }).errors) return false;
    const context = options.context(ctx, mediaType);
    if (options.trusted) {
      try {
        await options.trusted(context, lane.id, request.operationName);
      } catch {
        return false; // Apollo's context function refuses it again, in Apollo's words.
      }
    }
    const span = activeSpan();
    if (span?.isRecording()) nameOperationSpan(span, lane.name, lane.operation.operation);
    ctx.state.operation = lane.name?.slice(0, MAX_LOGGED_NAME) ?? 'anonymous';
    if (context.services.reads) await routeReads(credentialKey(context.credentials));
    let result: ExecutionResult;
    try {
      result = await lane.query.query(undefined, context, variables);
    } catch (err) {
      handOver(context);
      jit.answerWith(context.credentials, () => {
        throw err;
      });
      return false;
    }
    if (result.errors?.length) {
      // Handed over only here: a WeakMap entry a request is work for every scavenge.
      handOver(context);
      jit.answerWith(context.credentials, () => result);
      return false;
    }
    ctx.status = 200;
    ctx.set('cache-control', 'no-store');
    for (const [header, value] of Object.entries(rateLimitHeaders(context) ?? {})) ctx.set(header.toLowerCase(), value);
    ctx.set('content-type', `${mediaType}; charset=utf-8`);
    // Sent as its bytes, encoded once (src/rest/respond.ts sendJson and jsonLineBytes say why).
    ctx.body = jsonLineBytes(JSON.stringify({ data: result.data }));
    return true;
  };
}
