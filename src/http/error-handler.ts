// The one error handler: whatever a later middleware throws leaves as the service's error body
// (ServiceError's identifier and status); a body that cannot be parsed is the client's fault; any
// other failure is logged with the request id and answered WSInternalException, never with a
// stack trace. What Koa reports outside the chain (logAppErrors) is logged the same way.
import type Koa from 'koa';
import { ServiceError } from '../core/errors';
import type { Logger } from '../logger';
import { sendError } from '../rest/respond';
import type { RequestMiddleware, RequestState } from './request-state';

export const errorHandler: RequestMiddleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (err instanceof ServiceError) return sendError(ctx, err);
    // http-errors from the body parser and Koa carry a status (and the parser a type).
    const { status: raw, type } = (err ?? {}) as { status?: unknown; type?: unknown };
    const status = typeof raw === 'number' ? raw : 500;
    if (status === 400 || type === 'entity.parse.failed' || err instanceof SyntaxError) {
      return sendError(ctx, new ServiceError('WSInvalidParameterException', 'The request body is not valid JSON.', { field: 'body' }));
    }
    if (status === 413)
      return sendError(ctx, new ServiceError('WSLimitExceededException', 'The request body is too large.', { status: 413 }));
    if (status === 415)
      return sendError(ctx, new ServiceError('WSInvalidParameterException', 'Unsupported content type.', { field: 'body', status: 415 }));
    ctx.state.logger.error({ err }, 'unhandled error');
    sendError(ctx, new ServiceError('WSInternalException'));
  }
};

/** How a client's leaving reads when its connection fails under an answer: not a failure of the service. */
const CLIENT_GONE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Koa's reports of errors outside the middleware chain, chiefly a connection that failed under an
 * answer already under way (a client that reset its connection to an open event stream): logged
 * with the request id as every line is, a client gone as info, anything else as an error. Without
 * a listener Koa writes each one's stack to stderr.
 */
export function logAppErrors(koa: Koa, logger: Logger): void {
  koa.on('error', (err: NodeJS.ErrnoException, ctx?: Koa.Context) => {
    const log = (ctx?.state as RequestState | undefined)?.logger ?? logger;
    if (err?.code && CLIENT_GONE.has(err.code)) log.info({ code: err.code }, 'client connection closed under the answer');
    else log.error({ err }, 'unhandled error');
  });
}
