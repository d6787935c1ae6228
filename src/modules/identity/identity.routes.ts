import { route, type RouteDef } from '../../rest/route';
import { bodySelection } from '../../rest/body-selection';
import { AuthSession, LoginResult, LoginScheme, SsoToken } from './identity.types';

export const identityRoutes: RouteDef[] = [
  route({
    at: 'GET /rest/user/login-scheme',
    credential: 'none',
    document: `query getLoginScheme($email: String!) { loginScheme(email: $email) { ${bodySelection(LoginScheme, new Map())} } }`,
    description: 'Unknown addresses answer like a password (O) user. For authType I, authorizationUrl starts the inbound flow.',
    errors: ['WSInvalidParameterException', 'WSFieldLengthException', 'WSAuthorisationServiceException'],
  }),
  route({
    at: 'POST /rest/user/login',
    credential: 'bearer',
    document: `mutation loginUser { loginUser { ${bodySelection(LoginResult, new Map())} } }`,
    description:
      'The access token comes from the token endpoint (scope sso). authToken is the x-service-authtoken of every user-level operation; ' +
      'it expires 24 hours after its last use (expiresAt). An invalid, expired or revoked access token is WSInvalidAuthTokenException.',
    errors: ['WSAuthorisationServiceException'],
  }),
  route({
    at: 'POST /rest/user/logout',
    credential: 'user',
    document: `mutation logout { logout }`,
    status: 204,
    description:
      '204 without a body. The service auth tokens and refresh tokens of the same login are revoked with it: any later use is WSInvalidAuthTokenException.',
    errors: ['WSCacheServiceException', 'WSAuthorisationServiceException'],
  }),
  route({
    at: 'POST /rest/user/sso-token',
    credential: 'bearer',
    document: `mutation createSsoToken($audience: String) { ssoToken(audience: $audience) { ${bodySelection(SsoToken, new Map())} } }`,
    description: 'The partner verifies the ES256 JWT with {AUTH_BASE_URL}/.well-known/jwks.json (iss, aud, exp).',
    errors: ['WSInvalidParameterException', 'WSAuthorisationServiceException'],
  }),
  route({
    at: 'GET /rest/user/session',
    credential: 'user',
    document: `query getAuthSession { authSession { ${bodySelection(AuthSession, new Map())} } }`,
    description:
      'Answers the user id and e-mail, how the user signs in (authType O or I) and when the token expires unless used again (expiresAt). ' +
      'A missing, expired or revoked token is WSInvalidAuthTokenException.',
    errors: ['WSCacheServiceException', 'WSAuthorisationServiceException'],
  }),
];
