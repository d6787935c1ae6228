// The one error handler: whatever a later middleware throws leaves as the service's error body
// (ServiceError's identifier and status); a body that cannot be parsed is the client's fault; any
// other failure is logged with the request id and answered WSInternalException, never with a
// stack trace.
import { ServiceError } from '../core/errors';
import { sendError } from '../rest/respond';
import type { RequestMiddleware } from './request-state';

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
