// The OAuth side of the service, outside /rest: the token endpoint, inbound federation,
// the JWKS and authorization server metadata under AUTH_BASE_URL's path, and in demo mode
// the development identity provider under /dev-idp. Errors here are OAuth bodies.
import Router from '@koa/router';
import type Koa from 'koa';
import { DEV_IDP_CLIENT, type Config } from '../../../config';
import type { IdentityRuntime } from '../identity.runtime';
import { createDevIdp, type DevIdp } from '../dev-idp';
import { DEMO_PASSWORD } from '../../../db/demo';
import { noStore, tokenEndpoint } from './token-endpoint';
import { authorizationEndpoint, callbackEndpoint } from './authorize';

export interface OAuthServer {
  middleware: Koa.Middleware;
}

/** Serves a mounted oidc-provider: its routes see paths without the mount prefix. */
function mountDevIdp(devIdp: DevIdp): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== devIdp.mountPath && !ctx.path.startsWith(`${devIdp.mountPath}/`)) return next();
    ctx.respond = false;
    ctx.state.operation = 'devIdp';
    const original = ctx.req.url ?? '/';
    // oidc-provider derives its mount path from originalUrl (as koa-mount and express set it).
    (ctx.req as { originalUrl?: string }).originalUrl = original;
    ctx.req.url = original.slice(devIdp.mountPath.length) || '/';
    await new Promise<void>((resolve) => {
      ctx.res.once('finish', resolve);
      ctx.res.once('close', resolve);
      devIdp.handler(ctx.req, ctx.res);
    });
    ctx.req.url = original;
  };
}

/** The OAuth endpoints over the app's identity runtime (started once, with the other services). */
export async function createOAuthServer(config: Config, runtime: IdentityRuntime): Promise<OAuthServer> {
  const prefix = new URL(config.authBaseUrl).pathname.replace(/\/$/, '');
  const router = new Router();

  router.post(`${prefix}/as/token.oauth2`, tokenEndpoint(runtime));
  router.all(`${prefix}/as/token.oauth2`, (ctx) => {
    noStore(ctx);
    ctx.status = 405;
    ctx.set('Allow', 'POST');
    ctx.body = { error: 'invalid_request', error_description: 'The token endpoint takes POST only.' };
  });
  router.get(`${prefix}/as/authorization.oauth2`, authorizationEndpoint(runtime));
  router.get(`${prefix}/as/callback`, callbackEndpoint(runtime));
  router.get(`${prefix}/.well-known/jwks.json`, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = runtime.signer.publicJwks;
  });
  router.get(`${prefix}/.well-known/oauth-authorization-server`, (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = {
      issuer: config.authBaseUrl,
      authorization_endpoint: `${config.authBaseUrl}/as/authorization.oauth2`,
      token_endpoint: `${config.authBaseUrl}/as/token.oauth2`,
      jwks_uri: `${config.authBaseUrl}/.well-known/jwks.json`,
      grant_types_supported: ['password', 'authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      scopes_supported: ['sso'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      code_challenge_methods_supported: ['S256'],
    };
  });

  let devIdp: DevIdp | null = null;
  if (config.auth.devIdp) {
    const provider = config.auth.inboundProviders.find((p) => p.id === 'dev-idp');
    devIdp = await createDevIdp({
      issuer: `${config.authBaseUrl}/dev-idp`,
      clients: [
        {
          ...DEV_IDP_CLIENT,
          ...(provider && { clientId: provider.clientId, clientSecret: provider.clientSecret }),
          redirectUris: [runtime.inbound.callbackUrl],
        },
      ],
      accounts: [
        { sub: 'dev-ian', email: 'ian@demo.example', password: DEMO_PASSWORD },
        // Known to the provider but not to the service: shows the "unknown user" answer.
        { sub: 'dev-nobody', email: 'nobody@demo.example', password: DEMO_PASSWORD },
      ],
    });
  }
  // The router's middleware sets ctx.params and ctx.router itself: any koa context will do.
  const routes = router.routes() as Koa.Middleware;
  const devIdpMiddleware = devIdp ? mountDevIdp(devIdp) : null;

  return {
    middleware: async (ctx, next) => {
      // Every endpoint (and the demo provider) is under the prefix: other requests skip matching.
      if (prefix && ctx.path !== prefix && !ctx.path.startsWith(`${prefix}/`)) return next();
      if (devIdpMiddleware) return devIdpMiddleware(ctx, () => routes(ctx, next));
      return routes(ctx, next);
    },
  };
}
