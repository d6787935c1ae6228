// Turns whatever a GraphQL execution raised into the one error vocabulary. Used by Apollo's
// formatError and by the REST executor, so both surfaces answer alike.
import { GraphQLError } from 'graphql';
import { CATEGORY_BY_STATUS, ServiceError, isErrorCode, invalidParameter, statusOf, type ErrorCode } from './errors';

const PG_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/** The fields of an error (or of what a driver or ORM wraps) that the cause chain is followed by. */
interface ErrorChainLink {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
  previous?: unknown;
}

/** A database or other dependency that did not answer, as opposed to a bug of ours. */
export function isDependencyFailure(err: unknown): boolean {
  let cur = err as ErrorChainLink | null | undefined;
  for (let depth = 0; cur && depth < 5; depth++) {
    if (typeof cur.code === 'string' && PG_UNAVAILABLE.has(cur.code)) return true;
    const name = cur.constructor?.name;
    if (name === 'ConnectionException') return true;
    if (
      typeof cur.message === 'string' &&
      /Connection terminated|Connection ended|connect ECONNREFUSED|timeout exceeded when trying to connect|terminating connection/i.test(
        cur.message,
      )
    )
      return true;
    cur = (cur.cause ?? cur.originalError ?? cur.previous) as ErrorChainLink | null | undefined;
  }
  return false;
}

/** The argument or input field a graphql-js coercion message names, without the variable prefix. */
function coercionField(message: string): string | undefined {
  const at = /at "([^"]+)"/.exec(message);
  if (at)
    return at[1]
      .split('.')
      .pop()!
      .replace(/\[\d+\]$/, '');
  const field = /Field "([^"]+)" of required type/.exec(message) ?? /Field "([^"]+)" is not defined/.exec(message);
  if (field) return field[1];
  const variable = /Variable "\$([^"]+)"/.exec(message);
  return variable?.[1];
}

export type Classified = { error: ServiceError; internal: boolean };

/** How graphql-js's error after its 50th about variables starts (getVariableValues' maxErrors). */
const TOO_MANY_VARIABLE_ERRORS = 'Too many errors processing variables';

/** The status `category` stands for, when it is not the identifier's own (a 429 WSLimitExceededException). */
function statusOfCategory(code: ErrorCode, category: unknown): number {
  const own = statusOf(code);
  if (CATEGORY_BY_STATUS[own as keyof typeof CATEGORY_BY_STATUS] === category) return own;
  const other = Object.entries(CATEGORY_BY_STATUS).find(([, c]) => c === category);
  return other ? Number(other[0]) : own;
}

/**
 * Apollo refuses some requests before parsing them with a 4xx status and no code: an automatic
 * persisted query whose sha256Hash is not its text's ("provided sha does not match query") or of a
 * version other than 1 ("Unsupported persisted query version"). They are the client's errors,
 * answered with the code Apollo-compatible servers and clients know the first by, and Apollo's
 * BAD_REQUEST for the others.
 */
const APOLLO_CODES: Readonly<Record<string, string>> = { 'provided sha does not match query': 'PERSISTED_QUERY_HASH_MISMATCH' };

/** The code of an error Apollo raised about the request itself without giving it one (else undefined). */
export function apolloCode(err: GraphQLError): string | undefined {
  if (err.path !== undefined || err.extensions?.code !== undefined) return undefined;
  const status = (err.extensions?.http as { status?: unknown } | undefined)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return APOLLO_CODES[err.message] ?? 'BAD_REQUEST';
}

/**
 * Classifies one GraphQL error. `internal` is true when the cause is unknown (a bug or an
 * unexpected failure): the caller logs it with the request id and answers WSInternalException.
 */
export function classify(err: GraphQLError): Classified | null {
  const original = err.originalError;
  if (err instanceof ServiceError) return { error: err, internal: false };
  if (original instanceof ServiceError) return { error: original, internal: false };
  const code = err.extensions?.code;
  // An error answered before (a subgraph's, a live transport's) names its identifier in errorCode,
  // its category in code; the status its category stands for is kept (a rate limit stays 429).
  const errorCode = err.extensions?.errorCode;
  if (isErrorCode(errorCode)) {
    const field = err.extensions?.field as string | undefined;
    return { error: new ServiceError(errorCode, err.message, { field, status: statusOfCategory(errorCode, code) }), internal: false };
  }
  // graphql-js stops checking variables at 50 errors and puts this one after them: the request
  // is malformed (a client's mistake, not the service's).
  if (err.path === undefined && err.message.startsWith(TOO_MANY_VARIABLE_ERRORS))
    return { error: invalidParameter('variables', 'Too many invalid variables: the first 50 are answered.'), internal: false };
  // Variable coercion failures (wrong type, missing required value): the request is malformed.
  if (err.path === undefined && (code === 'BAD_USER_INPUT' || /^Variable "\$/.test(err.message))) {
    const field = coercionField(err.message) ?? 'request';
    // A version that is a number but no Int (2.5, 3000000000) is an unsupported version, as REST answers it.
    const number = /Int cannot represent non[- ](?:integer|32-bit signed integer) value: (-?[\d.eE+]+)/.exec(err.message);
    if (field === 'version' && number)
      return {
        error: new ServiceError('WSUnsupportedVersionException', `Version ${number[1]} is not supported.`, { field }),
        internal: false,
      };
    return { error: invalidParameter(field), internal: false };
  }
  // Document-level problems (parse, validation, persisted queries) stay as Apollo reports them.
  if (
    apolloCode(err) ||
    code === 'GRAPHQL_PARSE_FAILED' ||
    code === 'GRAPHQL_VALIDATION_FAILED' ||
    code === 'BAD_REQUEST' ||
    code === 'PERSISTED_QUERY_NOT_FOUND' ||
    code === 'PERSISTED_QUERY_NOT_SUPPORTED' ||
    code === 'OPERATION_RESOLUTION_FAILURE'
  ) {
    return null;
  }
  return { error: new ServiceError('WSInternalException'), internal: true };
}
