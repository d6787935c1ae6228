// The whole outbound path: password grant -> loginUser -> protected GraphQL and REST with the
// service auth token -> logout makes it fail. Also the login scheme and the outbound SSO token.
import { SignJWT, decodeJwt } from 'jose';
import { CARA, DEMO, OLIVIA, useTestApp } from '../kit';
import { createLogger } from '../kit/src';
import { loadSigningKeys } from '../../src/modules/identity/keys';
import { DEMO_CLIENT, leaked, passwordParams, tokenRequest, verifyWithJwks } from '../kit/oauth';

const t = useTestApp();
/** Service auth tokens and SSO tokens: each appears in the one response that issued it. */
const issued: string[] = [];
/** Access and refresh tokens: only the token endpoint ever returns them. */
const oauthTokens: string[] = [];
const responses: string[] = [];

async function rest(method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await t.rest(method, path, options);
  responses.push(res.text);
  return res;
}

async function gql(query: string, headers: Record<string, string> = {}, variables?: Record<string, unknown>) {
  const res = await t.gql(query, variables, headers);
  responses.push(res.text);
  return res;
}

async function accessToken(email = 'olivia@demo.example'): Promise<{ access_token: string; refresh_token: string }> {
  const res = await tokenRequest(t, passwordParams(email));
  expect(res.status).toBe(200);
  oauthTokens.push(res.body.access_token, res.body.refresh_token);
  return res.body;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const INVALID_AUTH = { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' };
const INVALID_ACCESS = { errorCode: 'WSInvalidAuthTokenException', message: 'The access token is missing or invalid.' };

describe('login, protected operations, logout', () => {
  it('when a user logs in with the password grant and loginUser, then the service token opens GraphQL and REST until logout', async () => {
    const { access_token, refresh_token } = await accessToken();
    const before = Date.now();
    const login = await rest('POST', '/rest/user/login', { headers: bearer(access_token) });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual(['authToken', 'expiresAt', 'userId']);
    expect(login.body.userId).toBe(OLIVIA);
    expect(login.body.authToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.body.expiresAt).toBeGreaterThanOrEqual(before + 24 * 3600 * 1000);
    expect(login.body.expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3600 * 1000);
    const authToken = login.body.authToken;
    issued.push(authToken);
    const auth = { 'x-service-authtoken': authToken };

    const graph = await gql('{ authSession { userId email authType expiresAt } }', auth);
    expect(graph.body).toEqual({
      data: { authSession: { userId: OLIVIA, email: 'olivia@demo.example', authType: 'O', expiresAt: login.body.expiresAt } },
    });
    const session = await rest('GET', '/rest/user/session', { headers: auth });
    expect(session).toMatchObject({
      status: 200,
      body: { userId: OLIVIA, email: 'olivia@demo.example', authType: 'O', expiresAt: login.body.expiresAt },
    });

    const logout = await rest('POST', '/rest/user/logout', { headers: auth });
    expect(logout.status).toBe(204);
    expect(logout.text).toBe('');

    expect(await rest('GET', '/rest/user/session', { headers: auth })).toMatchObject({ status: 401, body: INVALID_AUTH });
    const after = await gql('{ authSession { userId } }', auth);
    expect(after.body.errors![0].extensions).toEqual({ code: 'UNAUTHENTICATED', errorCode: 'WSInvalidAuthTokenException' });
    expect(await rest('POST', '/rest/user/logout', { headers: auth })).toMatchObject({ status: 401, body: INVALID_AUTH });
    // Logout ends the login: the refresh token of that login is dead too.
    const refreshed = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token,
      client_id: DEMO_CLIENT.clientId,
      client_secret: DEMO_CLIENT.secret,
    });
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('when logging in again through GraphQL, then a new token works alongside the old one until each is revoked', async () => {
    const { access_token } = await accessToken('cara@demo.example');
    const one = await gql('mutation { loginUser { authToken userId expiresAt } }', bearer(access_token));
    const two = await gql('mutation { loginUser { authToken userId expiresAt } }', bearer(access_token));
    const [a, b] = [one.body.data.loginUser.authToken, two.body.data.loginUser.authToken];
    issued.push(a, b);
    expect(a).not.toBe(b);
    expect((await gql('{ authSession { userId } }', { 'x-service-authtoken': b })).body.data.authSession.userId).toBe(CARA);
    expect((await gql('mutation { logout }', { 'x-service-authtoken': a })).body).toEqual({ data: { logout: true } });
    expect((await rest('GET', '/rest/user/session', { headers: { 'x-service-authtoken': b } })).status).toBe(401);
  });

  it.each([
    ['no token', {}],
    ['an unknown token', { 'x-service-authtoken': 'x'.repeat(43) }],
    ['an overlong token', { 'x-service-authtoken': 'x'.repeat(600) }],
  ])('when a protected path gets %s, then 401 WSInvalidAuthTokenException', async (_what, headers) => {
    expect(await rest('GET', '/rest/user/session', { headers })).toMatchObject({ status: 401, body: INVALID_AUTH });
  });
});

describe('loginUser with a bad access token', () => {
  async function signWith(claims: Record<string, unknown>, opts: { typ?: string; exp?: number; aud?: string; iss?: string } = {}) {
    const keys = await loadSigningKeys(t.config, createLogger('silent'));
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope: 'sso', sid: '00000000-0000-4000-8000-000000000000', ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: keys.active.kid, typ: opts.typ ?? 'at+jwt' })
      .setIssuer(opts.iss ?? t.config.authBaseUrl)
      .setAudience(opts.aud ?? t.config.auth.audience)
      .setSubject(String(OLIVIA))
      .setIssuedAt(now - 7200)
      .setExpirationTime(opts.exp ?? now + 600)
      .sign(keys.active.key);
  }

  it('when a real token is tampered with, expired, for another audience or issuer, of another type, or of a revoked login, then 401', async () => {
    const { access_token } = await accessToken();
    const real = decodeJwt(access_token);
    const cases = [
      access_token.slice(0, -4) + (access_token.endsWith('AAAA') ? 'BBBB' : 'AAAA'),
      await signWith({ sid: real.sid }, { exp: Math.floor(Date.now() / 1000) - 10 }),
      await signWith({ sid: real.sid }, { aud: 'someone-else' }),
      await signWith({ sid: real.sid }, { iss: 'https://evil.example' }),
      await signWith({ sid: real.sid }, { typ: 'JWT' }),
      await signWith({ sid: real.sid, scope: 'other' }),
      await signWith({}),
      'not-a-jwt',
    ];
    for (const token of cases) {
      expect({ token, res: await rest('POST', '/rest/user/login', { headers: bearer(token) }) }).toMatchObject({
        res: { status: 401, body: INVALID_ACCESS },
      });
    }
    expect(await rest('POST', '/rest/user/login')).toMatchObject({ status: 401, body: INVALID_ACCESS });
    // The untampered token still works: the 401s were about the tokens, not the user.
    expect((await rest('POST', '/rest/user/login', { headers: bearer(access_token) })).status).toBe(200);
  });
});

