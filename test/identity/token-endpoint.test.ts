// The token endpoint's RFC 6749 behaviour: each grant, client authentication in the body and
// in HTTP Basic, missing, repeated and foreign parameters, refresh rotation and reuse. Every
// response is checked for Cache-Control: no-store by tokenRequest itself.
import { decodeProtectedHeader } from 'jose';
import { createClient, createUser, DEMO, OLIVIA, useTestApp } from '../kit';
import { RefreshToken } from '../../src/modules/identity/oauth.entity';
import { hashToken } from '../../src/modules/identity/tokens';
import { hash } from '../../src/modules/identity/argon2';
import { hashPassword } from '../../src/modules/identity/passwords';
import { DEMO_CLIENT, basic, leaked, passwordParams, tokenRequest, verifyWithJwks } from '../kit/oauth';

const t = useTestApp({
  env: { LOGIN_MAX_FAILURES_PER_ACCOUNT: '1000', LOGIN_MAX_FAILURES_PER_ADDRESS: '100000', LOGIN_FAILURE_DELAY_MS: '0' },
});
const issued: string[] = [];

async function token(params: Record<string, string> | string, headers: Record<string, string> = {}) {
  const res = await tokenRequest(t, params, headers);
  if (res.status === 200) issued.push(res.body.access_token, res.body.refresh_token);
  return res;
}

const BAD_LOGIN = { error: 'invalid_grant', error_description: 'The username or password is incorrect.' };
const BAD_CLIENT = { error: 'invalid_client', error_description: 'Client authentication failed.' };
const CHALLENGE = 'Basic realm="token", charset="UTF-8"';

describe('grant_type=password', () => {
  it('when an outbound user gives the right password, then 200 with exactly the four fields and an ES256 access token verifiable with the JWKS', async () => {
    const res = await token(passwordParams('Olivia@Demo.Example'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(res.body.refresh_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const jwks = (await (await fetch(`${t.baseUrl}/.well-known/jwks.json`)).json()) as any;
    const header = decodeProtectedHeader(res.body.access_token);
    expect(header).toEqual({ alg: 'ES256', kid: jwks.keys[0].kid, typ: 'at+jwt' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    const { payload } = await verifyWithJwks(t, res.body.access_token, { audience: t.config.publicBaseUrl, typ: 'at+jwt' });
    expect(payload).toMatchObject({
      iss: t.config.authBaseUrl,
      aud: t.config.publicBaseUrl,
      sub: String(OLIVIA),
      scope: 'sso',
      client_id: 'demo-mobile',
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
  });

  it.each([
    ['a wrong password', passwordParams('olivia@demo.example', 'wrong-password')],
    ['an unknown user', passwordParams('nobody-here@demo.example')],
    ['an inbound (authType I) user', passwordParams('ian@demo.example')],
    ['a user not synchronised to the directory', passwordParams('omar@demo.example')],
  ])('when the request carries %s, then invalid_grant with one and the same message', async (_what, params) => {
    const families = await t.countRows('oauth_token_family');
    expect(await token(params)).toMatchObject({ status: 400, body: BAD_LOGIN });
    expect(await t.countRows('oauth_token_family')).toBe(families);
  });

  it('when the user is inactive, then invalid_grant with the same message', async () => {
    const inactive = await createUser(t.orm, { active: false, passwordHash: await hashPassword(DEMO.password) });
    expect(await token(passwordParams(inactive.email))).toMatchObject({ status: 400, body: BAD_LOGIN });
  });

  it('when a user whose hash was made with the older 19 MiB parameters signs in, then the hash is made again with 7 MiB x 5; a wrong password leaves it as it was', async () => {
    const older = await hash(DEMO.password, { algorithm: 2 });
    expect(older).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const user = await createUser(t.orm, { passwordHash: older });

    expect(await token(passwordParams(user.email, 'wrong-password'))).toMatchObject({ status: 400, body: BAD_LOGIN });
    expect((await t.row('app_user', { u_id: user.uId })).password_hash).toBe(older);

    expect((await token(passwordParams(user.email))).status).toBe(200);
    const upgraded = (await t.row('app_user', { u_id: user.uId })).password_hash;
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    // The new hash is of the same password: the next sign-in passes and leaves it alone.
    expect((await token(passwordParams(user.email))).status).toBe(200);
    expect((await t.row('app_user', { u_id: user.uId })).password_hash).toBe(upgraded);
  });

  it.each([
    [{ scope: '' }, 'scope is required and must be sso.'],
    [{ scope: 'openid' }, 'The only scope is sso.'],
    [{ scope: 'sso admin' }, 'The only scope is sso.'],
  ])('when scope is %p, then invalid_scope', async (extra, description) => {
    expect(await token(passwordParams('olivia@demo.example', DEMO.password, extra))).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope', error_description: description },
    });
  });

  it.each(['username', 'password'])('when %s is missing (or empty, which counts as missing), then invalid_request', async (name) => {
    const params = passwordParams('olivia@demo.example');
    delete params[name];
    const expected = { status: 400, body: { error: 'invalid_request', error_description: `${name} is required.` } };
    expect(await token(params)).toMatchObject(expected);
    expect(await token({ ...params, [name]: '' })).toMatchObject(expected);
  });

  it('when a parameter is repeated, then invalid_request', async () => {
    const body = `${new URLSearchParams(passwordParams('olivia@demo.example')).toString()}&username=cara%40demo.example`;
    expect(await token(body)).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Parameter username is repeated.' },
    });
  });

  it('when a parameter of another grant is sent, then invalid_request; an unknown parameter is ignored (RFC 6749 3.2)', async () => {
    expect(await token(passwordParams('olivia@demo.example', DEMO.password, { code: 'abc' }))).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Parameter code is not used with grant_type password.' },
    });
    expect((await token(passwordParams('olivia@demo.example', DEMO.password, { device: 'phone' }))).status).toBe(200);
  });
});

describe('the request itself', () => {
  it('when grant_type is missing, then invalid_request; when unknown, unsupported_grant_type', async () => {
    const { grant_type: _omit, ...rest } = passwordParams('olivia@demo.example');
    expect(await token(rest)).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'grant_type is required.' },
    });
    expect(await token({ ...rest, grant_type: 'client_credentials' })).toMatchObject({
      status: 400,
      body: { error: 'unsupported_grant_type', error_description: 'grant_type client_credentials is not supported.' },
    });
  });

  it('when the body is JSON, then invalid_request', async () => {
    const res = await tokenRequest(t, JSON.stringify(passwordParams('olivia@demo.example')), { 'content-type': 'application/json' });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'The body must be application/x-www-form-urlencoded.' },
    });
  });

  it('when called with GET, then 405 with an OAuth body, no-store', async () => {
    const res = await fetch(`${t.baseUrl}/as/token.oauth2`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ error: 'invalid_request', error_description: 'The token endpoint takes POST only.' });
  });
});

