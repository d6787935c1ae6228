// Inbound federation end to end against a real OpenID provider (oidc-provider) on loopback:
// our authorization endpoint -> the provider's login page -> our callback -> the app's
// redirect URI with a code -> the token endpoint (grant_type=authorization).
import { createClient, createUser, IAN, suffix, useTestApp } from '../kit';
import { User } from '../../src/modules/user/user.entity';
import { AuthorizationCode } from '../../src/modules/identity/oauth.entity';
import { Browser, DEMO_CLIENT, abortAction, formAction, leaked, pkcePair, startIdp, tokenRequest, type Idp } from '../kit/oauth';

const PUBLIC = 'http://localhost:4000';
const IDP_PASSWORD = 'Idp-Passw0rd!';
const ACCOUNTS = [
  { sub: 'ext-ian', email: 'ian@demo.example', password: IDP_PASSWORD },
  { sub: 'ext-olivia', email: 'olivia@demo.example', password: IDP_PASSWORD },
  { sub: 'ext-stranger', email: 'stranger@inbound.example', password: IDP_PASSWORD },
  { sub: 'ext-unverified', email: 'unverified@inbound.example', password: IDP_PASSWORD, emailVerified: false },
  { sub: 'ext-inactive', email: 'inactive@inbound.example', password: IDP_PASSWORD },
];

let idp: Idp;
const t = useTestApp(async () => {
  idp = await startIdp(ACCOUNTS, `${PUBLIC}/as/callback`);
  return {
    env: {
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: idp.clientId,
      OIDC_CLIENT_SECRET: idp.clientSecret,
      DEV_IDP: 'false',
      LOGIN_MAX_FAILURES_PER_ADDRESS: '100000',
      LOGIN_FAILURE_DELAY_MS: '0',
    },
  };
});
afterAll(() => idp.close()); // after the app has stopped (afterAll hooks run in order)
const issued: string[] = [];

beforeAll(async () => {
  await createUser(t.orm, { email: 'unverified@inbound.example', authType: 'I' });
  await createUser(t.orm, { email: 'inactive@inbound.example', authType: 'I', active: false });
});

const browser = () => new Browser({ [PUBLIC]: t.baseUrl });

function authorizeUrl(params: Record<string, string>): string {
  return `${t.baseUrl}/as/authorization.oauth2?${new URLSearchParams({ response_type: 'code', client_id: DEMO_CLIENT.clientId, redirect_uri: DEMO_CLIENT.redirectUri, ...params }).toString()}`;
}

/** Signs in at the provider; returns the redirect to the app's URI, parsed. */
async function signIn(email: string, opts: { challenge?: string; state?: string; clientId?: string; redirectUri?: string } = {}) {
  const b = browser();
  const state = opts.state ?? `st-${suffix()}`;
  const params: Record<string, string> = { state, login_hint: email };
  if (opts.challenge) Object.assign(params, { code_challenge: opts.challenge, code_challenge_method: 'S256' });
  if (opts.clientId) params.client_id = opts.clientId;
  if (opts.redirectUri) params.redirect_uri = opts.redirectUri;
  const page = await b.follow('GET', authorizeUrl(params));
  expect(page.status).toBe(200);
  expect(page.text).toContain('Development identity provider');
  const done = await b.follow('POST', formAction(page.text, page.url), { login: email, password: IDP_PASSWORD });
  expect(done.location).toBeDefined();
  const url = new URL(done.location!);
  const query = Object.fromEntries(url.searchParams);
  if (query.code) issued.push(query.code);
  return { url, query, headers: done.headers, state };
}

async function exchange(code: string, extra: Record<string, string> = {}) {
  const res = await tokenRequest(t, {
    grant_type: 'authorization',
    code,
    redirect_uri: DEMO_CLIENT.redirectUri,
    client_id: DEMO_CLIENT.clientId,
    client_secret: DEMO_CLIENT.secret,
    ...extra,
  });
  if (res.status === 200) issued.push(res.body.access_token, res.body.refresh_token);
  return res;
}

const BAD_CODE = {
  error: 'invalid_grant',
  error_description: 'The authorization code is invalid, expired, or was issued to another client or redirect URI.',
};

