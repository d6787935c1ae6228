// What one HTTP request carries down the middleware chain and into GraphQL and REST (Koa's
// ctx.state): the id and logger the request log chose, and what the access log, the metrics
// and the request span report once the answer is sent.
import type Koa from 'koa';
import type { Logger } from '../logger';

export interface RequestState {
  /** The caller's valid X-Request-Id, else a fresh UUID; echoed on the response. */
  requestId: string;
  /** The service logger with the request id on every line. */
  logger: Logger;
  /** The REST operation, or the GraphQL operation name once Apollo has resolved it. */
  operation?: string;
  /** The error identifier the request was answered with. */
  errorCode?: string;
  /** /graphql: the media type the client's Accept chose for a single result (graphql-route.ts). */
  graphqlMediaType?: GraphqlMediaType;
}

/** What /graphql answers a single result as: the GraphQL over HTTP media type, or plain JSON for the clients that ask for no other. */
export type GraphqlMediaType = 'application/graphql-response+json' | 'application/json';

/** Middleware that reads or writes the request's state. */
export type RequestMiddleware = Koa.Middleware<RequestState>;
