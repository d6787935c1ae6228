// POST {AUTH_BASE_URL}/as/token.oauth2 (RFC 6749 section 3.2): grants password,
// authorization (the spec's name for authorization_code; both are accepted) and
// refresh_token. Every answer, success or error, carries Cache-Control: no-store.
import type Koa from 'koa';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IdentityRuntime } from '../identity.runtime';
import type { GrantType } from '../oauth.entity';
import { OAuthError } from '../oauth-error';
import { GuardUnavailable, LockedOut, type Attempt } from '../brute-force';
import { rateLimitFields } from '../../../core/rate-limit';
import { CacheUnavailableError } from '../token-cache';
import { authorizationCodeGrant, passwordGrant, refreshTokenGrant } from '../grants';
import type { TokenResponse } from '../families';
import { isDependencyFailure } from '../../../core/error-mapping';
import { readForm } from './form';
import { authenticate, presentedClient } from './client-auth';

interface GrantSpec {
  grant: GrantType;
  params: string[];
  required: string[];
}

const CODE_GRANT: GrantSpec = {
  grant: 'authorization_code',
  params: ['code', 'redirect_uri', 'code_verifier'],
  required: ['code', 'redirect_uri'],
};
const GRANTS: Record<string, GrantSpec> = {
  password: { grant: 'password', params: ['username', 'password', 'scope'], required: ['username', 'password'] },
  authorization: CODE_GRANT,
  authorization_code: CODE_GRANT,
  refresh_token: { grant: 'refresh_token', params: ['refresh_token', 'scope'], required: ['refresh_token'] },
};
const COMMON = new Set(['grant_type', 'client_id', 'client_secret']);
/** Parameters of some grant: sent with another grant they are an error; others are ignored (RFC 6749 3.2). */
const KNOWN = new Set(Object.values(GRANTS).flatMap((g) => g.params));

export function noStore(ctx: Koa.Context): void {
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Pragma', 'no-cache');
}

function sendOAuthError(ctx: Koa.Context, err: OAuthError): void {
  ctx.status = err.status;
  for (const [k, v] of Object.entries(err.headers)) ctx.set(k, v);
  ctx.body = err.body();
  ctx.state.errorCode = err.error;
}

async function runGrant(rt: IdentityRuntime, ctx: Koa.Context, params: Map<string, string>, attempt: Attempt): Promise<TokenResponse> {
  const grantType = params.get('grant_type');
  if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
  const spec = GRANTS[grantType];
  if (!spec) throw new OAuthError('unsupported_grant_type', `grant_type ${grantType.slice(0, 50)} is not supported.`);
  const presented = presentedClient(ctx, params);
  for (const name of params.keys()) {
    if (KNOWN.has(name) && !COMMON.has(name) && !spec.params.includes(name)) {
      throw new OAuthError('invalid_request', `Parameter ${name} is not used with grant_type ${grantType}.`);
    }
  }
  for (const name of spec.required) if (!params.has(name)) throw new OAuthError('invalid_request', `${name} is required.`);
  const em = rt.orm.em.fork();
  const client = await authenticate(em, presented);
  if (!client.grantTypes.includes(spec.grant))
    throw new OAuthError('unauthorized_client', `The client may not use grant_type ${grantType}.`);
  const p = Object.fromEntries(params) as Record<string, string>;
  switch (spec.grant) {
    case 'password':
      return passwordGrant(rt, em, client, { username: p.username, password: p.password, scope: p.scope }, attempt);
    case 'authorization_code':
      return authorizationCodeGrant(rt, em, client, { code: p.code, redirect_uri: p.redirect_uri, code_verifier: p.code_verifier });
    default:
      return refreshTokenGrant(rt, em, client, { refresh_token: p.refresh_token, scope: p.scope });
  }
}

export function tokenEndpoint(rt: IdentityRuntime): Koa.Middleware {
  return async (ctx) => {
    noStore(ctx);
    ctx.state.operation = 'token';
    const attempt: Attempt = { account: null, address: ctx.ip || 'unknown' };
    try {
      await rt.ready();
      const params = await readForm(ctx);
      if (params.get('grant_type') === 'password' && params.get('username'))
        attempt.account = params.get('username')!.toLowerCase().slice(0, 255);
      // A cheap refusal of a locked key first; the password grant takes its slots before verifying.
      await rt.guard.check(attempt);
      const tokens = await runGrant(rt, ctx, params, attempt);
      await rt.guard.succeed(attempt);
      ctx.status = 200;
      ctx.body = tokens;
    } catch (err) {
      await answerFailure(rt, ctx, err, attempt);
    }
  };
}

/** The locked key's policy (failures a window) and its state: none left until the lockout ends. */
function lockoutFields(err: LockedOut): Record<string, string> {
  const policy = `token-failures-${err.scope}`;
  return rateLimitFields([{ policy, quota: err.quota, window: err.windowSeconds, remaining: 0, reset: err.retryAfterSeconds }]);
}

async function answerFailure(rt: IdentityRuntime, ctx: Koa.Context, err: unknown, attempt: Attempt): Promise<void> {
  const log = ctx.state.logger ?? rt.logger;
  const counted = err instanceof OAuthError && (err.error === 'invalid_grant' || err.error === 'invalid_client');
  // Slots a password grant took and that no failure fills are given back.
  if (!counted) await rt.guard.release(attempt);
  if (err instanceof OAuthError) {
    if (counted) {
      try {
        // A bad client secret says nothing about the user account named in the request.
        const delayMs = await rt.guard.fail(attempt, err.error !== 'invalid_client');
        log.info({ event: 'auth.token_failed', error: err.error, clientAddress: attempt.address, delayMs }, 'token request failed');
        if (delayMs > 0) await sleep(delayMs);
      } catch (guardErr) {
        return answerFailure(rt, ctx, guardErr, attempt);
      }
    }
    return sendOAuthError(ctx, err);
  }
  if (err instanceof LockedOut) {
    log.warn(
      {
        event: 'auth.lockout',
        scope: err.scope,
        account: attempt.account,
        clientAddress: attempt.address,
        retryAfterSeconds: err.retryAfterSeconds,
      },
      'token request refused after repeated failures',
    );
    return sendOAuthError(
      ctx,
      new OAuthError('invalid_grant', `Too many failed attempts. Try again in ${err.retryAfterSeconds} seconds.`, {
        status: 429,
        // The lockout in the RateLimit fields too: the policy counts failed attempts, not requests.
        headers: { 'Retry-After': String(err.retryAfterSeconds), ...lockoutFields(err) },
      }),
    );
  }
  if (err instanceof GuardUnavailable || err instanceof CacheUnavailableError || isDependencyFailure(err)) {
    log.error(
      { err: { message: (err as Error).message, cause: ((err as Error).cause as Error | undefined)?.message } },
      'token endpoint dependency unavailable',
    );
    return sendOAuthError(
      ctx,
      new OAuthError('temporarily_unavailable', 'The service is temporarily unavailable. Try again later.', {
        headers: { 'Retry-After': '5' },
      }),
    );
  }
  log.error({ err }, 'unhandled error at the token endpoint');
  return sendOAuthError(ctx, new OAuthError('server_error', 'An internal error occurred.'));
}
