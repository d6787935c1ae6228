// The OAuth 2.0 side of the OpenAPI document: the token endpoint ({AUTH_BASE_URL}/as/token.oauth2,
// src/modules/identity/http/token-endpoint.ts) and the oauth2 security scheme whose flows it
// serves. It is not a GraphQL route, so this is the one place the document is written by hand:
// the form fields of each grant (RFC 6749 4.1.3, 4.3.2, 6) and the RFC 6749 5.2 error bodies.
import type { Components, JsonSchema } from './json-schema';
import type { ApiTag } from './openapi-tags';

export const TOKEN_PATH = '/as/token.oauth2';
const AUTHORIZATION_PATH = '/as/authorization.oauth2';
const SCOPES = { sso: 'Sign in to the service (the only scope).' };

const text = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', minLength: 1, description, ...extra });

const CLIENT: Record<string, JsonSchema> = {
  client_id: text('The client, with client_secret_post (or in the Basic credentials).'),
  client_secret: text("The client's secret (client_secret_post); not with HTTP Basic client authentication."),
};

/** The form of each grant: grant_type, its own fields, and the client's (RFC 6749 2.3.1). */
function grant(title: string, grantTypes: string[], fields: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return {
    type: 'object',
    title,
    properties: {
      grant_type: { type: 'string', enum: grantTypes, description: 'The grant.' },
      ...fields,
      ...CLIENT,
    },
    required: ['grant_type', ...required],
  };
}

function oauthError(codes: string[], description: string, example: { error: string; error_description: string }): JsonSchema {
  return {
    description,
    headers: { 'Cache-Control': { $ref: '#/components/headers/NoStore' } },
    content: {
      'application/json': {
        schema: {
          allOf: [{ $ref: '#/components/schemas/OAuthError' }, { type: 'object', properties: { error: { type: 'string', enum: codes } } }],
        },
        example,
      },
    },
  };
}

/** The security schemes of the OAuth side: the oauth2 flows, and HTTP Basic client authentication at the token endpoint. */
export function oauthSchemes(authBaseUrl: string): Record<string, JsonSchema> {
  const tokenUrl = `${authBaseUrl}${TOKEN_PATH}`;
  return {
    oauth2: {
      type: 'oauth2',
      description:
        'OAuth 2.0 access token (Authorization: Bearer) from the token endpoint; POST /rest/user/login exchanges it for a ' +
        'service auth token (x-service-authtoken). Clients authenticate with client_secret_basic or client_secret_post.',
      flows: {
        password: { tokenUrl, refreshUrl: tokenUrl, scopes: SCOPES },
        authorizationCode: { authorizationUrl: `${authBaseUrl}${AUTHORIZATION_PATH}`, tokenUrl, refreshUrl: tokenUrl, scopes: SCOPES },
      },
    },
    clientBasic: {
      type: 'http',
      scheme: 'basic',
      description: 'OAuth client authentication at the token endpoint (client_secret_basic): client_id and client_secret, form-encoded.',
    },
  };
}

