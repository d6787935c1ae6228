// Demo mode: the development OpenID provider under /dev-idp, where ian@demo.example signs in
// with the demo password, so the inbound flow can be walked on a fresh start. Production
// never mounts it.
import http from 'node:http';
import { exportJWK, generateKeyPair } from 'jose';
import { DEMO, freePort, IAN, useTestApp } from '../kit';
import { Browser, DEMO_CLIENT, formAction, tokenRequest } from '../kit/oauth';
import { ConfigError, loadConfig } from '../kit/src';
import { vapidSettings } from '../kit/production';

const VAPID = vapidSettings();

describe('demo mode', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  // The provider's issuer is the service's own public URL, so the service must really answer there.
  const t = useTestApp(async () => {
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    return { env: { PUBLIC_BASE_URL: base, DEV_IDP: 'true' } };
  });
  beforeAll(async () => {
    const handle = t.app.koa.callback();
    server = http.createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    t.onClose(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  });

  it("publishes the provider's metadata under /dev-idp", async () => {
    const res = await t.rest('GET', '/dev-idp/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ issuer: `${base}/dev-idp`, authorization_endpoint: expect.stringMatching(/\/dev-idp\/auth$/) });
  });

  it('walks the inbound flow: login scheme -> /dev-idp login as Ian -> code -> tokens -> loginUser', async () => {
    const scheme = await t.rest('GET', '/rest/user/login-scheme?email=ian%40demo.example');
    expect(scheme.body.authType).toBe('I');
    const b = new Browser();
    const page = await b.follow('GET', `${scheme.body.authorizationUrl}&state=demo`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="ian@demo.example"');
    const wrong = await b.follow('POST', formAction(page.text, page.url), { login: 'ian@demo.example', password: 'nope' });
    expect(wrong.text).toContain('The e-mail or password is incorrect.');
    const done = await b.follow('POST', formAction(wrong.text, wrong.url), { login: 'ian@demo.example', password: DEMO.password });
    const back = new URL(done.location!);
    expect(`${back.protocol}${back.pathname}`).toBe(DEMO_CLIENT.redirectUri);
    expect(back.searchParams.get('state')).toBe('demo');

    const tokens = await tokenRequest(t, {
      grant_type: 'authorization',
      code: back.searchParams.get('code')!,
      redirect_uri: DEMO_CLIENT.redirectUri,
      client_id: DEMO_CLIENT.clientId,
      client_secret: DEMO_CLIENT.secret,
    });
    expect(tokens.status).toBe(200);
    const login = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect(login.body.userId).toBe(IAN);
  });

  it('answers an identity the service does not know with errorCode access_denied', async () => {
    const b = new Browser();
    const start = `${base}/as/authorization.oauth2?response_type=code&client_id=demo-mobile&redirect_uri=${encodeURIComponent(DEMO_CLIENT.redirectUri)}&state=x`;
    const page = await b.follow('GET', start);
    const done = await b.follow('POST', formAction(page.text, page.url), { login: 'nobody@demo.example', password: DEMO.password });
    expect(Object.fromEntries(new URL(done.location!).searchParams)).toEqual({
      errorCode: 'access_denied',
      errorMsg: 'No active account is linked to this identity.',
      state: 'x',
    });
  });
});

describe('production', () => {
  let signingKeys: string;
  /** The settings production requires, with the key made for this block. */
  const production = () => ({
    NODE_ENV: 'production',
    AUTH_SIGNING_KEYS: signingKeys,
    LOGIN_CLIENT_ID: 'mobile',
    LOGIN_CLIENT_SECRET: 'a-production-secret-of-forty-characters!',
    LOGIN_CLIENT_REDIRECT_URIS: 'com.example.app:/oauth/ssosignedin',
    ...VAPID,
  });
  const t = useTestApp(async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    signingKeys = JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: 'prod-1' }] });
    return { demo: false, env: production() };
  });

  it('never mounts the development provider, and signs with the configured key', async () => {
    const res = await t.rest('GET', '/dev-idp/.well-known/openid-configuration');
    expect(res.status).toBe(404);
    expect(res.body.errorCode).toBe('WSNotFoundException');
    const jwks = await t.rest('GET', '/.well-known/jwks.json');
    expect(jwks.body.keys.map((k: any) => k.kid)).toEqual(['prod-1']);
    const scheme = await t.rest('GET', '/rest/user/login-scheme?email=a%40b.example');
    expect(scheme.body).toEqual({
      authType: 'O',
      clientId: 'mobile',
      clientSecret: 'a-production-secret-of-forty-characters!',
      authorizationUrl: null,
    });
  });

  it.each([
    ['DEV_IDP', { DEV_IDP: 'true' }, 'DEV_IDP cannot be enabled in production'],
    ['no signing keys', { AUTH_SIGNING_KEYS: '' }, 'AUTH_SIGNING_KEYS is required in production'],
    [
      'the demo client secret',
      { LOGIN_CLIENT_SECRET: 'demo-mobile-secret' },
      'LOGIN_CLIENT_SECRET must be at least 32 characters and not the demo secret in production',
    ],
    [
      'an http identity provider',
      { OIDC_ISSUER: 'http://idp.example', OIDC_CLIENT_ID: 'x', OIDC_CLIENT_SECRET: 'y' },
      'OIDC issuer http://idp.example must use https in production',
    ],
    [
      'a redirect URI not ending in ssosignedin',
      { LOGIN_CLIENT_REDIRECT_URIS: 'com.example.app:/callback' },
      'LOGIN_CLIENT_REDIRECT_URIS: redirect URIs must end with ssosignedin, got "com.example.app:/callback"',
    ],
    [
      'a malformed key set',
      { AUTH_SIGNING_KEYS: '{"keys":[{"kty":"RSA"}]}' },
      'AUTH_SIGNING_KEYS: every key must be a private EC P-256 JWK with a kid (ES256)',
    ],
    ['a bad REDIS_URL', { REDIS_URL: 'http://redis' }, 'REDIS_URL must be a redis:// or rediss:// URL'],
  ])('refuses to start with %s', (_what, override, message) => {
    expect(() => loadConfig({ ...production(), ...override })).toThrow(new ConfigError(message));
  });
});
