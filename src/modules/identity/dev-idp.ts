// A development OpenID Connect provider built on oidc-provider (the reference implementation):
// mounted under /dev-idp in demo mode, and started on loopback by the tests, so the inbound
// flow runs against a real provider. Its login page checks e-mail and password against a
// fixed account list. Never mounted in production (config refuses DEV_IDP there).
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { KoaContextWithOIDC, Provider } from 'oidc-provider';
import type { Context } from 'koa';
import { exportJWK, generateKeyPair } from 'jose';

export interface DevAccount {
  sub: string;
  email: string;
  password: string;
  emailVerified?: boolean;
}

export interface DevIdpOptions {
  issuer: string;
  clients: { clientId: string; clientSecret: string; redirectUris: string[] }[];
  accounts: DevAccount[];
}

export interface DevIdp {
  provider: Provider;
  /** Node request handler; requests carry the full path (including the issuer's path). */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  mountPath: string;
}

const escape = (s: string | undefined) => (s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto}label,input,button{display:block;width:100%;margin:.4rem 0}.error{color:#b00}</style>
</head><body><h1>${escape(title)}</h1>${body}</body></html>`;
}

function loginForm(action: string, abort: string, login: string, error?: string): string {
  return page(
    'Development identity provider',
    `
<p>Sign in to continue. This provider exists in demo mode only.</p>
${error ? `<p class="error">${escape(error)}</p>` : ''}
<form method="post" action="${escape(action)}" autocomplete="off">
  <label>E-mail <input name="login" type="email" value="${escape(login)}" required autofocus></label>
  <label>Password <input name="password" type="password" required></label>
  <button type="submit">Sign in</button>
</form>
<form method="post" action="${escape(abort)}"><button type="submit">Cancel</button></form>`,
  );
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 16_384) throw new Error('form too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function createDevIdp(opts: DevIdpOptions): Promise<DevIdp> {
  const mountPath = new URL(opts.issuer).pathname.replace(/\/$/, '');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: crypto.randomUUID(), use: 'sig', alg: 'RS256' };

  // Loaded only when a dev IdP is started (demo mode, tests): oidc-provider weighs ~45 MB at import.
  const { Provider: OidcProvider } = require('oidc-provider') as typeof import('oidc-provider');
  // Sessions and codes in memory, forgotten on restart, are what a development provider wants. Left
  // to its default store, oidc-provider says so on stderr at every start ("a quick start
  // development-only in-memory adapter is used, you MUST change it"), which reads like a fault of
  // ours: given the same store by name (one per provider), it has nothing to warn about.
  const { createMemoryAdapter } = require('oidc-provider/lib/adapters/memory_adapter.js') as {
    createMemoryAdapter: () => NonNullable<ConstructorParameters<typeof OidcProvider>[1]>['adapter'];
  };
  const provider = new OidcProvider(opts.issuer, {
    adapter: createMemoryAdapter(),
    clients: opts.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    async findAccount(_ctx: unknown, sub: string) {
      const account = opts.accounts.find((a) => a.sub === sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: account.email, email_verified: account.emailVerified ?? true }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email'],
    jwks: { keys: [signingKey] },
    cookies: { keys: [crypto.randomBytes(32).toString('base64url')] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${mountPath}/interaction/${interaction.uid}` },
    // Our service is a first-party client: consent is implied, so a grant is made on the spot.
    async loadExistingGrant(ctx: KoaContextWithOIDC) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId });
      grant.addOIDCScope('openid email');
      await grant.save();
      return grant;
    },
    async renderError(ctx: Context, out: { error?: string; error_description?: string }) {
      ctx.type = 'html';
      ctx.body = page('Sign-in error', `<p>${escape(out.error)}: ${escape(out.error_description)}</p>`);
    },
  });

  // Login interaction pages, ahead of the provider's own routes (paths are relative to the mount).
  provider.use(async (ctx, next) => {
    const m = /^\/interaction\/([\w-]+)(\/login|\/abort)?$/.exec(ctx.path);
    if (!m) return next();
    const [, uid, action] = m;
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (details.uid !== uid) ctx.throw(400, 'interaction mismatch');
    const formAction = `${mountPath}/interaction/${uid}/login`;
    const abortAction = `${mountPath}/interaction/${uid}/abort`;
    const finish = async (result: Record<string, unknown>) => {
      const returnTo = await provider.interactionResult(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
      ctx.status = 303;
      ctx.redirect(returnTo);
    };
    if (ctx.method === 'GET' && !action) {
      ctx.type = 'html';
      ctx.set('Cache-Control', 'no-store');
      ctx.body = loginForm(formAction, abortAction, typeof details.params.login_hint === 'string' ? details.params.login_hint : '');
      return;
    }
    if (ctx.method !== 'POST') ctx.throw(405);
    if (action === '/abort') return finish({ error: 'access_denied', error_description: 'The user cancelled the sign-in.' });
    const form = await readForm(ctx.req);
    const login = (form.get('login') ?? '').trim().toLowerCase();
    const account = opts.accounts.find((a) => a.email.toLowerCase() === login);
    const given = Buffer.from(form.get('password') ?? '');
    const expected = Buffer.from(account?.password ?? '');
    if (!account || given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
      ctx.type = 'html';
      ctx.status = 200;
      ctx.body = loginForm(formAction, abortAction, login, 'The e-mail or password is incorrect.');
      return;
    }
    return finish({ login: { accountId: account.sub } });
  });

  const callback = provider.callback();
  return { provider, mountPath, handler: callback };
}
