// One error vocabulary: the specification's identifiers name every failure. Domain code throws
// ServiceError; the GraphQL formatter and the REST executor translate through ERROR_REGISTRY.
// REST answers the identifier (errorCode) with its status; GraphQL answers it as
// extensions.errorCode beside extensions.code, the common category GraphQL clients and routers
// branch on, which follows the status (CATEGORY_BY_STATUS).
import { GraphQLError } from 'graphql';

/**
 * The category of an error answered with each status, as GraphQL clients, Apollo Router and their
 * error links know them. 405 is Apollo's own answer to a method it does not serve; 410 (a
 * cancelled event) is gone, which a client treats as not found.
 */
export const CATEGORY_BY_STATUS = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'BAD_REQUEST',
  409: 'CONFLICT',
  410: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_SERVER_ERROR',
  503: 'SERVICE_UNAVAILABLE',
} as const;

type RegistryStatus = keyof typeof CATEGORY_BY_STATUS;
export type ErrorCategory = (typeof CATEGORY_BY_STATUS)[RegistryStatus];

interface ErrorSpec {
  status: RegistryStatus;
  /** extensions.code on GraphQL, from the status. */
  category: ErrorCategory;
  /** Default human text; callers may give a more precise one. */
  message: string;
  /** Whether the thrown message may be shown to clients (false: replaced by the default). */
  expose: boolean;
}

const e = (status: RegistryStatus, message: string, expose = true): ErrorSpec => ({
  status,
  category: CATEGORY_BY_STATUS[status],
  message,
  expose,
});

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

/**
 * Apollo's codes for a document refused before it runs, with the identifier a GraphQL error gives
 * as errorCode: a document that does not parse or validate is a parameter (the query) that is
 * invalid. (A variable's value graphql-js refuses is WSInvalidParameterException naming it, under
 * BAD_USER_INPUT, as any 400.) Apollo's other codes (persisted queries, BAD_REQUEST) are of the
 * protocol, with no identifier.
 */
export const DOCUMENT_ERROR_CODES = {
  GRAPHQL_PARSE_FAILED: 'WSInvalidParameterException',
  GRAPHQL_VALIDATION_FAILED: 'WSInvalidParameterException',
} as const satisfies Record<string, ErrorCode>;

export function statusOf(code: ErrorCode): number {
  return ERROR_REGISTRY[code].status;
}

/**
 * The category of `code` answered with `status`: the status's, or the identifier's own where the
 * status is one only REST answers (415, 422: the body's media type, an idempotency key reused).
 */
export function categoryOf(code: ErrorCode, status: number = statusOf(code)): ErrorCategory {
  return CATEGORY_BY_STATUS[status as RegistryStatus] ?? ERROR_REGISTRY[code].category;
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
  /** The identifier: REST's errorCode, GraphQL's extensions.errorCode. */
  readonly code: ErrorCode;
  /** GraphQL's extensions.code. */
  readonly category: ErrorCategory;
  readonly field?: string;
  readonly headers?: Record<string, string>;
  readonly status: number;

  constructor(code: ErrorCode, message?: string, options: ServiceErrorOptions = {}) {
    const spec = ERROR_REGISTRY[code];
    const text = spec.expose && message ? message : spec.message;
    const status = options.status ?? spec.status;
    const category = categoryOf(code, status);
    // As GraphQL clients see it (format-error.ts), for whatever serialises the error itself.
    const extensions: Record<string, unknown> = { code: category, errorCode: code };
    if (options.field) extensions.field = options.field;
    super(text, { extensions, originalError: options.cause instanceof Error ? options.cause : undefined });
    this.code = code;
    this.category = category;
    this.field = options.field;
    this.headers = options.headers;
    this.status = status;
  }
}

export const invalidParameter = (field: string, message?: string) =>
  new ServiceError('WSInvalidParameterException', message ?? `Invalid value for ${field}.`, { field });

export const fieldTooLong = (field: string, max: number) =>
  new ServiceError('WSFieldLengthException', `${field} must be at most ${max} characters.`, { field });
