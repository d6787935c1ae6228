// One error vocabulary: the specification's identifiers are the codes. Domain code throws
// ServiceError; the GraphQL formatter and the REST executor translate through ERROR_REGISTRY.
import { GraphQLError } from 'graphql';

interface ErrorSpec {
  status: number;
  /** Default human text; callers may give a more precise one. */
  message: string;
  /** Whether the thrown message may be shown to clients (false: replaced by the default). */
  expose: boolean;
}

const e = (status: number, message: string, expose = true): ErrorSpec => ({ status, message, expose });

export const ERROR_REGISTRY = {
  // 400: the request itself is wrong.
  WSInvalidParameterException: e(400, 'A parameter is missing or invalid.'),
  InvalidParameterException: e(400, 'A parameter is missing or invalid.'),
  WSFieldLengthException: e(400, 'A field exceeds its length limit.'),
  WSUnsupportedVersionException: e(400, 'The version is not supported by this operation.'),
  WSUnsupportedTypeException: e(400, 'The type is not supported.'),
  WSLimitExceededException: e(400, 'A limit was exceeded.'),
  // 401: no usable credential.
  WSInvalidAuthTokenException: e(401, 'The auth token is missing or invalid.'),
  // 403: known caller, not allowed.
  WSInsufficientPrivilegesException: e(403, 'The caller lacks the privileges for this operation.'),
  InsufficientPrivilegesException: e(403, 'The caller lacks the privileges for this operation.'),
  WSCompanyApiKeyNotActiveException: e(403, 'The company API key is not active.'),
  WSCompanyNotActiveException: e(403, 'The company is not active.'),
  WSUserNotActiveException: e(403, 'The user is not active.'),
  WSConnectionStatusNotActiveException: e(403, 'The user has no active connection with the company.'),
  WSUserNotConsentedException: e(403, 'The user has not given the required consents.'),
  WSUserNotInSmartDirectoryException: e(403, 'The user is not a member of the smart directory.'),
  WSSmartDirectoryNotEnabledForCompanyException: e(403, 'Smart directories are not enabled for the company.'),
  WSSmartDirectoryInactiveException: e(403, 'The smart directory is inactive.'),
  WSNoAddressFieldsInDirectoryException: e(403, 'The smart directory shows no address fields.'),
  // 404: not found, or not the caller's.
  WSRecordNotFoundException: e(404, 'The record was not found.'),
  WSUserNotFoundException: e(404, 'The user was not found.'),
  WSAddressNotFoundException: e(404, 'The address was not found.'),
  WSContactNotFoundException: e(404, 'The contact was not found.'),
  WSUserContactNotFoundException: e(404, 'The user has no contact record in this directory.'),
  WSSmartDirectoryNotFoundException: e(404, 'The smart directory was not found.'),
  WSSmartLibNotFoundException: e(404, 'The smart library was not found.'),
  SmartEntryNotFoundException: e(404, 'The smart entry was not found.'),
  WSEventNotFoundException: e(404, 'The event was not found.'),
  WSNotificationNotFoundException: e(404, 'The notification was not found.'),
  WSNotFoundException: e(404, 'No such resource.'),
  // 409: conflicts with stored state.
  WSDuplicateSmartEntryException: e(409, 'A smart entry with this name already exists in the library.'),
  WSDuplicateSmartFileException: e(409, 'This file already exists in the library.'),
  WSAlreadyExistsException: e(409, 'The record already exists.'),
  WSAddressAlreadyFullException: e(409, 'The contact record already holds an address of this type.'),
  WSMethodNotAllowedException: e(405, 'The method is not allowed on this path.'),
  // 410, 413, 429.
  WSEventCancelledException: e(410, 'The event was cancelled.'),
  WSMaxFileUploadSizeException: e(413, 'The file exceeds the maximum upload size.'),
  // 500: never shows its message.
  WSInternalException: e(500, 'An internal error occurred.', false),
  // 503: a dependency is down. Messages are fixed: the cause is logged, not shown.
  WSCacheServiceException: e(503, 'The cache service is unavailable.', false),
  WSEventServiceUnavailableException: e(503, 'The event service is unavailable.', false),
  WSRefDataServiceException: e(503, 'The reference data service is unavailable.', false),
  WSUserServiceException: e(503, 'The user service is unavailable.', false),
  WSAddressServiceException: e(503, 'The address service is unavailable.', false),
  WSSmartDirectoryServiceException: e(503, 'The smart directory service is unavailable.', false),
  WSSmartLibraryServiceException: e(503, 'The smart library service is unavailable.', false),
  SmartLibraryServiceException: e(503, 'The smart library service is unavailable.', false),
  WSAuthorisationServiceException: e(503, 'The authorisation service is unavailable.', false),
  WSDiscoverableServiceException: e(503, 'The discovery service is unavailable.', false),
  WSMembershipServiceException: e(503, 'The membership service is unavailable.', false),
  WSEventServiceException: e(503, 'The event service is unavailable.', false),
  WSNotificationServiceException: e(503, 'The notification service is unavailable.', false),
  WSEmailServiceException: e(503, 'The e-mail service is unavailable.', false),
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_REGISTRY;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_REGISTRY, code);
}

export function statusOf(code: ErrorCode): number {
  return ERROR_REGISTRY[code].status;
}

export interface ServiceErrorOptions {
  field?: string;
  /** Extra response headers for REST (e.g. Retry-After). */
  headers?: Record<string, string>;
  /** Overrides the registry status where the spec gives one identifier two meanings
   * (WSLimitExceededException: 400 for too many items, 429 for a rate limit). */
  status?: number;
  cause?: unknown;
}

/** A failure the caller is told about, named by the spec's identifier. */
export class ServiceError extends GraphQLError {
  readonly code: ErrorCode;
  readonly field?: string;
  readonly headers?: Record<string, string>;
  readonly status: number;

  constructor(code: ErrorCode, message?: string, options: ServiceErrorOptions = {}) {
    const spec = ERROR_REGISTRY[code];
    const text = spec.expose && message ? message : spec.message;
    const extensions: Record<string, unknown> = { code };
    if (options.field) extensions.field = options.field;
    super(text, { extensions, originalError: options.cause instanceof Error ? options.cause : undefined });
    this.code = code;
    this.field = options.field;
    this.headers = options.headers;
    this.status = options.status ?? spec.status;
  }
}

export const invalidParameter = (field: string, message?: string) =>
  new ServiceError('WSInvalidParameterException', message ?? `Invalid value for ${field}.`, { field });

export const fieldTooLong = (field: string, max: number) =>
  new ServiceError('WSFieldLengthException', `${field} must be at most ${max} characters.`, { field });