describe('client authentication', () => {
  const { client_id: _id, client_secret: _secret, ...userPart } = passwordParams('olivia@demo.example');

  it('when the credentials come in HTTP Basic, then 200', async () => {
    expect((await token(userPart, { authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.secret) })).status).toBe(200);
  });

  it.each([
    ['an unknown client_id', { client_id: 'nope', client_secret: 'x' }],
    ['a wrong client_secret', { client_id: DEMO_CLIENT.clientId, client_secret: 'wrong' }],
    ['no client_secret', { client_id: DEMO_CLIENT.clientId }],
  ])('when the body carries %s, then 401 invalid_client without WWW-Authenticate', async (_what, client) => {
    const res = await token({ ...userPart, ...client });
    expect(res).toMatchObject({ status: 401, body: BAD_CLIENT });
    expect(res.headers.get('www-authenticate')).toBeNull();
  });

  it('when no client credentials are sent at all, then 401 invalid_client', async () => {
    expect(await token(userPart)).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: 'Client authentication is required: client_id and client_secret.' },
    });
  });

  it.each([
    ['a wrong secret', basic(DEMO_CLIENT.clientId, 'wrong'), BAD_CLIENT],
    ['an unknown client', basic('nope', DEMO_CLIENT.secret), BAD_CLIENT],
    ['malformed credentials', 'Basic !!!notbase64', { error: 'invalid_client', error_description: 'The Basic credentials are malformed.' }],
    [
      'no colon',
      `Basic ${Buffer.from('demo-mobile').toString('base64')}`,
      { error: 'invalid_client', error_description: 'The Basic credentials are malformed.' },
    ],
  ])('when HTTP Basic carries %s, then 401 invalid_client with WWW-Authenticate: Basic', async (_what, authorization, body) => {
    const res = await token(userPart, { authorization });
    expect(res).toMatchObject({ status: 401, body });
    expect(res.headers.get('www-authenticate')).toBe(CHALLENGE);
  });

  it('when Basic and a body secret are both sent, then invalid_request; a body client_id matching Basic is accepted', async () => {
    const both = await token(
      { ...userPart, client_secret: DEMO_CLIENT.secret },
      { authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.secret) },
    );
    expect(both).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'Use one client authentication method: HTTP Basic or client_secret in the body, not both.',
      },
    });
    const mismatch = await token({ ...userPart, client_id: 'other' }, { authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.secret) });
    expect(mismatch).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'client_id differs from the Basic credentials.' },
    });
    expect(
      (await token({ ...userPart, client_id: DEMO_CLIENT.clientId }, { authorization: basic(DEMO_CLIENT.clientId, DEMO_CLIENT.secret) }))
        .status,
    ).toBe(200);
  });

  it('when the client is inactive, then invalid_client; when it may not use the grant, then unauthorized_client', async () => {
    const inactive = await createClient(t.orm, { active: false });
    expect(await token({ ...userPart, client_id: inactive.clientId, client_secret: inactive.secret })).toMatchObject({
      status: 401,
      body: BAD_CLIENT,
    });
    const codeOnly = await createClient(t.orm, { grantTypes: ['authorization_code'] });
    expect(await token({ ...userPart, client_id: codeOnly.clientId, client_secret: codeOnly.secret })).toMatchObject({
      status: 400,
      body: { error: 'unauthorized_client', error_description: 'The client may not use grant_type password.' },
    });
  });
});

