// Inbound federation: our authorization endpoint hands the user to the organisation's OpenID
// Connect provider (openid-client does discovery, PKCE, and ID token verification), and the
// provider's callback turns the verified identity into one of our single-use codes.
import crypto from 'node:crypto';
import * as oidc from 'openid-client';
import type { EntityManager } from '@mikro-orm/core';
import type { Config, InboundProviderConfig } from '../../config';
import type { Logger } from '../../logger';
import { User } from '../user';
import { AuthorizationCode, InboundRequest, OAuthClient } from './oauth.entity';
import { hashToken, newOpaqueToken, sameDigest } from './tokens';
import { findUserByEmail } from './user-by-email';

/** How long the user may take at the identity provider. */
const REQUEST_TTL_MS = 10 * 60_000;

export interface StartRequest {
  client: OAuthClient;
  redirectUri: string;
  clientState: string | null;
  codeChallenge: string | null;
  loginHint: string | null;
}

/** A failure reported to the app on its redirect URI as errorCode / errorMsg. */
export class InboundRefusal extends Error {
  constructor(
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the provider vouched for: from the verified ID token, e-mail possibly from UserInfo. */
interface VerifiedIdentity {
  iss: string;
  sub: string;
  email?: unknown;
  email_verified?: unknown;
}

export interface CallbackOutcome {
  redirectUri: string;
  clientState: string | null;
  result: { code: string } | InboundRefusal;
}

/** What is logged of a provider failure: its message and code, never the whole error (it may carry tokens). */
function errorFields(err: unknown): { message: unknown; code: unknown } {
  const e = err as { message?: unknown; code?: unknown } | null | undefined;
  return { message: e?.message, code: e?.code };
}

export class InboundFederation {
  private readonly configurations = new Map<string, Promise<oidc.Configuration>>();

  constructor(
    private readonly config: Config,
    private readonly logger: Logger,
  ) {}

  get callbackUrl(): string {
    return `${this.config.authBaseUrl}/as/callback`;
  }

  /** The provider of the user's organisation: by e-mail domain, else the catch-all one. */
  pickProvider(loginHint: string | null): InboundProviderConfig | null {
    const providers = this.config.auth.inboundProviders;
    const domain = loginHint?.split('@')[1]?.toLowerCase();
    return (domain && providers.find((p) => p.emailDomains.includes(domain))) || providers.find((p) => !p.emailDomains.length) || null;
  }

  private configuration(provider: InboundProviderConfig): Promise<oidc.Configuration> {
    let cached = this.configurations.get(provider.id);
    if (!cached) {
      const insecure = new URL(provider.issuer).protocol === 'http:';
      cached = oidc.discovery(new URL(provider.issuer), provider.clientId, undefined, oidc.ClientSecretBasic(provider.clientSecret), {
        execute: insecure ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
      // A failed discovery is retried on the next request, not cached.
      cached.catch(() => this.configurations.delete(provider.id));
      this.configurations.set(provider.id, cached);
    }
    return cached;
  }

  /** Stores the pending request and returns where to send the browser and the binding cookie. */
  async start(em: EntityManager, req: StartRequest): Promise<{ location: string; browserSecret: string }> {
    const provider = this.pickProvider(req.loginHint);
    if (!provider) throw new InboundRefusal('server_error', 'No identity provider is configured for this organisation.');
    let configuration: oidc.Configuration;
    try {
      configuration = await this.configuration(provider);
    } catch (err: unknown) {
      this.logger.error({ err: errorFields(err), provider: provider.id }, 'identity provider discovery failed');
      throw new InboundRefusal('temporarily_unavailable', 'The identity provider cannot be reached. Try again later.');
    }
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const browserSecret = newOpaqueToken();
    await em.nativeDelete(InboundRequest, { expiresAt: { $lt: new Date() } });
    em.create(InboundRequest, {
      stateHash: hashToken(state),
      browserHash: hashToken(browserSecret),
      client: req.client,
      redirectUri: req.redirectUri,
      clientState: req.clientState,
      codeChallenge: req.codeChallenge,
      providerId: provider.id,
      loginHint: req.loginHint,
      codeVerifier,
      nonce,
      expiresAt: new Date(Date.now() + REQUEST_TTL_MS),
    });
    await em.flush();
    const params: Record<string, string> = {
      redirect_uri: this.callbackUrl,
      scope: 'openid email',
      response_type: 'code',
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    };
    if (req.loginHint) params.login_hint = req.loginHint;
    return { location: oidc.buildAuthorizationUrl(configuration, params).href, browserSecret };
  }

  /**
   * Handles the provider's redirect. Returns null when the request cannot be tied to a pending
   * authorization (no redirect URI is then trustworthy); otherwise what to send the app.
   */
  async callback(em: EntityManager, query: URLSearchParams, browserSecret: string | undefined): Promise<CallbackOutcome | null> {
    const state = query.get('state');
    if (!state || state.length > 512) return null;
    const stateHash = hashToken(state);
    const pending = await em.findOne(InboundRequest, { stateHash }, { populate: ['client'] });
    // Deleting first makes the callback single use even when replayed concurrently.
    if (!pending || (await em.nativeDelete(InboundRequest, { stateHash })) !== 1) return null;
    const outcome = (result: CallbackOutcome['result']): CallbackOutcome => ({
      redirectUri: pending.redirectUri,
      clientState: pending.clientState ?? null,
      result,
    });
    if (pending.expiresAt.getTime() <= Date.now())
      return outcome(new InboundRefusal('access_denied', 'The sign-in took too long. Start again.'));
    if (!browserSecret || !sameDigest(hashToken(browserSecret), pending.browserHash)) {
      return outcome(new InboundRefusal('access_denied', 'The sign-in was started in another browser. Start again.'));
    }
    if (query.get('error')) {
      this.logger.info(
        { event: 'auth.inbound_refused', provider: pending.providerId, error: query.get('error')?.slice(0, 100) },
        'identity provider refused the sign-in',
      );
      return outcome(new InboundRefusal('access_denied', 'The identity provider refused the sign-in.'));
    }
    const provider = this.config.auth.inboundProviders.find((p) => p.id === pending.providerId);
    if (!provider) return outcome(new InboundRefusal('server_error', 'The identity provider is no longer configured.'));

    let claims: VerifiedIdentity;
    try {
      const configuration = await this.configuration(provider);
      const currentUrl = new URL(`${this.callbackUrl}?${query.toString()}`);
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        pkceCodeVerifier: pending.codeVerifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      claims = { iss: idToken.iss, sub: idToken.sub, email: idToken.email, email_verified: idToken.email_verified };
      // Providers may keep e-mail out of the ID token (OIDC Core 5.4): then the UserInfo endpoint has it.
      if (typeof idToken.email !== 'string') {
        const info = await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
        claims = { ...claims, email: info.email, email_verified: info.email_verified };
      }
    } catch (err: unknown) {
      this.logger.warn({ err: errorFields(err), provider: provider.id }, 'identity provider response rejected');
      return outcome(new InboundRefusal('access_denied', 'The identity provider response could not be verified.'));
    }

    const user = await this.linkUser(em, claims);
    if (!user) {
      this.logger.info({ event: 'auth.inbound_unknown_user', provider: provider.id }, 'no active inbound user for the identity');
      return outcome(new InboundRefusal('access_denied', 'No active account is linked to this identity.'));
    }
    const code = newOpaqueToken();
    await em.nativeDelete(AuthorizationCode, { expiresAt: { $lt: new Date(Date.now() - 86_400_000) } });
    em.create(AuthorizationCode, {
      codeHash: hashToken(code),
      client: pending.client,
      user,
      redirectUri: pending.redirectUri,
      codeChallenge: pending.codeChallenge,
      familyId: crypto.randomUUID(),
      expiresAt: new Date(Date.now() + this.config.auth.authorizationCodeTtlSeconds * 1000),
    });
    await em.flush();
    return outcome({ code });
  }

  /** The user of this identity: already linked, or found by verified e-mail and linked now. */
  private async linkUser(em: EntityManager, claims: VerifiedIdentity): Promise<User | null> {
    const issuer = claims.iss;
    const subject = claims.sub;
    const linked = await em.findOne(User, { idpIssuer: issuer, idpSubject: subject });
    if (linked) return linked.active && linked.authType === 'I' ? linked : null;
    const email = typeof claims.email === 'string' ? claims.email : null;
    if (!email || claims.email_verified !== true) return null;
    const user = await findUserByEmail(em, email);
    if (!user || !user.active || user.authType !== 'I' || user.idpSubject) return null;
    // Only an unlinked row is linked, so two first logins cannot both claim it.
    const claimed = await em.nativeUpdate(User, { uId: user.uId, idpSubject: null }, { idpIssuer: issuer, idpSubject: subject });
    if (claimed !== 1) return null;
    this.logger.info({ event: 'auth.identity_linked', userId: user.uId, issuer }, 'external identity linked to user');
    return em.refresh(user);
  }
}
