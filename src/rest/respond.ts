// The REST error body: {errorCode, message, field?}, with the status from the registry.
import type Koa from 'koa';
import type { ServiceError } from '../graphql/errors';

export interface ErrorBody {
  errorCode: string;
  message: string;
  field?: string;
}

export function errorBody(err: ServiceError): ErrorBody {
  const body: ErrorBody = { errorCode: err.code, message: err.message };
  if (err.field) body.field = err.field;
  return body;
}

export function sendError(ctx: Koa.Context, err: ServiceError): void {
  ctx.status = err.status;
  for (const [k, v] of Object.entries(err.headers ?? {})) ctx.set(k, v);
  ctx.body = errorBody(err);
  ctx.state.errorCode = err.code;
}
