// The identity tests' tools: token endpoint calls, a browser with a cookie jar that does not
// follow redirects by itself, and a real OpenID provider (oidc-provider, through the service's
// own dev-idp factory) on a loopback port. OAuth clients are made by createClient (factories.ts).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, jwtVerify, type JWTPayload, type JWTVerifyResult } from 'jose';
import { createDevIdp, DEMO_LOGIN_CLIENT, type DevAccount } from './src';
import { DEMO } from './demo';
import { suffix } from './factories';
import { readReply, type Reply } from './http';
import type { TestApp } from './app';

/** The demo tenant's login client (the service's own configuration). */
export const DEMO_CLIENT = {
  clientId: DEMO_LOGIN_CLIENT.clientId,
  secret: DEMO_LOGIN_CLIENT.clientSecret,
  redirectUri: DEMO_LOGIN_CLIENT.redirectUri,
};

/** POST to the token endpoint. Every answer of the token endpoint must forbid caching: checked here, for every call. */
export async function tokenRequest(
  t: TestApp,
  params: Record<string, string> | string,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const body = typeof params === 'string' ? params : new URLSearchParams(params).toString();
  const res = await readReply(
    await fetch(`${t.baseUrl}/as/token.oauth2`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    }),
  );
  expect({ cacheControl: res.headers.get('cache-control'), pragma: res.headers.get('pragma') }).toEqual({
    cacheControl: 'no-store',
    pragma: 'no-cache',
  });
  return res;
}

export function basic(clientId: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(clientId)}:${enc(secret)}`).toString('base64')}`;
}

export function passwordParams(
  username: string,
  password: string = DEMO.password,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    grant_type: 'password',
    scope: 'sso',
    client_id: DEMO_CLIENT.clientId,
    client_secret: DEMO_CLIENT.secret,
    username,
    password,
    ...extra,
  };
}

/** Verifies a JWT the way a partner would: with the keys published at /.well-known/jwks.json. */
export async function verifyWithJwks(
  t: TestApp,
  token: string,
  options: { audience: string; typ?: string },
): Promise<JWTVerifyResult<JWTPayload>> {
  const jwks = (await (await fetch(`${t.baseUrl}/.well-known/jwks.json`)).json()) as any;
  return jwtVerify(token, createLocalJWKSet(jwks), {
    issuer: t.config.authBaseUrl,
    audience: options.audience,
    algorithms: ['ES256'],
    typ: options.typ,
  });
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = crypto.randomBytes(48).toString('base64url');
  return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
}

/** A browser: one cookie jar per origin, redirects followed one step at a time. */
export class Browser {
  private readonly jar = new Map<string, Map<string, { value: string; path: string }>>();

  /** Maps the service's configured public origin to where the test actually serves it. */
  constructor(private readonly aliases: Record<string, string> = {}) {}

  resolve(url: string): URL {
    for (const [from, to] of Object.entries(this.aliases)) if (url.startsWith(from)) return new URL(to + url.slice(from.length));
    return new URL(url);
  }

  cookieFor(url: string, name: string): string | undefined {
    return this.jar.get(this.resolve(url).origin)?.get(name)?.value;
  }

  setCookie(url: string, name: string, value: string, path = '/'): void {
    const origin = this.resolve(url).origin;
    if (!this.jar.has(origin)) this.jar.set(origin, new Map());
    this.jar.get(origin)!.set(name, { value, path });
  }

  async request(method: 'GET' | 'POST', rawUrl: string, form?: Record<string, string>): Promise<Reply & { url: URL }> {
    const url = this.resolve(rawUrl);
    const cookies = [...(this.jar.get(url.origin) ?? new Map()).entries()]
      .filter(([, c]) => url.pathname.startsWith(c.path))
      .map(([k, c]) => `${k}=${c.value}`)
      .join('; ');
    const headers: Record<string, string> = {};
    if (cookies) headers.cookie = cookies;
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, { method, headers, body: form ? new URLSearchParams(form).toString() : undefined, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const path = attrs.find((a) => /^path=/i.test(a))?.slice(5) || '/';
      const expired = attrs.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && new Date(a.slice(8)).getTime() < Date.now()));
      if (!this.jar.has(url.origin)) this.jar.set(url.origin, new Map());
      if (expired || value === '') this.jar.get(url.origin)!.delete(name);
      else this.jar.get(url.origin)!.set(name, { value, path });
    }
    return { ...(await readReply(res)), url };
  }

  /** Follows http(s) redirects; stops at a page, or at a redirect to the app's custom scheme. */
  async follow(method: 'GET' | 'POST', url: string, form?: Record<string, string>): Promise<Reply & { url: URL; location?: string }> {
    let res = await this.request(method, url, form);
    for (let i = 0; i < 15; i++) {
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return res;
      const next = new URL(location, res.url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') return { ...res, location: next.href };
      res = await this.request('GET', next.href);
    }
    throw new Error('too many redirects');
  }
}

/** The first form's action on an HTML page. */
export function formAction(html: string, base: URL): string {
  const m = /<form method="post" action="([^"]+)"/.exec(html);
  if (!m) throw new Error(`no form in ${html.slice(0, 300)}`);
  return new URL(
    m[1].replace(/&#(\d+);/g, (_x, n) => String.fromCharCode(Number(n))),
    base,
  ).href;
}

export function abortAction(html: string, base: URL): string {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)"/g)];
  return new URL(forms[1][1], base).href;
}

export interface Idp {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** A real OpenID provider on a loopback port; its client is the service's callback. */
export async function startIdp(accounts: DevAccount[], callbackUrl: string): Promise<Idp> {
  let handler: http.RequestListener = (_req, res) => res.end();
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = `pronet-${suffix()}`;
  const clientSecret = crypto.randomBytes(24).toString('base64url');
  const idp = await createDevIdp({ issuer, clients: [{ clientId, clientSecret, redirectUris: [callbackUrl] }], accounts });
  handler = idp.handler;
  return {
    issuer,
    clientId,
    clientSecret,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Every string in `secrets` that occurs in `haystack`. */
export function leaked(haystack: string, secrets: string[]): string[] {
  return secrets.filter((s) => s && haystack.includes(s));
}
