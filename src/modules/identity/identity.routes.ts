import { route, type DeclaredRoute } from '../../rest/route';
import { body, doc } from '../../rest/body-selection';
import { AuthSession, LoginResult, LoginScheme, SsoToken } from './identity.types';

export const identityRoutes: DeclaredRoute[] = [
  route({
    at: 'GET /rest/user/login-scheme',
    credential: 'none',
    document: doc`query getLoginScheme($email: String!) { loginScheme(email: $email) { ${body(LoginScheme, new Map())} } }`,
    description: 'Unknown addresses answer like a password (O) user. For authType I, authorizationUrl starts the inbound flow.',
    errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSAuthorisationServiceException'],
  }),
  route({
    at: 'POST /rest/user/login',
    credential: 'bearer',
    document: doc`mutation loginUser { loginUser { ${body(LoginResult, new Map())} } }`,
    description:
      'The access token comes from the token endpoint (scope sso). authToken is the x-service-authtoken of every user-level operation; ' +
      'it expires 24 hours after its last use (expiresAt). An invalid, expired or revoked access token is WSInvalidAuthTokenException.',
    errors: ['WSAuthorisationServiceException'],
  }),
  route({
    at: 'POST /rest/user/logout',
    credential: 'user',
    document: doc`mutation logout { logout }`,
    status: 204,
    description:
      '204 without a body. The service auth tokens and refresh tokens of the same login are revoked with it: any later use is WSInvalidAuthTokenException.',
    errors: ['WSCacheServiceException', 'WSAuthorisationServiceException'],
  }),
  route({
    at: 'POST /rest/user/sso-token',
    credential: 'bearer',
    document: doc`mutation createSsoToken($audience: String) { ssoToken(audience: $audience) { ${body(SsoToken, new Map())} } }`,
    description: 'The partner verifies the ES256 JWT with {AUTH_BASE_URL}/.well-known/jwks.json (iss, aud, exp).',
    errors: ['WSInvalidParameterException', 'WSAuthorisationServiceException'],
  }),
  route({
    at: 'GET /rest/user/session',
    credential: 'user',
    document: doc`query getAuthSession { authSession { ${body(AuthSession, new Map())} } }`,
    description:
      'Answers the user id and e-mail, how the user signs in (authType O or I) and when the token expires unless used again (expiresAt). ' +
      'A missing, expired or revoked token is WSInvalidAuthTokenException.',
    errors: ['WSCacheServiceException', 'WSAuthorisationServiceException'],
  }),
];
