// Access tokens (RFC 9068 JWTs, ES256) and outbound SSO tokens, signed with the active key and
// verified against the published JWKS.
import crypto from 'node:crypto';
import { SignJWT, jwtVerify, createLocalJWKSet, type JWTPayload } from 'jose';
import type { Config } from '../../config';
import type { SigningKeys } from './keys';

export const ACCESS_TOKEN_TYPE = 'at+jwt';

export interface AccessClaims {
  userId: number;
  clientId: string;
  /** The token family (the login) the token belongs to. */
  familyId: string;
  scope: string;
}

export class TokenSigner {
  private readonly jwks: ReturnType<typeof createLocalJWKSet>;

  constructor(
    private readonly config: Config,
    private readonly keys: SigningKeys,
  ) {
    this.jwks = createLocalJWKSet(keys.publicJwks);
  }

  get publicJwks() {
    return this.keys.publicJwks;
  }

  async signAccessToken(claims: AccessClaims): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ scope: claims.scope, client_id: claims.clientId, sid: claims.familyId })
      .setProtectedHeader({ alg: 'ES256', kid: this.keys.active.kid, typ: ACCESS_TOKEN_TYPE })
      .setIssuer(this.config.authBaseUrl)
      .setAudience(this.config.auth.audience)
      .setSubject(String(claims.userId))
      .setIssuedAt(now)
      .setExpirationTime(now + this.config.auth.accessTokenTtlSeconds)
      .setJti(crypto.randomUUID())
      .sign(this.keys.active.key);
  }

  /** Throws when the token is malformed, forged, expired, or not one of our access tokens. */
  async verifyAccessToken(token: string): Promise<AccessClaims> {
    const { payload } = await jwtVerify(token, this.jwks, {
      issuer: this.config.authBaseUrl,
      audience: this.config.auth.audience,
      algorithms: ['ES256'],
      typ: ACCESS_TOKEN_TYPE,
      requiredClaims: ['sub', 'exp', 'iat', 'sid', 'scope'],
    });
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || typeof payload.sid !== 'string' || typeof payload.scope !== 'string')
      throw new Error('malformed claims');
    return {
      userId,
      familyId: payload.sid,
      scope: payload.scope,
      clientId: typeof payload.client_id === 'string' ? payload.client_id : '',
    };
  }

  /** A short-lived token a partner verifies with our JWKS. */
  async signSsoToken(user: { uId: number; email: string }, audience: string): Promise<{ token: string; expiresAt: Date }> {
    const now = Math.floor(Date.now() / 1000);
    const exp = now + this.config.auth.ssoTokenTtlSeconds;
    const token = await new SignJWT({ email: user.email } satisfies JWTPayload)
      .setProtectedHeader({ alg: 'ES256', kid: this.keys.active.kid, typ: 'JWT' })
      .setIssuer(this.config.authBaseUrl)
      .setAudience(audience)
      .setSubject(String(user.uId))
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(exp)
      .setJti(crypto.randomUUID())
      .sign(this.keys.active.key);
    return { token, expiresAt: new Date(exp * 1000) };
  }
}