describe('getLoginScheme (GET /rest/user/login-scheme)', () => {
  const O_SCHEME = { authType: 'O', clientId: 'demo-mobile', clientSecret: 'demo-mobile-secret', authorizationUrl: null };

  it('answers O with the client credentials for a password user, and the very same for an unknown address', async () => {
    const known = await rest('GET', '/rest/user/login-scheme?email=olivia%40demo.example');
    expect(known).toMatchObject({ status: 200, body: O_SCHEME });
    const unknown = await rest('GET', '/rest/user/login-scheme?email=nobody%40nowhere.example');
    expect(unknown.text).toBe(known.text);
    const notSynchronised = await rest('GET', '/rest/user/login-scheme?email=omar%40demo.example');
    expect(notSynchronised.text).toBe(known.text);
  });

  it('answers I with the authorization URL for an inbound user, in REST and GraphQL alike', async () => {
    const url = `${t.config.authBaseUrl}/as/authorization.oauth2?response_type=code&client_id=demo-mobile&redirect_uri=com.demo.mobile%3A%2Foauth%2Fssosignedin&login_hint=Ian%40demo.example`;
    expect(await rest('GET', '/rest/user/login-scheme?email=Ian%40demo.example')).toMatchObject({
      status: 200,
      body: { authType: 'I', clientId: 'demo-mobile', clientSecret: 'demo-mobile-secret', authorizationUrl: url },
    });
    const graph = await gql('query($e: String!) { loginScheme(email: $e) { authType authorizationUrl } }', {}, { e: 'Ian@demo.example' });
    expect(graph.body.data.loginScheme).toEqual({ authType: 'I', authorizationUrl: url });
  });

  it.each([
    ['', 400, { errorCode: 'WSInvalidParameterException', message: 'Invalid value for email.', field: 'email' }],
    [
      '?email=not-an-address',
      400,
      { errorCode: 'WSInvalidParameterException', message: 'email must be an e-mail address.', field: 'email' },
    ],
    [
      `?email=${'a'.repeat(250)}%40x.example`,
      400,
      { errorCode: 'WSFieldLengthException', message: 'email must be at most 255 characters.', field: 'email' },
    ],
  ])('when the query is %p, then %i with the field named', async (query, status, body) => {
    expect(await rest('GET', `/rest/user/login-scheme${query}`)).toMatchObject({ status, body });
  });
});

