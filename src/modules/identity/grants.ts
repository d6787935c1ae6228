// The three grants of the token endpoint. Each returns tokens or throws an OAuthError; the
// endpoint counts failures for the brute-force guard, and the password grant takes its slot of
// the guard's counters before it verifies the password.
import crypto from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import { User } from '../user';
import { AuthorizationCode, RefreshToken, type OAuthClient } from './oauth.entity';
import { hashToken } from './tokens';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import { OAuthError } from './oauth-error';
import { extendFamily, revokeFamily, startFamily, type TokenResponse } from './families';
import type { IdentityRuntime } from './identity.runtime';
import type { Attempt } from './brute-force';
import { findUserByEmail } from './user-by-email';

export const SSO_SCOPE = 'sso';
const BAD_CREDENTIALS = 'The username or password is incorrect.';
const BAD_CODE = 'The authorization code is invalid, expired, or was issued to another client or redirect URI.';
const BAD_REFRESH = 'The refresh token is invalid or expired.';

/** scope is a space-separated list (RFC 6749 3.3); sso is the only scope there is. */
export function checkScope(scope: string | undefined, required: boolean): void {
  if (scope === undefined) {
    if (required) throw new OAuthError('invalid_scope', 'scope is required and must be sso.');
    return;
  }
  const scopes = scope.split(' ').filter(Boolean);
  if (!scopes.length || scopes.some((s) => s !== SSO_SCOPE)) throw new OAuthError('invalid_scope', 'The only scope is sso.');
}

export async function passwordGrant(
  rt: IdentityRuntime,
  em: EntityManager,
  client: OAuthClient,
  p: { username: string; password: string; scope?: string },
  /** The request's attempt: its account and address slots are taken here, ended by the endpoint. */
  attempt: Attempt,
): Promise<TokenResponse> {
  checkScope(p.scope, true);
  // Counted before it is checked: concurrent guesses cannot all pass a limit that none has reached yet.
  await rt.guard.take(attempt);
  const user = await findUserByEmail(em, p.username);
  // One bound for the verification and for a hash made again from it (upgradeHash).
  const password = p.password.slice(0, 1024);
  // Always verify, so an unknown or unsuitable user costs the same time as a wrong password.
  const passwordOk = await verifyPassword(user?.authType === 'O' ? user.passwordHash : null, password);
  if (!user || !passwordOk || !user.active || user.authType !== 'O' || !user.synchronised) {
    throw new OAuthError('invalid_grant', BAD_CREDENTIALS);
  }
  if (needsRehash(user.passwordHash!)) await upgradeHash(em, user, password);
  return startFamily(rt, em, { userId: user.uId, clientId: client.clientId, grantType: 'password' });
}

/**
 * A hash made with older parameters is made again from the password just verified, the only time
 * the service holds it. The update applies only while the stored hash is the one verified, so a
 * password changed meanwhile is never overwritten.
 */
async function upgradeHash(em: EntityManager, user: User, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await em.nativeUpdate(User, { uId: user.uId, passwordHash: user.passwordHash }, { passwordHash });
}

function pkceMatches(challenge: string, verifier: string | undefined): boolean {
  if (!verifier || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = crypto.createHash('sha256').update(verifier, 'ascii').digest('base64url');
  const a = Buffer.from(computed);
  const b = Buffer.from(challenge);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export async function authorizationCodeGrant(
  rt: IdentityRuntime,
  em: EntityManager,
  client: OAuthClient,
  p: { code: string; redirect_uri: string; code_verifier?: string },
): Promise<TokenResponse> {
  const codeHash = hashToken(p.code);
  const row = await em.findOne(AuthorizationCode, { codeHash }, { populate: ['user'] });
  if (!row) throw new OAuthError('invalid_grant', BAD_CODE);
  const seed = { userId: (row.user as User).uId, clientId: row.client.clientId, grantType: 'authorization_code' as const };
  if (row.usedAt) {
    // RFC 6749 4.1.2: a code used twice revokes what its first use issued.
    await revokeFamily(rt, em, row.familyId, 'code_reuse', seed);
    throw new OAuthError('invalid_grant', BAD_CODE);
  }
  if (row.client.clientId !== client.clientId || row.redirectUri !== p.redirect_uri || row.expiresAt.getTime() <= Date.now()) {
    throw new OAuthError('invalid_grant', BAD_CODE);
  }
  if (row.codeChallenge && !pkceMatches(row.codeChallenge, p.code_verifier)) {
    throw new OAuthError('invalid_grant', 'The code_verifier does not match the code challenge.');
  }
  // The single use is decided by the database, so two concurrent exchanges cannot both win.
  const claimed = await em.nativeUpdate(AuthorizationCode, { codeHash, usedAt: null }, { usedAt: new Date() });
  if (claimed !== 1) {
    await revokeFamily(rt, em, row.familyId, 'code_reuse', seed);
    throw new OAuthError('invalid_grant', BAD_CODE);
  }
  const user = row.user as User;
  if (!user.active || user.authType !== 'I') throw new OAuthError('invalid_grant', BAD_CODE);
  return startFamily(rt, em, { userId: user.uId, clientId: client.clientId, grantType: 'authorization_code', familyId: row.familyId });
}

export async function refreshTokenGrant(
  rt: IdentityRuntime,
  em: EntityManager,
  client: OAuthClient,
  p: { refresh_token: string; scope?: string },
): Promise<TokenResponse> {
  const tokenHash = hashToken(p.refresh_token);
  const row = await em.findOne(RefreshToken, { tokenHash }, { populate: ['family', 'family.user', 'family.client'] });
  if (!row || row.family.client.clientId !== client.clientId || row.family.revokedAt) throw new OAuthError('invalid_grant', BAD_REFRESH);
  if (row.rotatedAt) {
    await revokeFamily(rt, em, row.family.id, 'refresh_token_reuse', undefined);
    throw new OAuthError('invalid_grant', BAD_REFRESH);
  }
  if (row.expiresAt.getTime() <= Date.now()) throw new OAuthError('invalid_grant', BAD_REFRESH);
  checkScope(p.scope, false);
  const user = row.family.user as User;
  if (!user.active) throw new OAuthError('invalid_grant', BAD_REFRESH);
  const claimed = await em.nativeUpdate(RefreshToken, { tokenHash, rotatedAt: null }, { rotatedAt: new Date() });
  if (claimed !== 1) {
    await revokeFamily(rt, em, row.family.id, 'refresh_token_reuse', undefined);
    throw new OAuthError('invalid_grant', BAD_REFRESH);
  }
  return extendFamily(rt, em, row.family);
}
