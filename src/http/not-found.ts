// The last middleware: a request nothing answered gets the service's JSON 404, never Koa's
// text page.
import { ServiceError } from '../core/errors';
import { sendError } from '../rest/respond';
import type { RequestMiddleware } from './request-state';

export const notFound: RequestMiddleware = async (ctx) => {
  if (ctx.status === 404 && !ctx.body) sendError(ctx, new ServiceError('WSNotFoundException', `No route for ${ctx.method} ${ctx.path}.`));
};
