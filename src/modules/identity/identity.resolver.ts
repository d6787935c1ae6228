// Identity operations: login scheme, loginUser (access token -> service auth token), logout,
// outbound SSO token, and the caller's session.
import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { fieldTooLong, invalidParameter, ServiceError } from '../../core/errors';
import { ServiceAuthToken } from './identity.entity';
import { TokenFamily } from './oauth.entity';
import { AuthSession, LoginResult, LoginScheme, SsoToken } from './identity.types';
import { findUserByEmail } from './user-by-email';
import { revokeFamily } from './families';
import { hashToken, newOpaqueToken, SERVICE_TOKEN_TTL_MS } from './tokens';
import { CacheUnavailableError } from './token-cache';
import { consume } from '../../core/rate-limit';
import { charLength } from '../../core/text';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

async function cacheOp(ctx: Context, op: () => Promise<void>): Promise<void> {
  try {
    await op();
  } catch (err) {
    if (err instanceof CacheUnavailableError) throw new ServiceError('WSCacheServiceException', undefined, { cause: err });
    throw err;
  }
}

@Resolver()
@ServiceBoundary('WSAuthorisationServiceException')
export class IdentityResolver {
  @Query(() => LoginScheme, { description: 'How the user with this e-mail signs in, and the client credentials for the token endpoint.' })
  async loginScheme(@Ctx() ctx: Context, @Arg('email', { description: "The user's e-mail address." }) email: string): Promise<LoginScheme> {
    if (charLength(email) > 255) throw fieldTooLong('email', 255);
    if (!EMAIL.test(email)) throw invalidParameter('email', 'email must be an e-mail address.');
    const { clientId, clientSecret, redirectUris } = ctx.config.auth.loginClient;
    const user = await findUserByEmail(ctx.em, email);
    // Unknown addresses answer like a password user, so the answer does not reveal who exists.
    if (user?.authType !== 'I') return { authType: 'O', clientId, clientSecret, authorizationUrl: null };
    const url = new URL(`${ctx.config.authBaseUrl}/as/authorization.oauth2`);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('redirect_uri', redirectUris[0]);
    url.searchParams.set('login_hint', email);
    return { authType: 'I', clientId, clientSecret, authorizationUrl: url.href };
  }

  @Mutation(() => LoginResult, {
    description: 'loginUser: exchanges the OAuth access token (Authorization: Bearer) for a service auth token.',
  })
  async loginUser(@Ctx() ctx: Context): Promise<LoginResult> {
    const { user, familyId } = await ctx.auth.requireBearer();
    await consume(ctx, 'login', user.uId);
    const authToken = newOpaqueToken();
    const expiresAt = new Date(Date.now() + SERVICE_TOKEN_TTL_MS);
    ctx.em.create(ServiceAuthToken, {
      tokenHash: hashToken(authToken),
      user,
      expiresAt,
      family: ctx.em.getReference(TokenFamily, familyId),
    });
    await ctx.em.flush();
    return { authToken, userId: user.uId, expiresAt };
  }

  @Mutation(() => Boolean, {
    description: 'Revokes the presented service auth token and ends the login it came from (its refresh tokens too).',
  })
  async logout(@Ctx() ctx: Context): Promise<boolean> {
    const { tokenHash } = await ctx.auth.requireUser();
    const rt = ctx.services.identity;
    // The cache first: if it cannot take the revocation, nothing changes and the caller may retry.
    await cacheOp(ctx, () => rt.cache.revoke([tokenHash]));
    const row = await ctx.em.findOne(ServiceAuthToken, { tokenHash });
    await ctx.em.nativeUpdate(ServiceAuthToken, { tokenHash, revokedAt: null }, { revokedAt: new Date() });
    if (row?.family) await cacheOp(ctx, () => revokeFamily(rt, ctx.em, row.family!.id, 'logout'));
    return true;
  }

  @Mutation(() => SsoToken, {
    description: 'A short-lived signed token for outbound SSO to a partner, from the OAuth access token (Authorization: Bearer).',
  })
  async ssoToken(
    @Ctx() ctx: Context,
    @Arg('audience', () => String, { nullable: true, description: 'Partner audience; omitted: the first configured one.' })
    audience?: string | null,
  ): Promise<SsoToken> {
    const { user } = await ctx.auth.requireBearer();
    const allowed = ctx.config.auth.ssoAudiences;
    const aud = audience ?? allowed[0];
    if (!aud || !allowed.includes(aud)) throw invalidParameter('audience', 'audience is not a registered partner.');
    const { token, expiresAt } = await ctx.services.identity.signer.signSsoToken(user, aud);
    return { ssoToken: token, audience: aud, expiresAt };
  }

  @Query(() => AuthSession, { description: 'The user behind the presented service auth token (x-service-authtoken).' })
  async authSession(@Ctx() ctx: Context): Promise<AuthSession> {
    const { user, expiresAt } = await ctx.auth.requireUser();
    return { userId: user.uId, email: user.email, authType: user.authType, expiresAt };
  }
}
