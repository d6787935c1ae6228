// A resolver class names the service exception that stands for "my dependency is down";
// a database that does not answer inside it becomes that identifier (503), never a 500.
//
// A class decorator that wraps the class's own methods, not a type-graphql middleware: type-graphql
// runs any middleware through a chain of async functions (four promises and their closures a call),
// for every field resolver of every list item, and a synchronous resolver answered through a
// promise. The wrapper costs nothing on success, and one `then` only when the method returns a
// promise (docs/performance.md, "The service boundary").
import { ServiceError, type ErrorCode } from './errors';
import { isDependencyFailure } from './error-mapping';

/** The error a resolver's failure becomes: a dependency failure becomes `code`, the rest pass. */
export function boundaryError(err: unknown, code: ErrorCode): unknown {
  return !(err instanceof ServiceError) && isDependencyFailure(err) ? new ServiceError(code, undefined, { cause: err }) : err;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

function guarded(method: Method, code: ErrorCode): Method {
  const rethrow = (err: unknown): never => {
    throw boundaryError(err, code);
  };
  return function (this: unknown, ...args: unknown[]) {
    let result: unknown;
    try {
      result = method.apply(this, args);
    } catch (err) {
      return rethrow(err);
    }
    return typeof (result as PromiseLike<unknown> | null)?.then === 'function'
      ? (result as Promise<unknown>).then(undefined, rethrow)
      : result;
  };
}

/**
 * `@ServiceBoundary('WS...ServiceException')` on a resolver class: every method the class declares
 * (its queries, mutations, subscriptions' resolvers and field resolvers, type-graphql calls them by
 * name) maps a dependency failure, thrown or rejected, to that identifier. Middlewares a method
 * declares itself (`@UseMiddleware`) run around it and see the mapped error.
 *
 * The arguments type-graphql resolves before it calls the method are outside: they are synchronous
 * (the declared rules read no database) except an `Upload`, whose failures `UploadFailures` maps
 * (library/upload.service.ts). An argument that reads a dependency needs the same.
 */
export function ServiceBoundary(code: ErrorCode): ClassDecorator {
  return (target) => {
    const proto = target.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
      if (name === 'constructor' || typeof descriptor.value !== 'function') continue;
      Object.defineProperty(proto, name, { ...descriptor, value: guarded(descriptor.value as Method, code) });
    }
  };
}
