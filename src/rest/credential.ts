// The first stage of a REST route: its credential (authenticate.ts), then the route's own check of
// the caller (`before`), ahead of anything else about the request: nothing is looked at, or read
// from the socket, for a caller without one (OWASP API2). A refusal is thrown in the route's
// vocabulary with what the rate limit counted.
import type Koa from 'koa';
import type { Context } from '../context';
import { isDependencyFailure } from '../core/error-mapping';
import { ServiceError, isErrorCode, statusOf } from '../core/errors';
import { authenticate } from './authenticate';
import { inRouteVocabulary } from './route-vocabulary';
import { setRateLimitHeaders } from './operation';
import type { RouteDef } from './route';

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

/** The route's credential stage. */
export function credentialCheck(def: RouteDef): (ctx: Koa.Context, request: Context) => Promise<void> {
  const { credential, before } = def;
  return async (ctx, request) => {
    try {
      await authenticate(credential, request);
      if (before) await before(request);
    } catch (err) {
      setRateLimitHeaders(ctx, request);
      throw inRouteVocabulary(def, credentialFailure(def, err, request));
    }
  };
}