/** The token endpoint's path item (under AUTH_BASE_URL when that is not the document's server). */
export function tokenPathItem(components: Components, serverUrl: string, authBaseUrl: string): JsonSchema {
  const password = components.named(
    'PasswordGrantRequest',
    grant(
      'Password grant',
      ['password'],
      {
        username: text("The user's e-mail address."),
        password: { type: 'string', format: 'password', minLength: 1, description: "The user's password." },
        scope: { type: 'string', enum: ['sso'], description: 'Space-separated scopes: sso, the only one.' },
      },
      ['username', 'password', 'scope'],
    ),
  );
  const code = components.named(
    'AuthorizationCodeGrantRequest',
    grant(
      'Authorization code grant',
      ['authorization_code', 'authorization'],
      {
        code: text('The code the authorization endpoint gave the redirect URI.'),
        redirect_uri: text('The redirect URI of the authorization request.'),
        code_verifier: text('The PKCE verifier (RFC 7636), when the authorization request had a code_challenge.'),
      },
      ['code', 'redirect_uri'],
    ),
  );
  const refresh = components.named(
    'RefreshTokenGrantRequest',
    grant(
      'Refresh token grant',
      ['refresh_token'],
      {
        refresh_token: text('The refresh token; each use answers a new one, and the old one is spent.'),
        scope: { type: 'string', enum: ['sso'], description: 'Space-separated scopes: sso, the only one.' },
      },
      ['refresh_token'],
    ),
  );
  components.named('OAuthError', {
    type: 'object',
    description: 'RFC 6749 5.2 error body.',
    properties: {
      error: {
        type: 'string',
        enum: [
          'invalid_request',
          'invalid_client',
          'invalid_grant',
          'unauthorized_client',
          'unsupported_grant_type',
          'invalid_scope',
          'server_error',
          'temporarily_unavailable',
        ],
      },
      error_description: { type: 'string', description: 'Human-readable text.' },
    },
    required: ['error', 'error_description'],
  });
  const tokens = components.named('TokenResponse', {
    type: 'object',
    description: 'RFC 6749 5.1 access token response.',
    properties: {
      access_token: { type: 'string', description: 'ES256 JWT with the sso scope (Authorization: Bearer).' },
      refresh_token: { type: 'string', description: 'Opaque; rotates on each use.' },
      token_type: { type: 'string', enum: ['Bearer'] },
      expires_in: { type: 'integer', minimum: 1, description: 'Seconds the access token is valid.' },
    },
    required: ['access_token', 'refresh_token', 'token_type', 'expires_in'],
  });
  const retryAfter = { $ref: '#/components/headers/RetryAfter' };
  const noStore = { 'Cache-Control': { $ref: '#/components/headers/NoStore' } };
  const post = {
    operationId: 'token',
    summary: 'Exchange a password, an authorization code or a refresh token for tokens.',
    description:
      'RFC 6749 token endpoint, under AUTH_BASE_URL. The client authenticates with HTTP Basic (client_secret_basic) or ' +
      'client_id and client_secret in the form (client_secret_post), not both. A parameter sent twice, or a parameter of ' +
      'another grant, is invalid_request. Repeated failures for an account or a client address lock it out for a while (429).',
    tags: ['Identity' satisfies ApiTag],
    security: [{ clientBasic: [] }, {}],
    requestBody: {
      required: true,
      description: 'application/x-www-form-urlencoded, UTF-8, at most 16384 bytes; an empty value is the parameter left out.',
      content: {
        'application/x-www-form-urlencoded': {
          schema: { oneOf: [password, code, refresh] },
          example: {
            grant_type: 'password',
            scope: 'sso',
            client_id: 'demo-mobile',
            client_secret: 'demo-mobile-secret',
            username: 'olivia@demo.example',
            password: 'Demo-Passw0rd!',
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The tokens.',
        headers: noStore,
        content: {
          'application/json': {
            schema: tokens,
            example: { access_token: 'eyJhbGciOiJFUzI1NiIs...', refresh_token: 'Yx2...', token_type: 'Bearer', expires_in: 3600 },
          },
        },
      },
      '400': oauthError(
        ['invalid_request', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope'],
        'invalid_request (a missing, repeated or foreign parameter, a body that is not a UTF-8 form), invalid_grant (wrong ' +
          'credentials, an invalid code or refresh token), unauthorized_client, unsupported_grant_type, invalid_scope.',
        { error: 'invalid_grant', error_description: 'The username or password is incorrect.' },
      ),
      '401': {
        ...oauthError(['invalid_client'], 'invalid_client: client authentication failed (WWW-Authenticate with HTTP Basic).', {
          error: 'invalid_client',
          error_description: 'Client authentication failed.',
        }),
        headers: {
          ...noStore,
          'WWW-Authenticate': { schema: { type: 'string' }, description: 'Basic realm="token", with Basic credentials.' },
        },
      },
      '429': {
        ...oauthError(['invalid_grant'], 'invalid_grant: too many failed attempts; retry after Retry-After seconds.', {
          error: 'invalid_grant',
          error_description: 'Too many failed attempts. Try again in 60 seconds.',
        }),
        headers: {
          ...noStore,
          'Retry-After': retryAfter,
          RateLimit: { $ref: '#/components/headers/RateLimit' },
          'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
        },
      },
      '500': oauthError(['server_error'], 'server_error', { error: 'server_error', error_description: 'An internal error occurred.' }),
      '503': {
        ...oauthError(['temporarily_unavailable'], 'temporarily_unavailable: a store the endpoint needs does not answer.', {
          error: 'temporarily_unavailable',
          error_description: 'The service is temporarily unavailable. Try again later.',
        }),
        headers: { ...noStore, 'Retry-After': retryAfter },
      },
    },
  };
  return authBaseUrl === serverUrl ? { post } : { servers: [{ url: authBaseUrl }], post };
}