describe('inbound federation against a real OpenID provider', () => {
  it('when an authType I user signs in at the provider, then the app gets code and state, the code becomes tokens, and the identity is linked', async () => {
    const { verifier, challenge } = pkcePair();
    const { url, query, headers, state } = await signIn('ian@demo.example', { challenge });
    expect(`${url.protocol}${url.pathname}`).toBe(DEMO_CLIENT.redirectUri);
    expect(Object.keys(query).sort()).toEqual(['code', 'state']);
    expect(query.state).toBe(state);
    expect(query.code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The spec's apps read the values as response headers too.
    expect({ code: headers.get('code'), state: headers.get('state') }).toEqual({ code: query.code, state });

    const tokens = await exchange(query.code, { code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(Object.keys(tokens.body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });

    const login = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect(login.status).toBe(200);
    expect(login.body.userId).toBe(IAN);
    issued.push(login.body.authToken);
    const session = await t.rest('GET', '/rest/user/session', { headers: { 'x-service-authtoken': login.body.authToken } });
    expect(session.body).toMatchObject({ userId: IAN, email: 'ian@demo.example', authType: 'I' });

    const ian = await t.orm.em.fork().findOneOrFail(User, IAN);
    expect({ issuer: ian.idpIssuer, subject: ian.idpSubject }).toEqual({ issuer: idp.issuer, subject: 'ext-ian' });
    expect(t.logs).toContainEqual(expect.objectContaining({ event: 'auth.identity_linked', userId: IAN }));

    // A second sign-in finds the user by the linked subject.
    const again = await signIn('ian@demo.example');
    expect((await exchange(again.query.code)).status).toBe(200);
  });

  it('when a code is used twice, then the second use is invalid_grant and what the first use issued is revoked', async () => {
    const { query } = await signIn('ian@demo.example');
    const first = await exchange(query.code);
    expect(first.status).toBe(200);
    const login = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${first.body.access_token}` } });
    expect(login.status).toBe(200);
    issued.push(login.body.authToken);

    const second = await exchange(query.code);
    expect(second).toMatchObject({ status: 400, body: BAD_CODE });

    const refresh = await tokenRequest(t, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: DEMO_CLIENT.clientId,
      client_secret: DEMO_CLIENT.secret,
    });
    expect(refresh).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const relogin = await t.rest('POST', '/rest/user/login', { headers: { authorization: `Bearer ${first.body.access_token}` } });
    expect(relogin).toMatchObject({
      status: 401,
      body: { errorCode: 'WSInvalidAuthTokenException', message: 'The access token is missing or invalid.' },
    });
    const session = await t.rest('GET', '/rest/user/session', { headers: { 'x-service-authtoken': login.body.authToken } });
    expect(session).toMatchObject({
      status: 401,
      body: { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' },
    });
    expect(t.logs).toContainEqual(expect.objectContaining({ event: 'auth.family_revoked', reason: 'code_reuse', level: 40 }));
  });

  it('when the code has expired, then invalid_grant', async () => {
    const { query } = await signIn('ian@demo.example');
    const em = t.orm.em.fork();
    await em.nativeUpdate(AuthorizationCode, { usedAt: null, expiresAt: { $gt: new Date() } }, { expiresAt: new Date(Date.now() - 1000) });
    expect(await exchange(query.code)).toMatchObject({ status: 400, body: BAD_CODE });
  });

  it('codes are bound to client and redirect URI: another client, or another redirect URI, gets invalid_grant and the code stays usable by its own client', async () => {
    const other = await createClient(t.orm);
    const { query } = await signIn('ian@demo.example');
    const foreign = await tokenRequest(t, {
      grant_type: 'authorization',
      code: query.code,
      redirect_uri: DEMO_CLIENT.redirectUri,
      client_id: other.clientId,
      client_secret: other.secret,
    });
    expect(foreign).toMatchObject({ status: 400, body: BAD_CODE });
    const foreignUri = await tokenRequest(t, {
      grant_type: 'authorization',
      code: query.code,
      redirect_uri: other.redirectUri,
      client_id: other.clientId,
      client_secret: other.secret,
    });
    expect(foreignUri).toMatchObject({ status: 400, body: BAD_CODE });
    expect(await exchange(query.code, { redirect_uri: 'com.demo.mobile:/other/ssosignedin' })).toMatchObject({
      status: 400,
      body: BAD_CODE,
    });
    expect((await exchange(query.code)).status).toBe(200);
  });

  it('with PKCE, a missing or wrong code_verifier is invalid_grant', async () => {
    const { verifier, challenge } = pkcePair();
    const { query } = await signIn('ian@demo.example', { challenge });
    const mismatch = {
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The code_verifier does not match the code challenge.' },
    };
    expect(await exchange(query.code)).toMatchObject(mismatch);
    expect(await exchange(query.code, { code_verifier: pkcePair().verifier })).toMatchObject(mismatch);
    expect((await exchange(query.code, { code_verifier: verifier })).status).toBe(200);
  });

  it('when the user cancels at the provider, then the app gets errorCode and errorMsg with its state', async () => {
    const b = browser();
    const page = await b.follow('GET', authorizeUrl({ state: 'cancel-state', login_hint: 'ian@demo.example' }));
    const done = await b.follow('POST', abortAction(page.text, page.url), {});
    const url = new URL(done.location!);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      errorCode: 'access_denied',
      errorMsg: 'The identity provider refused the sign-in.',
      state: 'cancel-state',
    });
    expect({ errorCode: done.headers.get('errorcode'), errorMsg: done.headers.get('errormsg') }).toEqual({
      errorCode: 'access_denied',
      errorMsg: 'The identity provider refused the sign-in.',
    });
  });

  it.each([
    ['an address the service does not know', 'stranger@inbound.example'],
    ['an unverified e-mail', 'unverified@inbound.example'],
    ['a password (authType O) user', 'olivia@demo.example'],
    ['an inactive user', 'inactive@inbound.example'],
  ])('when the provider vouches for %s, then access_denied, no code is issued and nothing is linked', async (_what, email) => {
    const codesBefore = await t.countRows('oauth_authorization_code');
    const { query } = await signIn(email);
    expect(query).toEqual({
      errorCode: 'access_denied',
      errorMsg: 'No active account is linked to this identity.',
      state: expect.any(String),
    });
    expect(await t.countRows('oauth_authorization_code')).toBe(codesBefore);
    const linked = await t.orm.em
      .fork()
      .count(User, { idpSubject: { $in: ['ext-stranger', 'ext-unverified', 'ext-olivia', 'ext-inactive'] } });
    expect(linked).toBe(0);
  });

  it('when the callback is replayed, or arrives in another browser, then it is refused', async () => {
    const b = browser();
    const page = await b.follow('GET', authorizeUrl({ state: 'replay', login_hint: 'ian@demo.example' }));
    // Walk the provider's redirects by hand and stop at our callback.
    let res = await b.request('POST', formAction(page.text, page.url), { login: 'ian@demo.example', password: IDP_PASSWORD });
    while (!res.headers.get('location')!.startsWith(`${PUBLIC}/as/callback`))
      res = await b.request('GET', new URL(res.headers.get('location')!, res.url).href);
    const callback = res.headers.get('location')!;

    const elsewhere = await browser().follow('GET', callback);
    expect(Object.fromEntries(new URL(elsewhere.location!).searchParams)).toEqual({
      errorCode: 'access_denied',
      errorMsg: 'The sign-in was started in another browser. Start again.',
      state: 'replay',
    });
    const replay = await b.follow('GET', callback);
    expect(replay).toMatchObject({
      status: 400,
      body: {
        error: 'invalid_request',
        error_description: 'This sign-in is unknown, expired or already finished. Start again from the app.',
      },
    });
    expect(replay.headers.get('location')).toBeNull();
  });

  describe('the authorization endpoint', () => {
    it('when the client or the redirect URI is unknown, then 400 without redirecting and nothing is stored', async () => {
      const before = await t.countRows('oauth_inbound_request');
      const unknownClient = await browser().request('GET', authorizeUrl({ client_id: 'nope', state: 's' }));
      expect(unknownClient).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', error_description: 'client_id is missing or unknown.' },
      });
      expect(unknownClient.headers.get('location')).toBeNull();
      const badRedirect = await browser().request('GET', authorizeUrl({ redirect_uri: 'https://evil.example/ssosignedin', state: 's' }));
      expect(badRedirect).toMatchObject({
        status: 400,
        body: { error: 'invalid_request', error_description: 'redirect_uri is missing or not registered for this client.' },
      });
      expect(badRedirect.headers.get('location')).toBeNull();
      expect(badRedirect.headers.get('cache-control')).toBe('no-store');
      expect(await t.countRows('oauth_inbound_request')).toBe(before);
    });

    it.each([
      [{ response_type: 'token' }, 'unsupported_response_type', 'response_type must be code.'],
      [
        { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' },
        'invalid_request',
        'code_challenge must be an S256 challenge with code_challenge_method=S256.',
      ],
      [{ code_challenge_method: 'S256' }, 'invalid_request', 'code_challenge_method needs a code_challenge.'],
    ])('when the request has %p, then the app gets errorCode %s', async (params, errorCode, errorMsg) => {
      const res = await browser().request('GET', authorizeUrl({ state: 'abc', ...params }));
      expect(res.status).toBe(302);
      expect(Object.fromEntries(new URL(res.headers.get('location')!).searchParams)).toEqual({ errorCode, errorMsg, state: 'abc' });
    });

    it('when a parameter is repeated, then invalid_request', async () => {
      const res = await browser().request('GET', `${authorizeUrl({ state: 'abc' })}&state=def`);
      expect(Object.fromEntries(new URL(res.headers.get('location')!).searchParams)).toMatchObject({
        errorCode: 'invalid_request',
        errorMsg: 'Parameter state is repeated.',
      });
    });

    it('when the client may not use the code grant, then unauthorized_client', async () => {
      const passwordOnly = await createClient(t.orm, { grantTypes: ['password'] });
      const res = await browser().request(
        'GET',
        authorizeUrl({ client_id: passwordOnly.clientId, redirect_uri: passwordOnly.redirectUri, state: 'z' }),
      );
      expect(Object.fromEntries(new URL(res.headers.get('location')!).searchParams)).toEqual({
        errorCode: 'unauthorized_client',
        errorMsg: 'The client may not use inbound federation.',
        state: 'z',
      });
    });
  });

  it('no code, token or secret reaches the logs', () => {
    const secrets = [...issued, IDP_PASSWORD, idp.clientSecret, DEMO_CLIENT.secret];
    expect(issued.length).toBeGreaterThan(10);
    expect(leaked(JSON.stringify(t.logs), secrets)).toEqual([]);
  });
});
