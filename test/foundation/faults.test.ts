// A database that does not answer: readiness says so and reference data answers 503 with
// the module's service exception, never a hang or a 500.
import { startTestApp, type TestApp } from '../helpers/app';
import { createOrm } from '../../src/db/orm';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const deadUrl = 'postgres://postgres@127.0.0.1:1/nowhere';

describe('when the database does not answer', () => {
  let server: http.Server;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const orm = await createOrm({ databaseUrl: deadUrl, embeddedDir: 'memory://' });
    const config = loadConfig({ NODE_ENV: 'test' });
    const app = await createApp({ config, logger: createLogger('silent'), orm });
    server = http.createServer(app.koa.callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await app.stop();
      await orm.close(true);
    };
  });
  afterAll(() => close());

  it('then /readyz is 503 and /healthz still 200', async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', database: 'down' });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('then a reference list answers 503 WSRefDataServiceException without internals', async () => {
    const res = await fetch(`${base}/rest/refdata/conditions`);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ errorCode: 'WSRefDataServiceException', message: 'The reference data service is unavailable.' });
  });

  it('then GraphQL carries the same code', async () => {
    const res = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ conditions { conditionId } }' }) });
    const body: any = await res.json();
    expect(body.errors[0]).toMatchObject({ message: 'The reference data service is unavailable.', extensions: { code: 'WSRefDataServiceException' } });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|stack|127\.0\.0\.1/);
  });

  it('then lists that need no database still answer', async () => {
    const res = await fetch(`${base}/rest/refdata/timezones?countryCode=NZ`);
    expect(res.status).toBe(200);
  });
});

describe('log hygiene', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ demo: false });
  });
  afterAll(() => t.close());

  it('never logs credential headers', async () => {
    await t.rest('GET', '/rest/refdata/countries', { headers: { 'x-service-authtoken': 'secret-token-value', 'x-api-key': 'secret-api-key', authorization: 'Bearer secret-bearer' } });
    const all = JSON.stringify(t.logs);
    expect(all).not.toContain('secret-token-value');
    expect(all).not.toContain('secret-api-key');
    expect(all).not.toContain('secret-bearer');
  });
});
