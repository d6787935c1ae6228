// Client errors are client errors (issue 52, row 4): an automatic persisted query whose hash is not
// its text's is Apollo's persisted-query refusal (400 PERSISTED_QUERY_HASH_MISMATCH, "provided sha
// does not match query"), not WSInternalException; and the hostile requests of the red team's table
// and the fuzz each answer a 4xx while the log keeps its error level (pino's 50) for the service's
// own faults: none of them writes a line at error level or worse.
import crypto from 'node:crypto';
import { GQL_ACCEPT, OLIVIA, useTestApp } from '../kit';

const t = useTestApp();
const olivia = t.as(OLIVIA);

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const ENTITIES = 'query($r:[_Any!]!){ _entities(representations:$r){ __typename } }';

interface Hostile {
  name: string;
  method?: 'GET' | 'POST';
  /** A JSON body (POST), or the query string (GET). */
  body?: unknown;
  raw?: string;
  query?: string;
  headers?: Record<string, string>;
  signedIn?: boolean;
  /** The answer when it is not a 4xx. */
  status?: number;
}

/** What the red team and the fuzz send /graphql, each refused by a 4xx. */
const HOSTILE: Hostile[] = [
  {
    name: 'an APQ hash that is not its query',
    body: { query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ x }') } } },
  },
  {
    name: 'an APQ hash that is no hash',
    body: { query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: 'nope' } } },
  },
  {
    name: 'an APQ of another version',
    body: { query: '{ __typename }', extensions: { persistedQuery: { version: 2, sha256Hash: sha256('{ __typename }') } } },
  },
  // Apollo's protocol answers PERSISTED_QUERY_NOT_FOUND with 200: the client then sends the text.
  {
    name: 'an unknown APQ hash alone',
    status: 200,
    body: { extensions: { persistedQuery: { version: 1, sha256Hash: sha256(crypto.randomUUID()) } } },
  },
  { name: 'persistedQuery that is not an object', body: { query: '{ __typename }', extensions: { persistedQuery: 'x' } } },
  {
    name: 'an APQ hash that is not its query, by GET',
    method: 'GET',
    query: `query=${encodeURIComponent('{ __typename }')}&extensions=${encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash: sha256('{ y }') } }))}`,
    headers: { 'apollo-require-preflight': 'true' },
  },
  {
    name: '15,000 Address and Query representations, anonymous',
    body: { query: ENTITIES, variables: { r: Array.from({ length: 15_000 }, (_v, i) => ({ __typename: i % 2 ? 'Query' : 'Address' })) } },
  },
  {
    name: '16,000 User representations, signed in',
    signedIn: true,
    body: { query: ENTITIES, variables: { r: Array.from({ length: 16_000 }, (_v, i) => ({ __typename: 'User', uId: i })) } },
  },
  { name: 'representations {} and "Nope"', body: { query: ENTITIES, variables: { r: [{}, 'Nope'] } } },
  {
    name: 'representations Address and Query',
    body: { query: ENTITIES, variables: { r: [{ __typename: 'Address' }, { __typename: 'Query' }] } },
  },
  { name: 'representations that are null', body: { query: ENTITIES, variables: { r: [null] } } },
  { name: 'representations that are not a list', body: { query: ENTITIES, variables: { r: 'Nope' } } },
  { name: 'a document that does not parse', body: { query: '{ __typename' } },
  { name: 'a field that does not exist', body: { query: '{ nope }' } },
  { name: 'an operation name that names none', body: { query: 'query A { __typename }', operationName: 'B' } },
  { name: 'no query', body: {} },
  { name: 'a query that is not a string', body: { query: 5 } },
  { name: 'variables that are not an object', body: { query: '{ __typename }', variables: [1] } },
  { name: 'extensions that are not an object', body: { query: '{ __typename }', extensions: 'x' } },
  { name: 'a batch (not served)', body: [{ query: '{ __typename }' }, { query: '{ __typename }' }] },
  {
    name: 'a mutation by GET',
    method: 'GET',
    query: `query=${encodeURIComponent('mutation { __typename }')}`,
    headers: { 'apollo-require-preflight': 'true' },
  },
  {
    name: 'a variable of the wrong type',
    body: { query: 'query($n: Int!) { __typename @include(if: true) a: __typename @skip(if: false) }', variables: { n: 'x' } },
  },
  { name: 'a NUL in a variable', body: { query: ENTITIES, variables: { r: [{ __typename: 'User', uId: '\u0000' }] } } },
  { name: 'JSON that does not parse', raw: '{"query": ' },
  { name: 'a JSON key twice', raw: '{"query":"{ __typename }","query":"{ nope }"}' },
];

/**
 * Sent as a client of GraphQL over HTTP's own media type, which is answered a 4xx for a request
 * error (a plain-JSON client gets 200 with the errors: test/foundation/graphql-over-http.test.ts).
 */
async function send(h: Hostile) {
  const headers: Record<string, string> = { ...GQL_ACCEPT, ...h.headers, ...(h.signedIn ? await olivia.headers() : {}) };
  if (h.method === 'GET') return t.rest('GET', `/graphql?${h.query}`, { headers });
  if (h.raw !== undefined)
    return t.rest('POST', '/graphql', { rawBody: h.raw, headers: { 'content-type': 'application/json', ...headers } });
  return t.rest('POST', '/graphql', { body: h.body, headers });
}

describe('when a client sends an automatic persisted query whose hash is not its text', () => {
  it("then it is Apollo's persisted-query refusal: 400 PERSISTED_QUERY_HASH_MISMATCH, one info line in the log", async () => {
    const from = t.logs.length;
    const res = await t.rest('POST', '/graphql', {
      body: { query: '{ __typename }', extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ me { uId } }') } } },
    });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { errors: [{ message: 'provided sha does not match query', extensions: { code: 'PERSISTED_QUERY_HASH_MISMATCH' } }] },
    });
    expect(t.logs.slice(from).map((l) => ({ level: l.level, msg: l.msg, errorCode: l.errorCode }))).toEqual([
      { level: 30, msg: 'request', errorCode: 'PERSISTED_QUERY_HASH_MISMATCH' },
    ]);
  });

  it('with the right hash, then it runs and is found by its hash afterwards', async () => {
    const query = `{ __typename t${crypto.randomBytes(4).toString('hex')}: __typename }`;
    const persistedQuery = { version: 1, sha256Hash: sha256(query) };
    expect((await t.rest('POST', '/graphql', { body: { query, extensions: { persistedQuery } } })).status).toBe(200);
    const again = await t.rest('POST', '/graphql', { body: { extensions: { persistedQuery } } });
    expect(again.status).toBe(200);
    expect(again.body.data.__typename).toBe('Query');
  });
});

describe("when the hostile suite's requests are sent", () => {
  it('then each answers a 4xx (or its protocol answer) and the log has no line at error level (50) or worse', async () => {
    const from = t.logs.length;
    const answers: Record<string, number> = {};
    for (const h of HOSTILE) answers[h.name] = (await send(h)).status;
    const statuses = Object.fromEntries(
      Object.keys(answers).map((name) => [name, answers[name] >= 400 && answers[name] < 500 ? '4xx' : answers[name]]),
    );
    expect(statuses).toEqual(Object.fromEntries(HOSTILE.map((h) => [h.name, h.status ?? '4xx'])));
    const errorLines = t.logs.slice(from).filter((l) => l.level >= 50);
    expect(errorLines.map((l) => ({ msg: l.msg, err: l.err?.message }))).toEqual([]);
  });
});
