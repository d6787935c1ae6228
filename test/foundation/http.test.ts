import { useTestApp } from '../kit';

const t = useTestApp({ demo: false });

describe('the HTTP surface', () => {
  it('when the path is unknown, then a JSON 404 names it', async () => {
    const res = await t.rest('GET', '/rest/no/such/thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errorCode: 'WSNotFoundException', message: 'No route for GET /rest/no/such/thing.' });
  });

  it('when the JSON body is malformed, then 400 WSInvalidParameterException, no stack trace', async () => {
    const u = await t.newUser();
    const res = await u.rest('POST', '/rest/user/addresses', { rawBody: '{bad', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errorCode: 'WSInvalidParameterException', message: 'The request body is not valid JSON.', field: 'body' });
    expect(t.logs.some((l) => /at .*\.js:\d+/.test(JSON.stringify(l)) && l.level >= 50)).toBe(false);
  });

  it('when a known path is called with another method, then a JSON 405', async () => {
    const res = await t.rest('DELETE', '/rest/refdata/conditions');
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ errorCode: 'WSMethodNotAllowedException', message: 'The method is not allowed on this path.' });
  });

  it('gives every response a request id, echoes a well-formed incoming one and logs it', async () => {
    const res = await t.rest('GET', '/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
    expect(t.logs).toContainEqual(expect.objectContaining({ requestId: 'abc-123', path: '/healthz', status: 200, msg: 'request' }));
    const generated = await t.rest('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is ready while the database answers', async () => {
    const res = await t.rest('GET', '/readyz');
    expect(res).toMatchObject({ status: 200, body: { status: 'ready', database: 'up' } });
  });

  it('serves Apollo Sandbox as the GraphQL landing page', async () => {
    const res = await t.rest('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('embeddable-sandbox');
    // It opens with the specification's operations as examples.
    expect(res.text).toContain('getRecommendedEntitiesForUser');
    expect(res.text).toContain('findEventsForUserAndCompany');
  });

  it('refuses a GraphQL GET without a preflight header (CSRF prevention)', async () => {
    const res = await t.rest('GET', '/graphql?query=%7B__typename%7D');
    expect(res.status).toBe(400);
    expect(res.text).toContain('CSRF');
  });

  it('answers the federation _service query with @key-capable SDL', async () => {
    const res = await t.gql('{ _service { sdl } }');
    expect(res.body.data!._service.sdl).toContain('@link(url: "https://specs.apollo.dev/federation/v2.7"');
  });

  it('maps a GraphQL variable of the wrong type to WSInvalidParameterException naming it', async () => {
    const res = await t.gql('query q($p: Int) { specialties(professionId: $p) { specialtyId } }', { p: 'x' });
    expect(res.body.errors![0].extensions).toEqual({ code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'p' });
  });
});
