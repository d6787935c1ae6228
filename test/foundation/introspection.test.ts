import { useTestApp } from '../kit';

describe('when GRAPHQL_INTROSPECTION is false', () => {
  const t = useTestApp({ demo: false, env: { GRAPHQL_INTROSPECTION: 'false' } });

  it('then introspection is refused and field suggestions are hidden', async () => {
    const intro = await t.gql('{ __schema { types { name } } }');
    expect(intro.body.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const typo = await t.gql('{ timezone { timezoneId } }');
    expect(typo.body.errors![0].message).toBe('Cannot query field "timezone" on type "Query".');
  });

  it('then neither explorer is served: no Sandbox landing page on /graphql, and /graphiql is not found', async () => {
    const landing = await t.rest('GET', '/graphql', { headers: { accept: 'text/html' } });
    // A GET without a query, answered as any such request (the page was served before the CSRF check).
    expect(landing.status).toBe(400);
    expect(landing.body.errors[0].extensions).toEqual({ code: 'BAD_REQUEST' });
    expect(landing.text).not.toContain('embeddable-sandbox');
    const explorer = await t.rest('GET', '/graphiql');
    expect({ status: explorer.status, body: explorer.body }).toEqual({
      status: 404,
      body: { errorCode: 'WSNotFoundException', message: 'No route for GET /graphiql.' },
    });
  });

  it('then the OpenAPI document is still served', async () => {
    const res = await t.rest('GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.paths['/rest/refdata/timezones'].get.operationId).toBe('getAllTimezones');
  });
});

describe('by default', () => {
  const t = useTestApp({ demo: false });

  it('introspection answers and suggestions help', async () => {
    const intro = await t.gql('{ __schema { queryType { name } } }');
    expect(intro.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const typo = await t.gql('{ timezone { timezoneId } }');
    expect(typo.body.errors![0].message).toContain('Did you mean "timezones"?');
  });
});
