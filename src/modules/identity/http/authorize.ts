// Inbound federation endpoints. GET /as/authorization.oauth2 starts an authorization request
// and sends the browser to the organisation's identity provider; GET /as/callback receives
// its answer and redirects to the app's redirect_uri with code and state, or errorCode and
// errorMsg. The spec's clients read these as response values, so they are sent both as query
// parameters of the redirect and as response headers.
import type Koa from 'koa';
import type { IdentityRuntime } from '../identity.runtime';
import { findActiveClient } from '../clients';
import { InboundRefusal } from '../inbound';
import { isDependencyFailure } from '../../../core/error-mapping';
import { parseParams } from './form';
import { OAuthError } from '../oauth-error';
import { charLength, formPairs, NotText } from '../../../core/text';
import { noStore } from './token-endpoint';

export const BROWSER_COOKIE = 'as_inbound';
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function cookiePath(rt: IdentityRuntime): string {
  return `${new URL(rt.config.authBaseUrl).pathname.replace(/\/$/, '')}/as/`;
}

function browserCookie(rt: IdentityRuntime, value: string, maxAgeSeconds: number): string {
  const secure = rt.config.authBaseUrl.startsWith('https://') ? '; Secure' : '';
  // Lax: the provider's redirect back to us is a top-level GET, which still carries it.
  return `${BROWSER_COOKIE}=${value}; Path=${cookiePath(rt)}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

function readCookie(ctx: Koa.Context, name: string): string | undefined {
  for (const part of (ctx.get('cookie') || '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** A request that cannot be sent back to the app (unknown client or redirect URI). */
function refuseHere(ctx: Koa.Context, error: string, description: string, status = 400): void {
  ctx.status = status;
  ctx.body = { error, error_description: description };
  ctx.state.errorCode = error;
}

function redirectBack(ctx: Koa.Context, redirectUri: string, state: string | null, values: Record<string, string>): void {
  const url = new URL(redirectUri);
  const all = state === null ? values : { ...values, state };
  for (const [k, v] of Object.entries(all)) {
    url.searchParams.set(k, v);
    // A header can carry printable ASCII only; the query parameter always has the value.
    if (/^[\x20-\x7e]*$/.test(v)) ctx.set(k, v);
  }
  ctx.status = 302;
  ctx.set('Location', url.href);
  ctx.body = '';
  if (values.errorCode) ctx.state.errorCode = values.errorCode;
}

function dependencyTrouble(rt: IdentityRuntime, ctx: Koa.Context, err: unknown): void {
  // A parameter that is not text (parseParams, formPairs): the request's fault.
  if (err instanceof OAuthError) return refuseHere(ctx, err.error, err.description);
  if (err instanceof NotText) return refuseHere(ctx, 'invalid_request', `Parameter ${err.field} is not valid text.`);
  if (!isDependencyFailure(err)) {
    (ctx.state.logger ?? rt.logger).error({ err }, 'unhandled error in the inbound flow');
    return refuseHere(ctx, 'server_error', 'An internal error occurred.', 500);
  }
  (ctx.state.logger ?? rt.logger).error({ err: { message: (err as Error).message } }, 'database unavailable in the inbound flow');
  refuseHere(ctx, 'temporarily_unavailable', 'The service is temporarily unavailable. Try again later.', 503);
}

export function authorizationEndpoint(rt: IdentityRuntime): Koa.Middleware {
  return async (ctx) => {
    noStore(ctx);
    ctx.state.operation = 'authorize';
    try {
      const { params, duplicates } = parseParams(ctx.querystring);
      const clientId = params.get('client_id');
      const redirectUri = params.get('redirect_uri');
      if (duplicates.includes('client_id') || duplicates.includes('redirect_uri')) {
        return refuseHere(ctx, 'invalid_request', 'client_id and redirect_uri must be given once.');
      }
      await rt.ready();
      const em = rt.orm.em.fork();
      const client = clientId ? await findActiveClient(em, clientId) : null;
      if (!client) return refuseHere(ctx, 'invalid_request', 'client_id is missing or unknown.');
      // RFC 6749 4.1.2.1: never redirect to a URI that is not registered for the client.
      if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
        return refuseHere(ctx, 'invalid_request', 'redirect_uri is missing or not registered for this client.');
      }
      const rawState = params.get('state') ?? null;
      const state = rawState && charLength(rawState) <= 1024 ? rawState : null;
      const refuse = (errorCode: string, errorMsg: string) => redirectBack(ctx, redirectUri, state, { errorCode, errorMsg });
      if (duplicates.length) return refuse('invalid_request', `Parameter ${duplicates[0]} is repeated.`);
      if (rawState && !state) return refuse('invalid_request', 'state must be at most 1024 characters.');
      if (params.get('response_type') !== 'code') return refuse('unsupported_response_type', 'response_type must be code.');
      if (!client.grantTypes.includes('authorization_code'))
        return refuse('unauthorized_client', 'The client may not use inbound federation.');
      const challenge = params.get('code_challenge') ?? null;
      const method = params.get('code_challenge_method');
      if (challenge && (method !== 'S256' || !S256_CHALLENGE.test(challenge))) {
        return refuse('invalid_request', 'code_challenge must be an S256 challenge with code_challenge_method=S256.');
      }
      if (!challenge && method) return refuse('invalid_request', 'code_challenge_method needs a code_challenge.');
      const loginHint = params.get('login_hint') ?? null;
      if (loginHint && charLength(loginHint) > 255) return refuse('invalid_request', 'login_hint must be at most 255 characters.');
      try {
        const { location, browserSecret } = await rt.inbound.start(em, {
          client,
          redirectUri,
          clientState: state,
          codeChallenge: challenge,
          loginHint,
        });
        ctx.set('Set-Cookie', browserCookie(rt, browserSecret, 600));
        ctx.status = 302;
        ctx.set('Location', location);
        ctx.body = '';
      } catch (err) {
        if (err instanceof InboundRefusal) return refuse(err.errorCode, err.message);
        throw err;
      }
    } catch (err) {
      dependencyTrouble(rt, ctx, err);
    }
  };
}

export function callbackEndpoint(rt: IdentityRuntime): Koa.Middleware {
  return async (ctx) => {
    noStore(ctx);
    ctx.state.operation = 'authorizeCallback';
    try {
      const browserSecret = readCookie(ctx, BROWSER_COOKIE);
      const outcome = await rt.inbound.callback(rt.orm.em.fork(), new URLSearchParams(formPairs(ctx.querystring)), browserSecret);
      ctx.set('Set-Cookie', browserCookie(rt, '', 0));
      if (!outcome) {
        return refuseHere(ctx, 'invalid_request', 'This sign-in is unknown, expired or already finished. Start again from the app.');
      }
      if (outcome.result instanceof InboundRefusal) {
        return redirectBack(ctx, outcome.redirectUri, outcome.clientState, {
          errorCode: outcome.result.errorCode,
          errorMsg: outcome.result.message,
        });
      }
      redirectBack(ctx, outcome.redirectUri, outcome.clientState, { code: outcome.result.code });
    } catch (err) {
      dependencyTrouble(rt, ctx, err);
    }
  };
}
