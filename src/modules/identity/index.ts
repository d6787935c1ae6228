// The identity module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Identity: service auth tokens, system tokens, the OAuth authorization server (token endpoint, inbound federation, development identity
// provider) and the principals every request is checked against (ctx.auth).
import { defineModule } from '../../core/module';
import { ServiceAuthToken, SystemToken } from './identity.entity';
import { OAuthClient, TokenFamily, RefreshToken, AuthorizationCode, InboundRequest, AuthRateLimit } from './oauth.entity';
import { IdentityResolver } from './identity.resolver';
import { identityRoutes } from './identity.routes';
import { Principals } from './principal';
import { startIdentity } from './identity.runtime';

export const identity = defineModule({
  name: 'identity',
  entities: [ServiceAuthToken, SystemToken, OAuthClient, TokenFamily, RefreshToken, AuthorizationCode, InboundRequest, AuthRateLimit],
  resolvers: [IdentityResolver],
  tag: 'Identity',
  routes: identityRoutes,
  rateLimited: ['loginUser'],
  principals: (ctx) => new Principals(ctx),
  services: async (deps) => {
    const identity = await startIdentity(deps);
    return { provides: { identity }, close: () => identity.close() };
  },
});

export { createOAuthServer, type OAuthServer } from './http/oauth-server';
export { SystemToken } from './identity.entity';
export { OAuthClient } from './oauth.entity';
export { type IdentityRuntime, startIdentity } from './identity.runtime';
export { hashToken } from './tokens';
export { hashPassword, verifyPassword } from './passwords';
export { Principals, type BearerPrincipal, type CompanyKeyPrincipal, type SystemPrincipal, type UserPrincipal } from './principal';
