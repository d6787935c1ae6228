// The explorer's fetcher: how GraphiQL sends an operation (a query, a mutation, or its schema
// introspection) to the service. A POST of JSON to /graphql, which Apollo's CSRF prevention
// accepts (content-type application/json), with the headers of GraphiQL's header editor
// (x-service-authtoken). No DOM here: the jest tests run it in Node.

/** The header editor's content when the explorer opens: fill in the authToken from POST /rest/user/login. */
export const INITIAL_HEADERS = '{"x-service-authtoken": ""}';

/** What GraphiQL hands a fetcher: the operation, and the header editor's parsed headers. */
export interface FetcherParams {
  query: string;
  operationName?: string | null;
  variables?: unknown;
}
export interface FetcherOptions {
  headers?: Record<string, unknown>;
}

/** A GraphQL response, or a description of what the service answered when that was not JSON. */
export type FetcherResult = Record<string, unknown>;

/** A GraphiQL fetcher posting to `url` (the service's /graphql). */
export function createFetcher(url: string, fetchFn: typeof fetch = fetch) {
  return async (params: FetcherParams, options?: FetcherOptions): Promise<FetcherResult> => {
    const headers: Record<string, string> = {
      accept: 'application/graphql-response+json, application/json',
      'content-type': 'application/json',
    };
    // Header values as the editor holds them: a number or boolean is sent as its text; null drops the header.
    for (const [name, value] of Object.entries(options?.headers ?? {})) {
      if (value !== null && value !== undefined) headers[name.toLowerCase()] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    const res = await fetchFn(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        query: params.query,
        operationName: params.operationName ?? undefined,
        variables: params.variables ?? undefined,
      }),
    });
    const text = await res.text();
    if ((res.headers.get('content-type') ?? '').includes('json')) {
      try {
        return JSON.parse(text) as FetcherResult;
      } catch {
        // Not JSON after all: described below.
      }
    }
    return { errors: [{ message: `The service answered ${res.status} ${res.statusText} without a GraphQL response.`, body: text }] };
  };
}
