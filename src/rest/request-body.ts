// The body stage of a REST route, read once the credential was checked and chosen per route at
// start-up: none (a GET, or a route none of whose variables is in the body), JSON, or multipart.
// It hands the body to the rest of the request and, for multipart, deletes what the operation
// did not adopt of the staged files once that is done.
import type Koa from 'koa';
import type { AppDeps } from '../context';
import { ServiceError } from '../core/errors';
import { readJson } from '../http/json-body';
import { parseMultipart, type TextParts } from './multipart';
import { inRouteVocabulary } from './route-vocabulary';
import type { RouteBinding } from './route-binding';
import type { RouteDef } from './route';

/** Reads the request's body and runs `next` with it. */
export type BodyStage = (ctx: Koa.Context, next: (body: unknown) => Promise<void>) => Promise<void>;

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** Whether any of the route's variables is read from the body. */
export const takesBody = (binding: RouteBinding) => binding.variables.some((v) => v.source === 'body' || v.source === 'wholeBody');

/**
 * JSON by its media type, or with none or text/plain (legacy HTTP clients leave the type out or
 * send their default); any other media type is 415 naming body.
 */
function jsonBody(def: RouteDef, limit: number): BodyStage {
  return async (ctx, next) => {
    let body: unknown;
    try {
      if (ctx.get('content-type') && !ctx.request.is('application/json', '+json', 'text/plain')) {
        throw new ServiceError('WSInvalidParameterException', 'The body must be JSON (application/json).', { field: 'body', status: 415 });
      }
      body = await readJson(ctx, limit);
    } catch (err) {
      throw err instanceof ServiceError ? inRouteVocabulary(def, err) : err;
    }
    return next(body);
  };
}

/** The route's body stage. */
export function bodyStage(
  route: { def: RouteDef; binding: RouteBinding; bodyLimit: number; textParts?: TextParts },
  deps: AppDeps,
): BodyStage {
  const { def } = route;
  if (def.multipart) {
    const spec = def.multipart;
    const textParts = route.textParts!;
    return async (ctx, next) => {
      const multipart = await parseMultipart(ctx, spec, textParts, deps.config, deps.em);
      try {
        await next(multipart.body);
      } finally {
        await multipart.cleanup();
      }
    };
  }
  // A route that takes no body does not read it.
  if (!WITH_BODY.has(def.method) || !takesBody(route.binding)) return (_ctx, next) => next({});
  return jsonBody(def, route.bodyLimit);
}
