// A resolver class names the service exception that stands for "my dependency is down";
// a database that does not answer inside it becomes that identifier (503), never a 500.
import type { MiddlewareFn } from 'type-graphql';
import { ServiceError, type ErrorCode } from './errors';
import { isDependencyFailure } from './error-mapping';

export function ServiceBoundary(code: ErrorCode): MiddlewareFn {
  return async (_data, next) => {
    try {
      return await next();
    } catch (err) {
      if (!(err instanceof ServiceError) && isDependencyFailure(err)) {
        throw new ServiceError(code, undefined, { cause: err });
      }
      throw err;
    }
  };
}
