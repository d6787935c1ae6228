// A route whose own identifiers are the specification's unprefixed ones (endpoint 2: `invalid` is
// InvalidParameterException) answers every failure in them (docs/errors.md): a client written
// against its section knows no WS-prefixed identifier. A missing or unknown credential is
// InsufficientPrivilegesException (401), a body over the route's limit InvalidParameterException
// naming body (413), a malformed value the route's `invalid`; the status stays the failure's.
import { ServiceError, type ErrorCode } from '../graphql/errors';
import type { RouteDef } from './route';

/** Whether the route speaks the unprefixed identifiers. */
export function speaksUnprefixed(def: RouteDef): boolean {
  return def.invalid !== undefined && !def.invalid.startsWith('WS');
}

/** The identifier each prefixed failure becomes on such a route, with the status it keeps. */
export function unprefixedFailures(def: RouteDef): { status: number; code: ErrorCode; when: string }[] {
  return [
    { status: 401, code: 'InsufficientPrivilegesException', when: 'no credential, or an unknown one' },
    { status: 413, code: def.invalid!, when: 'the body is larger than the route admits (field body)' },
  ];
}

/** The error as the route answers it. */
export function inRouteVocabulary(def: RouteDef, err: ServiceError): ServiceError {
  if (!speaksUnprefixed(def)) return err;
  const options = { field: err.field, status: err.status, headers: err.headers };
  switch (err.code) {
    case 'WSInvalidParameterException':
      return new ServiceError(def.invalid!, err.message, options);
    case 'WSInvalidAuthTokenException':
      return new ServiceError('InsufficientPrivilegesException', err.message, options);
    case 'WSLimitExceededException':
      return err.status === 413 ? new ServiceError(def.invalid!, err.message, { ...options, field: 'body' }) : err;
    default:
      return err;
  }
}
