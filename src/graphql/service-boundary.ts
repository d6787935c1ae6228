// A resolver class names the service exception that stands for "my dependency is down";
// a database that does not answer inside it becomes that identifier (503), never a 500.
//
// A class decorator that wraps the class's own methods, not a type-graphql middleware: type-graphql
// runs any middleware through a chain of async functions (four promises and their closures a call),
// for every field resolver of every list item, and a synchronous resolver answered through a
// promise. The wrapper costs nothing on success, and one `then` only when the method returns a
// promise (docs/performance.md, "The service boundary"). A method that declares middlewares of its
// own runs through that chain anyway; for it the boundary joins the chain instead.
import { getMetadataStorage, UseMiddleware, type MiddlewareFn } from 'type-graphql';
import { ServiceError, type ErrorCode } from '../core/errors';
import { isDependencyFailure } from '../core/error-mapping';

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

/** The boundary as a type-graphql middleware: for a method with a middleware chain of its own. */
function boundaryMiddleware(code: ErrorCode): MiddlewareFn {
  return async (_data, next) => {
    try {
      return await next();
    } catch (err) {
      throw boundaryError(err, code);
    }
  };
}

/**
 * `@ServiceBoundary('WS...ServiceException')` on a resolver class: every method the class declares
 * (its queries, mutations, subscriptions' resolvers and field resolvers, type-graphql calls them by
 * name) maps a dependency failure, thrown or rejected, to that identifier.
 *
 * A method that declares middlewares (`@UseMiddleware`) gets the boundary as one more, around
 * them (type-graphql runs the middlewares registered last outermost): type-graphql resolves a
 * method's arguments inside its middleware chain, so an argument that fails there (an `Upload`
 * whose staging store does not answer) is inside the boundary, and the method's middlewares see
 * the failure as it was thrown. The other methods are wrapped; the arguments type-graphql resolves
 * before calling them are synchronous (the declared rules read no database).
 */
export function ServiceBoundary(code: ErrorCode): ClassDecorator {
  return (target) => {
    const proto = target.prototype as Record<string, unknown>;
    // Method decorators ran before this class decorator: their middlewares are collected already.
    const chained = new Set(
      getMetadataStorage()
        .middlewares.filter((m) => m.target === target)
        .map((m) => m.fieldName),
    );
    for (const name of Object.getOwnPropertyNames(proto)) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, name)!;
      if (name === 'constructor' || typeof descriptor.value !== 'function') continue;
      if (chained.has(name)) UseMiddleware(boundaryMiddleware(code))(proto, name, descriptor);
      else Object.defineProperty(proto, name, { ...descriptor, value: guarded(descriptor.value as Method, code) });
    }
  };
}
