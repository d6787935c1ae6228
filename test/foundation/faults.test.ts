// A database that does not answer: readiness says so and reference data answers 503 with
// the module's service exception, never a hang or a 500.
import { useTestApp, useWithoutDatabase } from '../kit';

describe('when the database does not answer', () => {
  const down = useWithoutDatabase();

  it('then /readyz is 503 and /healthz still 200', async () => {
    const ready = await fetch(`${down.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', database: 'down' });
    expect((await fetch(`${down.baseUrl}/healthz`)).status).toBe(200);
  });

  it('then a reference list answers 503 WSRefDataServiceException without internals', async () => {
    const res = await fetch(`${down.baseUrl}/rest/refdata/conditions`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ errorCode: 'WSRefDataServiceException', message: 'The reference data service is unavailable.' });
  });

  it('then GraphQL carries the same code', async () => {
    const res = await fetch(`${down.baseUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ conditions { conditionId } }' }),
    });
    const body: any = await res.json();
    expect(body.errors[0]).toMatchObject({
      message: 'The reference data service is unavailable.',
      extensions: { code: 'SERVICE_UNAVAILABLE', errorCode: 'WSRefDataServiceException' },
    });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|stack|127\.0\.0\.1/);
  });

  it('then lists that need no database still answer', async () => {
    const res = await fetch(`${down.baseUrl}/rest/refdata/timezones?countryCode=NZ`);
    expect(res.status).toBe(200);
  });
});

describe('log hygiene', () => {
  const t = useTestApp({ demo: false });

  it('never logs credential headers', async () => {
    await t.rest('GET', '/rest/refdata/countries', {
      headers: { 'x-service-authtoken': 'secret-token-value', 'x-api-key': 'secret-api-key', authorization: 'Bearer secret-bearer' },
    });
    const all = JSON.stringify(t.logs);
    expect(all).not.toContain('secret-token-value');
    expect(all).not.toContain('secret-api-key');
    expect(all).not.toContain('secret-bearer');
  });
});
