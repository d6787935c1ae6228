// What a client of the test app does: REST, GraphQL and multipart calls that return status,
// headers and parsed body, with headers of its own (t.rest, t.as(user) and the like share it).
import type { FilePart, FormEntries, FormParts, Reply, RequestOptions } from './http';

export type GqlBody<T = any> = { data?: T; errors?: any[] };

/**
 * What the kit's GraphQL caller accepts: GraphQL over HTTP's own media type, as a client that
 * knows the server speaks it is told to send (and Apollo Client sends first), so a document the
 * service refuses is answered 400. A test of what a plain-JSON client gets sends its own Accept
 * (or calls t.rest, which sends fetch's default: any type, answered as application/json).
 */
export const GQL_ACCEPT = { accept: 'application/graphql-response+json' } as const;

/** What an anonymous client and a signed-in caller (t.as(user)) both do. */
export interface Client {
  rest<T = any>(method: string, path: string, options?: RequestOptions): Promise<Reply<T>>;
  /** POST /graphql with GQL_ACCEPT (a header given here wins). */
  gql<T = any>(query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<Reply<GqlBody<T>>>;
  /** POSTs a multipart form (parts by name, parts in order, or a FormData) to a path, on a connection of its own. */
  multipart(path: string, parts: FormData | FormParts | FormEntries, headers?: Record<string, string>): Promise<Reply>;
  /** A GraphQL multipart request (with the CSRF preflight header and GQL_ACCEPT): `files` maps variable paths to files. */
  gqlMultipart(
    query: string,
    variables: Record<string, unknown>,
    files: Record<string, FilePart>,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  /** The same client sending these headers too (an API key, a system token, a request id). */
  with(headers: Record<string, string>): Client;
}

/** `base` with `extra` headers on every request; a request's own headers win. */
export function clientWith(base: Client, extra: Record<string, string>): Client {
  const headers = (own?: Record<string, string>) => ({ ...extra, ...own });
  return {
    rest: (method, path, options = {}) => base.rest(method, path, { ...options, headers: headers(options.headers) }),
    gql: (query, variables, own) => base.gql(query, variables, headers(own)),
    multipart: (path, parts, own) => base.multipart(path, parts, headers(own)),
    gqlMultipart: (query, variables, files, own) => base.gqlMultipart(query, variables, files, headers(own)),
    with: (more) => clientWith(base, headers(more)),
  };
}
