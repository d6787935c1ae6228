// A route whose own identifiers are the specification's unprefixed ones (endpoint 2: `invalid` is
// InvalidParameterException) answers every failure in them (docs/errors.md): a client written
// against its section knows no WS-prefixed identifier. A missing or unknown credential is
// InsufficientPrivilegesException (401), a body over the route's limit InvalidParameterException
// naming body (413), a malformed value the route's `invalid`; the status stays the failure's.
import { ServiceError, type ErrorCode } from '../core/errors';
import type { RouteDef } from './route';

/** Whether the route speaks the unprefixed identifiers. */
export function speaksUnprefixed(def: RouteDef): boolean {
  return def.invalid !== undefined && !def.invalid.startsWith('WS');
}

/** How such a route answers a missing or unknown credential (its 401), for its OpenAPI responses. */
export const UNPREFIXED_UNAUTHORISED: { status: 401; code: ErrorCode; when: string } = {
  status: 401,
  code: 'InsufficientPrivilegesException',
  when: 'no credential, or an unknown one',
};

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
