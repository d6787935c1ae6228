// A database that does not answer: the service still starts, the OAuth endpoints answer 503
// temporarily_unavailable (no-store), and the identity operations their service exception.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOrm } from '../../src/db/orm';
import { createApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import type { MikroORM } from '@mikro-orm/core';
import { passwordParams } from './helpers';

let server: http.Server;
let base: string;
let app: App;
let orm: MikroORM;

beforeAll(async () => {
  orm = await createOrm({ databaseUrl: 'postgres://postgres@127.0.0.1:1/nowhere', embeddedDir: 'memory://' });
  app = await createApp({ config: loadConfig({ NODE_ENV: 'test' }), logger: createLogger('silent'), orm });
  server = http.createServer(app.koa.callback());
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  await app.stop();
  await orm.close(true);
});

it('then the token endpoint answers 503 temporarily_unavailable with no-store and Retry-After', async () => {
  const res = await fetch(`${base}/as/token.oauth2`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(passwordParams('olivia@demo.example')),
  });
  expect(res.status).toBe(503);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('retry-after')).toBe('5');
  expect(await res.json()).toEqual({ error: 'temporarily_unavailable', error_description: 'The service is temporarily unavailable. Try again later.' });
});

it('then the authorization endpoint answers 503 without redirecting', async () => {
  const res = await fetch(`${base}/as/authorization.oauth2?response_type=code&client_id=demo-mobile`, { redirect: 'manual' });
  expect(res.status).toBe(503);
  expect(res.headers.get('location')).toBeNull();
  expect(((await res.json()) as any).error).toBe('temporarily_unavailable');
});

it('then the login scheme answers 503 WSAuthorisationServiceException', async () => {
  const scheme = await fetch(`${base}/rest/user/login-scheme?email=a%40b.example`);
  expect(scheme.status).toBe(503);
  expect(await scheme.json()).toEqual({ errorCode: 'WSAuthorisationServiceException', message: 'The authorisation service is unavailable.' });
});
