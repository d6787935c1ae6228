// The answer of a list the specification returns whole (`wholeList`: endpoints 16 and 17), when
// the request names no page: every record, in batches that each start after the last one's
// cursor, held or streamed (whole-list-body.ts). The first batch is of the page size the client
// gave, if any, so that its argument's rule checks it before anything is sent; the others are of
// `batch` (a page size of 1 does not make one statement a record). A request that names a page is
// the route's plain read.
import type Koa from 'koa';
import type { Context } from '../../context';
import type { Execute, Operation, Outcome } from '../operation';
import type { RouteDef } from '../route';
import { answerWholeList } from './whole-list-body';
import { cachingOf, sendRead } from './read';

type Variables = Record<string, unknown>;
type Rows = Record<string, unknown>[];
type Stage = (ctx: Koa.Context, request: Context, variables: Variables) => Promise<void>;

/** A batch after the first answered errors: answered as the route's error while nothing was sent, else logged. */
class BatchFailed extends Error {
  constructor(readonly outcome: Outcome) {
    super('a batch of a whole list failed');
  }
}

export function wholeListAnswer(def: RouteDef, rootKey: string, executeWithCursor: Execute, operation: Operation, paged: Stage): Stage {
  const whole = def.wholeList!;
  const caching = cachingOf(def);
  return async (ctx, request, variables) => {
    if (variables[whole.unless] !== undefined) return paged(ctx, request, variables);
    const firstSize = typeof variables[whole.pageSize] === 'number' ? (variables[whole.pageSize] as number) : whole.batch;
    const batch = (after: unknown, size: number) => ({
      ...variables,
      [whole.pageSize]: size,
      [whole.after]: after ?? variables[whole.after] ?? null,
    });
    const first = await operation.execute(ctx, request, batch(undefined, firstSize), executeWithCursor);
    try {
      await answerWholeList(
        ctx,
        first[rootKey] as Rows,
        { first: firstSize, rest: whole.batch },
        async (cursor) => {
          const next = await operation.run(request, batch(cursor, whole.batch), executeWithCursor);
          if (next.result.errors?.length) throw new BatchFailed(next);
          return next.result.data![rootKey] as Rows;
        },
        {
          whole: (json) => {
            caching(ctx);
            sendRead(ctx, json);
          },
          streaming: () => caching(ctx),
          broke: (err) => {
            const cause = err instanceof BatchFailed ? (err.outcome.result.errors![0].originalError ?? err.outcome.result.errors![0]) : err;
            request.logger.error({ err: cause, operation: def.operation }, 'a whole list broke off');
          },
        },
      );
    } catch (err) {
      // A batch failed before anything was sent: answered as the route's error.
      throw err instanceof BatchFailed ? operation.failure(err.outcome, request) : err;
    }
  };
}
