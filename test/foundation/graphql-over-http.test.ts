// GraphQL over HTTP to the letter (issue 55, item 6): graphql-http's audit of /graphql finds every
// MUST and SHOULD met; the media type of an answer is the one the client's Accept asks for
// (application/json for a client that sends none or any), a request error is 400 under
// application/graphql-response+json and 200 with its `errors` under application/json; and Apollo's
// CSRF prevention still refuses a request a browser would send cross-site without a preflight.
import http from 'node:http';
import { serverAudits } from 'graphql-http';
import { useTestApp } from '../kit';
import { gqlForm, postForm } from '../kit/http';

const t = useTestApp({ demo: false });

const GRAPHQL_RESPONSE = 'application/graphql-response+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const CSRF = /^This operation has been blocked as a potential Cross-Site Request Forgery \(CSRF\)/;

/** A request to /graphql with exactly these headers (node's http client adds no Accept, as fetch would). */
function send(method: 'GET' | 'POST', query: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; type: string | undefined; body: any }>((resolve, reject) => {
    const req = http.request(`${t.baseUrl}/graphql${query}`, { method, agent: false, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode!, type: res.headers['content-type'], body: text ? JSON.parse(text) : undefined });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const post = (body: unknown, headers: Record<string, string>) =>
  send('POST', '', { 'content-type': 'application/json', ...headers }, JSON.stringify(body));

describe("graphql-http's audit", () => {
  it('finds every MUST and SHOULD met; the only notices are the GET requests CSRF prevention refuses', async () => {
    const results = await Promise.all(serverAudits({ url: `${t.baseUrl}/graphql` }).map((audit) => audit.fn()));
    expect(results.length).toBeGreaterThanOrEqual(60);
    const failed = await Promise.all(
      results
        .filter((r) => r.status !== 'ok')
        .map(async (r) => {
          const response = 'response' in r ? r.response : undefined;
          const body = (await response?.json()) as any;
          return { id: r.id, status: r.status, answered: response?.status, message: body?.errors?.[0]?.message };
        }),
    );
    // 5A70, D6D5 and 6A70 are MAYs (a GET without the preflight header is refused, by design).
    expect(failed).toEqual(
      ['5A70', 'D6D5', '6A70'].map((id) => ({ id, status: 'notice', answered: 400, message: expect.stringMatching(CSRF) })),
    );
  });
});

describe('the media type and the status follow Accept', () => {
  const REQUESTS = {
    valid: { query: '{ __typename }' },
    parse: { query: '{' },
    validation: { query: '{ noSuchField }' },
    coercion: { query: 'query($n: Int!) { __typename }', variables: { n: 'x' } },
  };
  const ERRORS = {
    parse: [{ code: 'GRAPHQL_PARSE_FAILED', errorCode: 'WSInvalidParameterException' }],
    validation: [{ code: 'GRAPHQL_VALIDATION_FAILED', errorCode: 'WSInvalidParameterException' }],
    coercion: [{ code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'n' }],
  };

  it.each([
    ['no Accept', JSON_TYPE, 200, undefined],
    ['any type', JSON_TYPE, 200, '*/*'],
    ['only application/json', JSON_TYPE, 200, 'application/json'],
    ['application/json first', JSON_TYPE, 200, 'application/json, application/graphql-response+json;q=0.9'],
    ['only application/graphql-response+json', GRAPHQL_RESPONSE, 400, 'application/graphql-response+json'],
    ["Apollo Client's", GRAPHQL_RESPONSE, 400, 'application/graphql-response+json,application/json;q=0.9'],
  ])('with %s, then %s, and a request error answered %i', async (_name, type, errorStatus, accept) => {
    const headers: Record<string, string> = accept ? { accept } : {};
    const answers: Record<string, unknown> = {};
    for (const [name, body] of Object.entries(REQUESTS)) {
      const res = await post(body, headers);
      answers[name] = { status: res.status, type: res.type, data: res.body.data, errors: res.body.errors?.map((e: any) => e.extensions) };
    }
    expect(answers).toEqual({
      valid: { status: 200, type, data: { __typename: 'Query' }, errors: undefined },
      parse: { status: errorStatus, type, data: undefined, errors: ERRORS.parse },
      validation: { status: errorStatus, type, data: undefined, errors: ERRORS.validation },
      coercion: { status: errorStatus, type, data: undefined, errors: ERRORS.coercion },
    });
  });

  it('when Accept names neither JSON type, then 406', async () => {
    const res = await post(REQUESTS.valid, { accept: 'image/png' });
    expect({ status: res.status, code: res.body.errors[0].extensions.code }).toEqual({ status: 406, code: 'BAD_REQUEST' });
  });

  it('under application/json, a request that is no GraphQL-over-HTTP request (a batch, JSON that does not parse) stays 400', async () => {
    const batch = await post([REQUESTS.valid, REQUESTS.valid], { accept: 'application/json' });
    expect({ status: batch.status, code: batch.body.errors[0].extensions.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    const bad = await send('POST', '', { 'content-type': 'application/json', accept: 'application/json' }, '{"query": ');
    expect({ status: bad.status, body: bad.body }).toEqual({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: 'The request body is not valid JSON.', field: 'body' },
    });
  });
});

describe("Apollo's CSRF prevention", () => {
  const MUTATION = 'mutation($i: UpdateUserProfileInput!) { updateUserProfile(input: $i) { updatedFieldCount } }';

  it('refuses a mutation posted as a simple request (text/plain, a form, a multipart form) and runs nothing', async () => {
    const u = await t.newUser({ firstName: 'Kept' });
    const variables = { i: { uId: u.uId, uFirstName: 'Forged' } };
    const body = JSON.stringify({ query: MUTATION, variables });
    const answers = [
      await send('POST', '', { 'content-type': 'text/plain', ...(await u.headers()) }, body),
      await send('POST', '', { 'content-type': 'application/x-www-form-urlencoded', ...(await u.headers()) }, body),
      await postForm(`${t.baseUrl}/graphql`, gqlForm(MUTATION, variables, {}), await u.headers()),
    ];
    for (const res of answers)
      expect({ status: res.status, code: res.body.errors[0].extensions.code, message: res.body.errors[0].message }).toEqual({
        status: 400,
        code: 'BAD_REQUEST',
        message: expect.stringMatching(CSRF),
      });
    expect(await t.row('app_user', { u_id: u.uId })).toMatchObject({ first_name: 'Kept' });
  });

  it('refuses a GET without the preflight header, and answers one with it', async () => {
    const query = `?query=${encodeURIComponent('{ __typename }')}`;
    const refused = await send('GET', query, { accept: 'application/graphql-response+json' });
    expect({ status: refused.status, message: refused.body.errors[0].message }).toEqual({
      status: 400,
      message: expect.stringMatching(CSRF),
    });
    const preflighted = await send('GET', query, { accept: 'application/graphql-response+json', 'apollo-require-preflight': 'true' });
    expect({ status: preflighted.status, type: preflighted.type, body: preflighted.body }).toEqual({
      status: 200,
      type: GRAPHQL_RESPONSE,
      body: { data: { __typename: 'Query' } },
    });
  });
});
