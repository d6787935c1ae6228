// Carries a GraphQL operation's outcome to HTTP: Cache-Control no-store, the media type the
// client's Accept chose (graphql-route.ts), the status (400 for a document refused before
// execution, 429 with Retry-After for a refused rate limit, as on REST; 200 for a request error
// answered as application/json, which GraphQL over HTTP gives every well-formed request), the
// operation name and error identifier in the request's state (for the access log and metrics),
// and one log line, with the request id, for each unknown failure before formatError hides it.
// The name is the client's: the metrics count only the names the service ships (metrics.ts), and
// the access log keeps at most MAX_LOGGED_NAME characters of it.
import type { ApolloServerPlugin } from '@apollo/server';
import type { Context } from '../../context';
import { apolloCode, classify } from '../../core/error-mapping';
import { ServiceError } from '../../core/errors';
import { rateLimitHeaders } from '../../core/rate-limit';

const REFUSED_BEFORE_EXECUTION = new Set(['GRAPHQL_VALIDATION_FAILED', 'GRAPHQL_PARSE_FAILED', 'OPERATION_RESOLUTION_FAILURE']);
/** The categories of a request refused for its document or its variables' values (graphql-js's coercion, the plugins' checks). */
const REQUEST_ERRORS = new Set([...REFUSED_BEFORE_EXECUTION, 'BAD_USER_INPUT']);

/** Characters of a client's operation name the request's state keeps (a name is one token, of any length). */
export const MAX_LOGGED_NAME = 100;

export function requestOutcomePlugin(): ApolloServerPlugin<Context> {
  return {
    async requestDidStart({ contextValue }) {
      return {
        // Whichever validation step refused the document (Apollo answers 500 for limits raised
        // while parsing), it is the client's error.
        async willSendResponse({ response }) {
          // Answers are per caller and never cached (what Apollo's cache-control plugin, off,
          // answered for a schema without cache hints).
          if (!response.http.headers.has('cache-control')) response.http.headers.set('cache-control', 'no-store');
          // What a rate-limited operation counted (core/rate-limit.ts), as on REST.
          for (const [name, value] of Object.entries(rateLimitHeaders(contextValue) ?? {}))
            response.http.headers.set(name.toLowerCase(), value);
          if (response.body.kind !== 'single') return;
          const { data, errors } = response.body.singleResult;
          if (data === undefined && errors?.length && errors.every((e) => REFUSED_BEFORE_EXECUTION.has(e.extensions?.code as string))) {
            response.http.status = 400;
          }
          // 429 only when nothing but rate limits was answered.
          const limited = errors?.filter((e) => typeof e.extensions?.retryAfter === 'number') ?? [];
          if (limited.length) {
            response.http.headers.set('retry-after', String(Math.max(...limited.map((e) => e.extensions!.retryAfter as number))));
            if (limited.length === errors!.length && (data == null || Object.values(data).every((v) => v === null)))
              response.http.status = 429;
          }
          const mediaType = contextValue.request?.graphqlMediaType;
          if (!mediaType || response.http.headers.has('content-type')) return;
          response.http.headers.set('content-type', `${mediaType}; charset=utf-8`);
          // application/json is every client's that predates application/graphql-response+json:
          // they read a request error's `errors` from a 200 (GraphQL over HTTP, "application/json").
          if (
            mediaType === 'application/json' &&
            response.http.status === 400 &&
            data === undefined &&
            errors?.every((e) => REQUEST_ERRORS.has(e.extensions?.code as string))
          )
            response.http.status = 200;
        },
        async didResolveOperation({ operationName }) {
          if (contextValue.request) contextValue.request.operation = operationName?.slice(0, MAX_LOGGED_NAME) ?? 'anonymous';
        },
        async didEncounterErrors({ errors }) {
          const first = errors[0];
          if (first && contextValue?.request) {
            const c = classify(first.originalError instanceof ServiceError ? first.originalError : first);
            contextValue.request.errorCode =
              c?.error.code ?? apolloCode(first) ?? (first.extensions?.code as string | undefined) ?? 'GRAPHQL_ERROR';
          }
          for (const e of errors) {
            const c = classify(e.originalError instanceof ServiceError ? e.originalError : e);
            if (c?.internal) contextValue.logger.error({ err: e.originalError ?? e, path: e.path }, 'unhandled error in GraphQL operation');
          }
        },
      };
    },
  };
}
