import { strParam, type RouteDef } from '../../rest/route';

const str = { type: 'string' };
const int = { type: 'integer' };
const timestamp = { type: 'integer', description: 'Epoch milliseconds.' };
const object = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({ type: 'object', properties, required });

export const identityRoutes: RouteDef[] = [
  {
    operation: 'getLoginScheme',
    method: 'GET',
    path: '/rest/user/login-scheme',
    credential: 'none',
    document: `query getLoginScheme($email: String!) {
      loginScheme(email: $email) { authType clientId clientSecret authorizationUrl }
    }`,
    variables: (req) => ({ email: strParam(req.query.email) }),
    result: (data) => data.loginScheme,
    openapi: {
      summary: 'How a user signs in, with the client credentials for the token endpoint.',
      description: 'Unknown addresses answer like a password (O) user. For authType I, authorizationUrl starts the inbound flow.',
      tags: ['Identity'],
      parameters: [{ name: 'email', in: 'query', required: true, description: 'The user\'s e-mail address.', schema: { type: 'string', maxLength: 255 } }],
      response: object({ authType: { type: 'string', enum: ['O', 'I'] }, clientId: str, clientSecret: str, authorizationUrl: { type: ['string', 'null'] } }),
      errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSAuthorisationServiceException'],
    },
  },
  {
    operation: 'loginUser',
    method: 'POST',
    path: '/rest/user/login',
    credential: 'bearer',
    document: `mutation loginUser { loginUser { authToken userId expiresAt } }`,
    variables: () => ({}),
    result: (data) => data.loginUser,
    openapi: {
      summary: 'Exchange the OAuth access token for a service auth token (loginUser).',
      tags: ['Identity'],
      response: object({ authToken: str, userId: int, expiresAt: timestamp }),
      errors: ['WSAuthorisationServiceException'],
    },
  },
  {
    operation: 'logout',
    method: 'POST',
    path: '/rest/user/logout',
    credential: 'user',
    document: `mutation logout { logout }`,
    variables: () => ({}),
    result: () => undefined,
    status: 204,
    openapi: {
      summary: 'Revoke the service auth token and end the login it came from.',
      tags: ['Identity'],
      errors: ['WSCacheServiceException', 'WSAuthorisationServiceException'],
    },
  },
  {
    operation: 'createSsoToken',
    method: 'POST',
    path: '/rest/user/sso-token',
    credential: 'bearer',
    document: `mutation createSsoToken($audience: String) { ssoToken(audience: $audience) { ssoToken audience expiresAt } }`,
    variables: (req) => ({ audience: req.body?.audience }),
    result: (data) => data.ssoToken,
    openapi: {
      summary: 'A short-lived signed token for outbound SSO to a partner service.',
      description: 'The partner verifies the ES256 JWT with {AUTH_BASE_URL}/.well-known/jwks.json (iss, aud, exp).',
      tags: ['Identity'],
      requestBody: object({ audience: { type: 'string', description: 'Partner audience; omitted: the first configured one.' } }, []),
      response: object({ ssoToken: str, audience: str, expiresAt: timestamp }),
      errors: ['WSInvalidParameterException', 'WSAuthorisationServiceException'],
    },
  },
  {
    operation: 'getAuthSession',
    method: 'GET',
    path: '/rest/user/session',
    credential: 'user',
    document: `query getAuthSession { authSession { userId email authType expiresAt } }`,
    variables: () => ({}),
    result: (data) => data.authSession,
    openapi: {
      summary: 'The user behind the presented service auth token.',
      tags: ['Identity'],
      response: object({ userId: int, email: str, authType: str, expiresAt: timestamp }),
      errors: ['WSCacheServiceException', 'WSAuthorisationServiceException'],
    },
  },
];
