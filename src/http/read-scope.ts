// Each request in a scope of its own for the read routing (src/db/replicas.ts), when replicas are
// configured: its reads on the primary until a GraphQL query or a REST GET routes them, and, after
// a request that wrote, the primary's WAL position kept for the caller before the answer leaves,
// so that the caller's next read, on any instance, sees the write.
import type Koa from 'koa';
import { credentialKey, readCredentials } from '../context';
import { afterRequest, type ReadRouting } from '../db/replicas';
import type { RequestState } from './request-state';

export function readScope(reads: ReadRouting): Koa.Middleware<RequestState> {
  return (ctx, next) =>
    reads.request(async () => {
      try {
        await next();
      } finally {
        // Not recorded (the store or the primary not answering): the caller may read older data
        // for at most DATABASE_REPLICA_MAX_LAG_MS; its write itself stands.
        await afterRequest(credentialKey(readCredentials(ctx.headers))).catch((err: unknown) =>
          ctx.state.logger.warn({ err }, 'read replicas: the position of a write was not kept'),
        );
      }
    });
}