describe('outbound SSO token (POST /rest/user/sso-token)', () => {
  it('when the access token is valid, then a short-lived ES256 token a partner verifies with the JWKS', async () => {
    const { access_token } = await accessToken();
    const res = await rest('POST', '/rest/user/sso-token', { headers: bearer(access_token), body: {} });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['audience', 'expiresAt', 'ssoToken']);
    expect(res.body.audience).toBe('demo-partner');
    issued.push(res.body.ssoToken);
    const { payload, protectedHeader } = await verifyWithJwks(t, res.body.ssoToken, { audience: 'demo-partner' });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(payload).toMatchObject({ iss: t.config.authBaseUrl, aud: 'demo-partner', sub: String(OLIVIA), email: 'olivia@demo.example' });
    expect(payload.exp! - payload.iat!).toBe(300);
    expect(res.body.expiresAt).toBe(payload.exp! * 1000);
    // An SSO token is not an access token: loginUser refuses it.
    expect((await rest('POST', '/rest/user/login', { headers: bearer(res.body.ssoToken) })).status).toBe(401);
  });

  it('when the audience is not a registered partner, then WSInvalidParameterException naming audience; without a bearer, 401', async () => {
    const { access_token } = await accessToken();
    expect(await rest('POST', '/rest/user/sso-token', { headers: bearer(access_token), body: { audience: 'evil' } })).toMatchObject({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: 'audience is not a registered partner.', field: 'audience' },
    });
    expect(await rest('POST', '/rest/user/sso-token', { body: {} })).toMatchObject({ status: 401, body: INVALID_ACCESS });
  });
});

it('no token, secret or password appears in the logs, nor in responses beyond the token endpoint and the token an operation issues', () => {
  expect(oauthTokens.length).toBeGreaterThan(5);
  expect(leaked(JSON.stringify(t.logs), [...issued, ...oauthTokens, DEMO.password, DEMO_CLIENT.secret])).toEqual([]);
  const all = responses.join('\n');
  expect(leaked(all, [...oauthTokens, DEMO.password])).toEqual([]);
  for (const token of issued) expect(responses.filter((r) => r.includes(token))).toHaveLength(1);
  // The login-scheme operation hands out the client secret by design (spec section 1); nothing else does.
  expect(responses.filter((r) => r.includes(DEMO_CLIENT.secret)).every((r) => r.includes('"clientSecret"'))).toBe(true);
  expect(all).not.toMatch(/argon2id|passwordHash|secretHash|tokenHash/);
});
