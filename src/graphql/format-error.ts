// What a GraphQL client sees of an error: the common category (extensions.code: UNAUTHENTICATED,
// NOT_FOUND, ...), the service's identifier (extensions.errorCode), the field at fault and, for a
// rate limit, retryAfter; an unknown failure's message is hidden by the error registry. Errors
// Apollo raised itself (parse, validation, persisted queries) keep their own code, or are given
// one when Apollo gave them none (apolloCode); a document that does not parse or validate names
// its identifier too (DOCUMENT_ERROR_CODES).
import type { GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { apolloCode, classify } from '../core/error-mapping';
import { DOCUMENT_ERROR_CODES, ServiceError } from '../core/errors';

export function formatError(formatted: GraphQLFormattedError, raw: unknown): GraphQLFormattedError {
  const err = unwrapResolverError(raw);
  const gqlError = raw instanceof GraphQLError ? raw : err instanceof GraphQLError ? err : new GraphQLError(formatted.message);
  const classified = classify(err instanceof ServiceError ? err : gqlError);
  if (!classified) {
    const code = apolloCode(gqlError) ?? formatted.extensions?.code;
    const errorCode = typeof code === 'string' ? DOCUMENT_ERROR_CODES[code as keyof typeof DOCUMENT_ERROR_CODES] : undefined;
    return { message: formatted.message, locations: formatted.locations, extensions: errorCode ? { code, errorCode } : { code } };
  }
  const { error } = classified;
  const extensions: Record<string, unknown> = { code: error.category, errorCode: error.code };
  if (error.field) extensions.field = error.field;
  // A rate-limit refusal carries its Retry-After (seconds) for GraphQL clients too.
  if (error.headers?.['Retry-After']) extensions.retryAfter = Number(error.headers['Retry-After']);
  return { message: error.message, locations: formatted.locations, path: formatted.path, extensions };
}
