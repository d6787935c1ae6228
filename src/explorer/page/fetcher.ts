// The explorer's fetcher: how GraphiQL sends an operation (a query, a mutation, or its schema
// introspection) to the service. A POST of JSON to /graphql, which Apollo's CSRF prevention
// accepts (content-type application/json), with the headers of GraphiQL's header editor
// (x-service-authtoken). A subscription goes to /graphql/stream as Server-Sent Events (same
// origin, so the page's CSP needs nothing more) and GraphiQL shows each event as it arrives.
// No DOM here: the jest tests run it in Node.
import { getOperationAST, OperationTypeNode, parse } from 'graphql';

/** The header editor's content when the explorer opens: the sign-in form fills the token in (sign-in.ts), or a person pastes one. */
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

/** Whether the document's operation (the named one, or its only one) is a subscription; a document that does not parse is not. */
function isSubscription(params: FetcherParams): boolean {
  try {
    return getOperationAST(parse(params.query), params.operationName ?? undefined)?.operation === OperationTypeNode.SUBSCRIPTION;
  } catch {
    return false;
  }
}

/** The `data:` of each `next` event of an SSE response (graphql-sse), until `complete` or the end of the stream. */
async function* streamEvents(res: Response): AsyncGenerator<FetcherResult> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let cut;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: ?(.*)$/m.exec(block)?.[1];
      if (event === 'complete') return;
      const data = /^data: ?(.*)$/m.exec(block)?.[1];
      if (event === 'next' && data) yield JSON.parse(data) as FetcherResult;
    }
  }
}

/** The header editor's headers as sent: a number or boolean as its text; null drops the header. */
function editorHeaders(options: FetcherOptions | undefined, accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept, 'content-type': 'application/json' };
  for (const [name, value] of Object.entries(options?.headers ?? {})) {
    if (value !== null && value !== undefined) headers[name.toLowerCase()] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  return headers;
}

/** The GraphQL-over-HTTP request body of an operation. */
const requestBody = (params: FetcherParams) =>
  JSON.stringify({ query: params.query, operationName: params.operationName ?? undefined, variables: params.variables ?? undefined });

/** A GraphiQL fetcher posting to `url` (the service's /graphql). */
export function createFetcher(url: string, fetchFn: typeof fetch = fetch) {
  return async (params: FetcherParams, options?: FetcherOptions): Promise<FetcherResult> => {
    const res = await fetchFn(url, {
      method: 'POST',
      headers: editorHeaders(options, 'application/graphql-response+json, application/json'),
      body: requestBody(params),
    });
    return answerOf(res);
  };
}

/** The GraphQL response of a non-streaming answer, or a description of what the service answered. */
async function answerOf(res: Response): Promise<FetcherResult> {
  const text = await res.text();
  if ((res.headers.get('content-type') ?? '').includes('json')) {
    try {
      return JSON.parse(text) as FetcherResult;
    } catch {
      // Not JSON after all: described below.
    }
  }
  return { errors: [{ message: `The service answered ${res.status} ${res.statusText} without a GraphQL response.`, body: text }] };
}

/**
 * The explorer's fetcher: createFetcher's, except that a subscription streams from `url`/stream
 * (graphql-sse): each event is handed to GraphiQL as it arrives; a refusal (401) is one answer.
 */
export function createLiveFetcher(url: string, fetchFn: typeof fetch = fetch) {
  const once = createFetcher(url, fetchFn);
  return async (params: FetcherParams, options?: FetcherOptions): Promise<FetcherResult | AsyncGenerator<FetcherResult>> => {
    if (!isSubscription(params)) return once(params, options);
    const res = await fetchFn(`${url}/stream`, {
      method: 'POST',
      headers: editorHeaders(options, 'text/event-stream'),
      body: requestBody(params),
    });
    if (res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream') && res.body) return streamEvents(res);
    return answerOf(res);
  };
}
