// The category a GraphQL error carries in extensions.code follows the status it is answered with
// (CATEGORY_BY_STATUS), beside the identifier in extensions.errorCode; an error answered before
// (a subgraph's, a transport's), formatted again, keeps both.
import { GraphQLError } from 'graphql';
import { CATEGORY_BY_STATUS, ERROR_REGISTRY, ServiceError, isErrorCode } from '../../src/core/errors';
import { formatError } from '../../src/graphql/format-error';

const formatted = (err: GraphQLError) => formatError(err.toJSON(), err).extensions;

it("every identifier's error carries its status's category and itself", () => {
  for (const code of Object.keys(ERROR_REGISTRY)) {
    if (!isErrorCode(code)) throw new Error(code);
    const err = new ServiceError(code);
    expect({ code, extensions: err.extensions, category: err.category }).toEqual({
      code,
      extensions: { code: CATEGORY_BY_STATUS[ERROR_REGISTRY[code].status], errorCode: code },
      category: CATEGORY_BY_STATUS[ERROR_REGISTRY[code].status],
    });
  }
});

it("an identifier answered with another status takes that status's category; a status only REST answers keeps the identifier's", () => {
  const limit = (status?: number) => new ServiceError('WSLimitExceededException', undefined, { status }).category;
  expect([limit(), limit(413), limit(429), limit(503)]).toEqual([
    'BAD_USER_INPUT',
    'PAYLOAD_TOO_LARGE',
    'RATE_LIMITED',
    'SERVICE_UNAVAILABLE',
  ]);
  expect(new ServiceError('WSInvalidParameterException', undefined, { field: 'body', status: 415 }).category).toBe('BAD_USER_INPUT');
});

it('an error answered before keeps its category, identifier, field and a rate limit its status', () => {
  const answered = (extensions: Record<string, unknown>) => new GraphQLError('As answered.', { extensions });
  expect(formatted(answered({ code: 'RATE_LIMITED', errorCode: 'WSLimitExceededException' }))).toEqual({
    code: 'RATE_LIMITED',
    errorCode: 'WSLimitExceededException',
  });
  expect(formatted(answered({ code: 'NOT_FOUND', errorCode: 'WSAddressNotFoundException', field: 'addressUUID' }))).toEqual({
    code: 'NOT_FOUND',
    errorCode: 'WSAddressNotFoundException',
    field: 'addressUUID',
  });
  expect(formatted(answered({ code: 'NOT_FOUND', errorCode: 'WSEventCancelledException' }))).toEqual({
    code: 'NOT_FOUND',
    errorCode: 'WSEventCancelledException',
  });
});

it("a variable graphql-js could not coerce keeps Apollo's BAD_USER_INPUT and names the variable", () => {
  const err = new GraphQLError('Variable "$p" got invalid value "x"; Int cannot represent non-integer value: "x"', {
    extensions: { code: 'BAD_USER_INPUT' },
  });
  expect(formatted(err)).toEqual({ code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'p' });
});

it('an unknown failure is INTERNAL_SERVER_ERROR, its message hidden', () => {
  const err = new GraphQLError('relation "secret" does not exist', {
    path: ['me'],
    originalError: new Error('relation "secret" does not exist'),
  });
  expect(formatError(err.toJSON(), err)).toEqual({
    message: 'An internal error occurred.',
    path: ['me'],
    extensions: { code: 'INTERNAL_SERVER_ERROR', errorCode: 'WSInternalException' },
  });
});
