// The execute stage of a REST route: its compiled document run once with the request's context
// and variables, in a span named after the operation. A failure leaves as a thrown ServiceError
// for the one error handler to answer, after its cause is logged when it is not the caller's
// (classify: a bug or an unexpected failure is WSInternalException, its cause never shown).
import type Koa from 'koa';
import type { ExecutionResult, OperationTypeNode } from 'graphql';
import type { Context } from '../context';
import { classify, type Classified } from '../core/error-mapping';
import { ServiceError } from '../core/errors';
import { rateLimitHeaders } from '../core/rate-limit';
import { traceOperation, recordOperationError } from '../observability/tracing';
import type { RouteDef } from './route';

/** A route's document compiled for the schema: runs the operation with a context and variables. */
export type Execute = (contextValue: Context, variables: Record<string, unknown>) => Promise<ExecutionResult> | ExecutionResult;

/** What one run of the document gave: its result and, when it failed, its first error classified. */
export interface Outcome {
  result: ExecutionResult;
  classified: Classified | null | undefined;
}

/** What the request's rate-limited operation counted (RateLimit-Policy, RateLimit), on whatever it answers. */
export function setRateLimitHeaders(ctx: Koa.Context, request: Context): void {
  for (const [k, v] of Object.entries(rateLimitHeaders(request) ?? {})) ctx.set(k, v);
}

export interface Operation {
  /** Runs the document once, traced; never throws for what the document answered. */
  run(request: Context, variables: Record<string, unknown>, document: Execute): Promise<Outcome>;
  /** The error a failed run is answered with; its cause is logged when it is not the caller's. */
  failure(outcome: Outcome, request: Context): ServiceError;
  /**
   * The stage itself: runs the document, sets the rate-limit headers, throws a failure, and
   * otherwise sets the route's status and returns the data.
   */
  execute(ctx: Koa.Context, request: Context, variables: Record<string, unknown>, document: Execute): Promise<Record<string, unknown>>;
}

export function compileOperation(def: RouteDef, operationType: OperationTypeNode): Operation {
  const attributes = { 'graphql.operation.name': def.operation, 'graphql.operation.type': operationType };
  const status = def.status ?? 200;
  const operation: Operation = {
    run: (request, variables, document) =>
      traceOperation(def.operation, attributes, async (span) => {
        const result = await document(request, variables);
        const classified = result.errors?.length ? classify(result.errors[0]) : undefined;
        if (result.errors?.length)
          recordOperationError(span, classified?.error.code ?? 'WSInternalException', !classified || classified.internal);
        return { result, classified };
      }),
    failure({ result, classified }, request) {
      if (!classified || classified.internal) {
        request.logger.error(
          { err: result.errors![0].originalError ?? result.errors![0], operation: def.operation },
          'unhandled error in REST operation',
        );
      }
      return classified?.error ?? new ServiceError('WSInternalException');
    },
    async execute(ctx, request, variables, document) {
      const outcome = await operation.run(request, variables, document);
      setRateLimitHeaders(ctx, request);
      if (outcome.result.errors?.length) throw operation.failure(outcome, request);
      ctx.status = status;
      return outcome.result.data!;
    },
  };
  return operation;
}