describe('grant_type=authorization (code)', () => {
  const client = { client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.secret };

  it.each([
    [{ redirect_uri: DEMO_CLIENT.redirectUri }, 'code is required.'],
    [{ code: 'abc' }, 'redirect_uri is required.'],
  ])('when %p only, then invalid_request', async (params, description) => {
    expect(await token({ grant_type: 'authorization', ...client, ...params })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: description },
    });
  });

  it('when the code was never issued, then invalid_grant (the standard name authorization_code works alike)', async () => {
    const body = {
      error: 'invalid_grant',
      error_description: 'The authorization code is invalid, expired, or was issued to another client or redirect URI.',
    };
    for (const grant_type of ['authorization', 'authorization_code']) {
      expect(await token({ grant_type, code: 'never-issued', redirect_uri: DEMO_CLIENT.redirectUri, ...client })).toMatchObject({
        status: 400,
        body,
      });
    }
  });

  it('when password-grant parameters are sent with it, then invalid_request', async () => {
    expect(
      await token({ grant_type: 'authorization', code: 'x', redirect_uri: DEMO_CLIENT.redirectUri, username: 'u', ...client }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Parameter username is not used with grant_type authorization.' },
    });
  });
});

describe('grant_type=refresh_token', () => {
  const refresh = (refresh_token: string, extra: Record<string, string> = {}) =>
    token({ grant_type: 'refresh_token', refresh_token, client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.secret, ...extra });
  const BAD_REFRESH = { status: 400, body: { error: 'invalid_grant', error_description: 'The refresh token is invalid or expired.' } };

  it('rotates: each use gives a new pair; reusing a rotated token revokes the whole family', async () => {
    const first = await token(passwordParams('olivia@demo.example'));
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    const third = await refresh(second.body.refresh_token, { scope: 'sso' });
    expect(third.status).toBe(200);
    const login = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${third.body.access_token}` } });
    issued.push(login.body.authToken);

    expect(await refresh(first.body.refresh_token)).toMatchObject(BAD_REFRESH);
    expect(await refresh(third.body.refresh_token)).toMatchObject(BAD_REFRESH);
    expect((await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${third.body.access_token}` } })).status).toBe(
      401,
    );
    expect((await t.rest('GET', '/rest/user/session', { headers: { 'x-service-authtoken': login.body.authToken } })).status).toBe(401);
    expect(t.logs).toContainEqual(expect.objectContaining({ event: 'auth.family_revoked', reason: 'refresh_token_reuse' }));
  });

  it('when another client presents it, or it expired, or it is unknown, then invalid_grant', async () => {
    const pair = await token(passwordParams('cara@demo.example'));
    const other = await createClient(t.orm);
    expect(
      await token({
        grant_type: 'refresh_token',
        refresh_token: pair.body.refresh_token,
        client_id: other.clientId,
        client_secret: other.secret,
      }),
    ).toMatchObject(BAD_REFRESH);
    expect(await refresh('unknown-token')).toMatchObject(BAD_REFRESH);
    await t.orm.em
      .fork()
      .nativeUpdate(RefreshToken, { tokenHash: hashToken(pair.body.refresh_token) }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await refresh(pair.body.refresh_token)).toMatchObject(BAD_REFRESH);
  });

  it('when the scope asks for more than sso, then invalid_scope; when refresh_token is missing, invalid_request', async () => {
    const pair = await token(passwordParams('pat@demo.example'));
    expect(await refresh(pair.body.refresh_token, { scope: 'admin' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_scope', error_description: 'The only scope is sso.' },
    });
    expect(await token({ grant_type: 'refresh_token', client_id: DEMO_CLIENT.clientId, client_secret: DEMO_CLIENT.secret })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request', error_description: 'refresh_token is required.' },
    });
  });
});

it('the authorization server metadata names the endpoints and the JWKS', async () => {
  const res = await t.rest('GET', '/.well-known/oauth-authorization-server');
  expect(res.body).toMatchObject({
    issuer: t.config.authBaseUrl,
    token_endpoint: `${t.config.authBaseUrl}/as/token.oauth2`,
    authorization_endpoint: `${t.config.authBaseUrl}/as/authorization.oauth2`,
    jwks_uri: `${t.config.authBaseUrl}/.well-known/jwks.json`,
  });
});

it('no token, secret or password reaches the logs', () => {
  expect(issued.length).toBeGreaterThan(10);
  expect(leaked(JSON.stringify(t.logs), [...issued, DEMO.password, DEMO_CLIENT.secret, 'wrong-password'])).toEqual([]);
});
