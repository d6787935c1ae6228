// The explorer's sign-in (drawn by sign-in.ts): the specification's password login, as an app does
// it, on this service's origin. The login scheme (GET /rest/user/login-scheme) names the OAuth
// client; the token endpoint's password grant answers an access token; loginUser (POST
// /rest/user/login, Authorization: Bearer) exchanges it for the service auth token, which the
// header editor then carries as x-service-authtoken. Sign-out is logout (POST /rest/user/logout),
// which revokes that token and the refresh tokens of its login. The password goes to the token
// endpoint and nowhere else; neither it nor the access and refresh tokens are kept. The REST
// routes, not GraphQL documents of the page's own, so sign-in works wherever the REST facade does
// (trusted documents enforced on /graphql included). No DOM here: the jest tests run it in Node.

/** The header that carries the user's service auth token (docs/api/identity.md). */
export const AUTH_TOKEN_HEADER = 'x-service-authtoken';

/** The token endpoint under an AUTH_BASE_URL without a path; the page's route names the real one (route.ts). */
export const DEFAULT_TOKEN_PATH = '/as/token.oauth2';

export interface SessionOptions {
  /** The service's origin, e.g. window.location.origin. */
  origin: string;
  /** The token endpoint's path on that origin. */
  tokenPath?: string;
  fetchFn?: typeof fetch;
}

/** Who signed in, and the service auth token the header editor carries. */
export interface SignedIn {
  email: string;
  userId: number;
  authToken: string;
}

/** Why sign-in or sign-out failed: the service's identifier (errorCode, or the OAuth error) and its message. */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }

  /** As the form shows it: "invalid_grant: The username or password is incorrect." */
  get text(): string {
    return this.code ? `${this.code}: ${this.message}` : this.message;
  }
}

type Body = Record<string, unknown>;

/** A request to the service; a refusal becomes a SessionError with the identifier the service answered. */
async function call(options: SessionOptions, path: string, init: RequestInit): Promise<{ status: number; body: Body }> {
  const res = await (options.fetchFn ?? fetch)(new URL(path, options.origin).href, { ...init, credentials: 'omit' });
  const text = await res.text();
  let body: Body | null = null;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) {
    try {
      body = JSON.parse(text) as Body;
    } catch {
      // Described below.
    }
  }
  if (res.ok) return { status: res.status, body: body ?? {} };
  // The REST error body ({errorCode, message}) or RFC 6749's ({error, error_description}).
  const code = body?.errorCode ?? body?.error;
  const message = body?.message ?? body?.error_description;
  if (typeof code === 'string') throw new SessionError(typeof message === 'string' ? message : `The service answered ${res.status}.`, code);
  throw new SessionError(`The service answered ${res.status} ${res.statusText} to ${path.replace(/\?.*/, '')}.`);
}

/** Signs in with e-mail and password: login scheme, password grant, loginUser. */
export async function signIn(email: string, password: string, options: SessionOptions): Promise<SignedIn> {
  const scheme = (await call(options, `/rest/user/login-scheme?email=${encodeURIComponent(email)}`, { method: 'GET' })).body;
  if (scheme.authType !== 'O') {
    // The provider sends the browser back to the login client's redirect URI: the app's own scheme, not this page.
    throw new SessionError(
      `${email} signs in at their organisation's identity provider, which returns to the app, not to the explorer: ` +
        `sign in from the app and paste its authToken into the ${AUTH_TOKEN_HEADER} header.`,
    );
  }
  const tokens = await call(options, options.tokenPath ?? DEFAULT_TOKEN_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'password',
      scope: 'sso',
      client_id: String(scheme.clientId),
      client_secret: String(scheme.clientSecret),
      username: email,
      password,
    }).toString(),
  });
  const login = await call(options, '/rest/user/login', {
    method: 'POST',
    headers: { authorization: `Bearer ${String(tokens.body.access_token)}` },
  });
  const { authToken, userId } = login.body;
  if (typeof authToken !== 'string' || typeof userId !== 'number') throw new SessionError('loginUser answered no authToken.');
  return { email, userId, authToken };
}

/** Signs out: logout revokes the token. A token the service no longer knows (expired, revoked) is signed out already. */
export async function signOut(authToken: string, options: SessionOptions): Promise<void> {
  try {
    await call(options, '/rest/user/logout', { method: 'POST', headers: { [AUTH_TOKEN_HEADER]: authToken } });
  } catch (err) {
    if (err instanceof SessionError && err.code === 'WSInvalidAuthTokenException') return;
    throw err;
  }
}

/** The header editor's text as a list of headers; blank is none; null when it is not a JSON object. */
function headerEntries(text: string): [string, unknown][] | null {
  if (!text.trim()) return [];
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : null;
  } catch {
    return null;
  }
}

/** The x-service-authtoken in the header editor's text (any case); null when there is none or the text is not a JSON object. */
export function authTokenOf(text: string): string | null {
  const found = headerEntries(text)?.find(([name]) => name.toLowerCase() === AUTH_TOKEN_HEADER);
  return typeof found?.[1] === 'string' ? found[1] : null;
}

/**
 * The header editor's text with x-service-authtoken set to `token` ("" when signing out), the other
 * headers kept, on one line as the explorer opens with it; null when the text is not a JSON object.
 */
export function withAuthToken(text: string, token: string): string | null {
  const entries = headerEntries(text);
  if (!entries) return null;
  const others = entries.filter(([name]) => name.toLowerCase() !== AUTH_TOKEN_HEADER);
  const at = entries.findIndex(([name]) => name.toLowerCase() === AUTH_TOKEN_HEADER);
  others.splice(at === -1 ? others.length : at, 0, [AUTH_TOKEN_HEADER, token]);
  return `{${others.map(([name, value]) => `${JSON.stringify(name)}: ${JSON.stringify(value)}`).join(', ')}}`;
}
