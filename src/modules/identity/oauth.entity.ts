// The OAuth side of identity: registered clients, token families (what one login issued),
// refresh tokens, authorization codes, and pending inbound authorizations. Every secret
// value is stored as its SHA-256 hash only.
import { Entity, PrimaryKey, Property, ManyToOne, Index } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { PrimaryKeyProp, t } from '@mikro-orm/core';
import { User } from '../user';

export type GrantType = 'password' | 'authorization_code' | 'refresh_token';

@Entity({ tableName: 'oauth_client' })
export class OAuthClient {
  [PrimaryKeyProp]?: 'clientId';

  @PrimaryKey({ length: 100 }) clientId!: string;

  @Property({ length: 255 }) name!: string;

  /** SHA-256 (hex) of the client secret. */
  @Property({ length: 64, hidden: true }) secretHash!: string;

  @Property({ type: 'text[]' }) grantTypes!: GrantType[];

  /** Exact-match redirect URIs (custom schemes ending in ssosignedin). */
  @Property({ type: 'text[]' }) redirectUris!: string[];

  @Property({ default: true }) active: boolean & Opt = true;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  @Property({ defaultRaw: 'now()', onUpdate: () => new Date() }) updatedAt: Date & Opt = new Date();
}

/** Everything one login issued: its refresh tokens (rotated), and the access and service
 * tokens derived from them. Reuse of a rotated refresh token or of a spent code revokes it. */
@Entity({ tableName: 'oauth_token_family' })
export class TokenFamily {
  @PrimaryKey({ type: 'uuid' }) id!: string;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) @Index() user!: Rel<User>;

  @ManyToOne(() => OAuthClient, { fieldName: 'client_id', deleteRule: 'cascade' }) client!: Rel<OAuthClient>;

  /** The grant that started the family: password or authorization_code. */
  @Property({ length: 30 }) grantType!: GrantType;

  @Property({ type: 'datetime', nullable: true }) revokedAt?: Date | null;

  /** Why it was revoked: refresh_token_reuse, code_reuse, logout. */
  @Property({ length: 40, nullable: true }) revokedReason?: string | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

@Entity({ tableName: 'oauth_refresh_token' })
export class RefreshToken {
  [PrimaryKeyProp]?: 'tokenHash';

  @PrimaryKey({ length: 64 }) tokenHash!: string;

  @ManyToOne(() => TokenFamily, { fieldName: 'family_id', deleteRule: 'cascade' }) @Index() family!: Rel<TokenFamily>;

  @Property() expiresAt!: Date;

  /** Set when the token was exchanged for its successor; a second exchange is reuse. */
  @Property({ type: 'datetime', nullable: true }) rotatedAt?: Date | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** A code our inbound flow issued: single use, short-lived, bound to client and redirect URI. */
@Entity({ tableName: 'oauth_authorization_code' })
export class AuthorizationCode {
  [PrimaryKeyProp]?: 'codeHash';

  @PrimaryKey({ length: 64 }) codeHash!: string;

  @ManyToOne(() => OAuthClient, { fieldName: 'client_id', deleteRule: 'cascade' }) client!: Rel<OAuthClient>;

  @ManyToOne(() => User, { fieldName: 'user_id', deleteRule: 'cascade' }) user!: Rel<User>;

  @Property({ length: 1024 }) redirectUri!: string;

  /** PKCE S256 challenge the client sent, if any. */
  @Property({ length: 128, nullable: true }) codeChallenge?: string | null;

  /** Decided when the code is issued, so a reuse can revoke what the first use issued even mid-flight. */
  @Property({ type: 'uuid' }) familyId!: string;

  @Property() @Index() expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true }) usedAt?: Date | null;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** An authorization request waiting for the external identity provider's callback. */
@Entity({ tableName: 'oauth_inbound_request' })
export class InboundRequest {
  [PrimaryKeyProp]?: 'stateHash';

  /** SHA-256 of the state sent to the identity provider. */
  @PrimaryKey({ length: 64 }) stateHash!: string;

  /** SHA-256 of the cookie that binds the request to the browser that started it. */
  @Property({ length: 64 }) browserHash!: string;

  @ManyToOne(() => OAuthClient, { fieldName: 'client_id', deleteRule: 'cascade' }) client!: Rel<OAuthClient>;

  @Property({ length: 1024 }) redirectUri!: string;

  /** The client's own state, echoed back on the redirect. */
  @Property({ length: 1024, nullable: true }) clientState?: string | null;

  @Property({ length: 128, nullable: true }) codeChallenge?: string | null;

  @Property({ length: 50 }) providerId!: string;

  @Property({ length: 255, nullable: true }) loginHint?: string | null;

  /** PKCE verifier and nonce toward the identity provider; deleted with the row at the callback. */
  @Property({ length: 128, hidden: true }) codeVerifier!: string;

  @Property({ length: 64, hidden: true }) nonce!: string;

  @Property() @Index() expiresAt!: Date;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}

/** Failure counters of the brute-force guard when it runs on PostgreSQL (the layout
 * rate-limiter-flexible's PostgreSQL store expects: key, points, expire in epoch ms). */
@Entity({ tableName: 'auth_rate_limit' })
export class AuthRateLimit {
  [PrimaryKeyProp]?: 'key';

  @PrimaryKey({ length: 255 }) key!: string;

  @Property({ type: t.integer, default: 0 }) points: number & Opt = 0;

  @Property({ type: 'bigint', nullable: true }) expire?: string | null;
}
