// Token families: what one login issued. Issuing starts or extends a family; revoking it
// ends its refresh tokens, its access tokens (checked at loginUser and sso-token) and the
// service auth tokens logged in with them, in the database and in the token cache.
import crypto from 'node:crypto';
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import { User } from '../user';
import { ServiceAuthToken } from './identity.entity';
import { OAuthClient, RefreshToken, TokenFamily, type GrantType } from './oauth.entity';
import { hashToken, newOpaqueToken } from './tokens';
import { OAuthError } from './oauth-error';
import type { IdentityRuntime } from './identity.runtime';

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  expires_in: number;
}

async function issue(
  rt: IdentityRuntime,
  em: EntityManager,
  family: TokenFamily,
  userId: number,
  clientId: string,
): Promise<TokenResponse> {
  const refresh = newOpaqueToken();
  em.create(RefreshToken, {
    tokenHash: hashToken(refresh),
    family,
    expiresAt: new Date(Date.now() + rt.config.auth.refreshTokenTtlSeconds * 1000),
  });
  await em.flush();
  const access = await rt.signer.signAccessToken({ userId, clientId, familyId: family.id, scope: 'sso' });
  return { access_token: access, refresh_token: refresh, token_type: 'Bearer', expires_in: rt.config.auth.accessTokenTtlSeconds };
}

/** A new login. For a code, the family id was fixed when the code was issued; if a replay of the
 * code already revoked that family, the insert conflicts and nothing is issued. */
export async function startFamily(
  rt: IdentityRuntime,
  em: EntityManager,
  args: { userId: number; clientId: string; grantType: GrantType; familyId?: string },
): Promise<TokenResponse> {
  const family = em.create(TokenFamily, {
    id: args.familyId ?? crypto.randomUUID(),
    user: em.getReference(User, args.userId),
    client: em.getReference(OAuthClient, args.clientId),
    grantType: args.grantType,
  });
  try {
    return await issue(rt, em, family, args.userId, args.clientId);
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException)
      throw new OAuthError('invalid_grant', 'The authorization code was already used.');
    throw err;
  }
}

/** The successor of a refresh token, in the same family. */
export async function extendFamily(rt: IdentityRuntime, em: EntityManager, family: TokenFamily): Promise<TokenResponse> {
  return issue(rt, em, family, family.user.uId, family.client.clientId);
}

/**
 * Revokes a family. `seed` creates the family row already revoked when it does not exist yet
 * (a replayed code racing its first use).
 */
export async function revokeFamily(
  rt: IdentityRuntime,
  em: EntityManager,
  familyId: string,
  reason: 'refresh_token_reuse' | 'code_reuse' | 'logout',
  seed?: { userId: number; clientId: string; grantType: GrantType },
): Promise<void> {
  const conn = em.getConnection();
  if (seed) {
    await conn.execute(
      `insert into oauth_token_family (id, user_id, client_id, grant_type, revoked_at, revoked_reason) values (?, ?, ?, ?, now(), ?)
       on conflict (id) do update set revoked_at = coalesce(oauth_token_family.revoked_at, now()), revoked_reason = coalesce(oauth_token_family.revoked_reason, excluded.revoked_reason)`,
      [familyId, seed.userId, seed.clientId, seed.grantType, reason],
    );
  } else {
    await em.nativeUpdate(TokenFamily, { id: familyId, revokedAt: null }, { revokedAt: new Date(), revokedReason: reason });
  }
  const live = await em.find(ServiceAuthToken, { family: familyId, revokedAt: null }, { fields: ['tokenHash'] });
  if (live.length) {
    const hashes = live.map((t) => t.tokenHash);
    await em.nativeUpdate(ServiceAuthToken, { tokenHash: { $in: hashes } }, { revokedAt: new Date() });
    await rt.cache.revoke(hashes);
  }
  if (reason !== 'logout') {
    rt.logger.warn(
      { event: 'auth.family_revoked', familyId, reason, userId: seed?.userId },
      'token family revoked after a replayed credential',
    );
  }
}

/** Whether the family of an access token still stands. */
export async function familyActive(em: EntityManager, familyId: string): Promise<boolean> {
  const family = await em.findOne(TokenFamily, { id: familyId }, { fields: ['id', 'revokedAt'] });
  return Boolean(family && !family.revokedAt);
}
