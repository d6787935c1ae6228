// The schema explorer at /graphiql (issue "The graph", item 5): the page and its assets as the
// service serves them from the bundle npm run build wrote (dist/explorer; npm test builds first),
// the page's fetcher running operations against /graphql, its sign-in (session.ts) against the
// identity endpoints, and the /graphql landing page: Apollo Sandbox pinned to one build, linking
// to /graphiql for when Sandbox cannot load. The page itself, in a browser with the network
// closed, is test/browser/graphiql.browser.ts (npm run test:browser).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import { useTestApp, DEMO, OLIVIA } from '../kit';
import { readReply } from '../kit/http';
import { defaultExplorerDir } from '../../src/explorer/bundle';
import { EXPLORER_CSP, mountExplorer, type ExplorerOptions } from '../../src/explorer/route';
import { addExplorerLink, EXPLORER_LINK_HTML } from '../../src/explorer/landing-page';
import { createFetcher, INITIAL_HEADERS } from '../../src/explorer/page/fetcher';
import { authTokenOf, SessionError, signIn, signOut, withAuthToken } from '../../src/explorer/page/session';
import { HOME_SCREEN_QUERY } from '../../src/graphql/examples';
import { SANDBOX_VERSION, sandboxLandingPage } from '../../src/graphql/sandbox';
import { ROUTES } from '../kit/routes';

const t = useTestApp();
const olivia = t.as(OLIVIA);

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The src and href attributes of an HTML page. */
const attributes = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);

/** The explorer alone, mounted with `options` on a server of its own: its base URL and a stop function. */
async function serveExplorer(options: ExplorerOptions): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const koa = new Koa();
  const router = new Router();
  mountExplorer(router, options);
  koa.use(router.routes());
  const handler = koa.callback();
  const server = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

beforeAll(() => {
  if (!fs.existsSync(path.join(defaultExplorerDir(), 'index.html'))) {
    throw new Error(`${defaultExplorerDir()} holds no explorer: run npm run build`);
  }
});

describe('GET /graphiql', () => {
  it('answers the page, with its own strict Content-Security-Policy and no URL of another origin', async () => {
    const res = await t.rest('GET', '/graphiql');
    expect({ status: res.status, type: res.headers.get('content-type'), cache: res.headers.get('cache-control') }).toEqual({
      status: 200,
      type: 'text/html; charset=utf-8',
      cache: 'no-cache',
    });
    expect(res.headers.get('content-security-policy')).toBe(EXPLORER_CSP);
    expect(EXPLORER_CSP).toContain("default-src 'none'");
    expect(EXPLORER_CSP).toContain("script-src 'self';");
    expect(EXPLORER_CSP).toContain("connect-src 'self';");
    expect(res.text).not.toMatch(/https?:/i);
    const links = attributes(res.text);
    expect(links.filter((url) => !url.startsWith('/graphiql/assets/') && url !== 'data:,')).toEqual([]);
    expect(links).toEqual(expect.arrayContaining([expect.stringMatching(/^\/graphiql\/assets\/main-[A-Z0-9]+\.js$/)]));
    expect(links).toEqual(expect.arrayContaining([expect.stringMatching(/^\/graphiql\/assets\/main-[A-Z0-9]+\.css$/)]));
    // The sign-in form's token endpoint, on this origin (AUTH_BASE_URL without a path).
    expect(res.text).toContain('<meta name="explorer-token-endpoint" content="/as/token.oauth2" />\n  </head>');
  });

  it("names the token endpoint under AUTH_BASE_URL's path, escaped", async () => {
    const served = await serveExplorer({ authBaseUrl: 'https://auth.example/sso/"a&b/' });
    try {
      const res = await readReply(await fetch(`${served.baseUrl}/graphiql`));
      expect(res.status).toBe(200);
      expect(res.text).toContain('<meta name="explorer-token-endpoint" content="/sso/%22a&amp;b/as/token.oauth2" />');
    } finally {
      await served.stop();
    }
  });

  it('serves every file the page loads (its assets, the chunks they import, the Monaco workers) with content types, CSP and a year of caching', async () => {
    const page = await t.rest('GET', '/graphiql');
    const queue = attributes(page.text).filter((url) => url.startsWith('/graphiql/assets/'));
    const seen = new Set<string>();
    while (queue.length) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const res = await t.rest('GET', url);
      expect({
        url,
        status: res.status,
        type: res.headers.get('content-type'),
        csp: res.headers.get('content-security-policy'),
        cache: res.headers.get('cache-control'),
      }).toEqual({
        url,
        status: 200,
        type: url.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
        csp: EXPLORER_CSP,
        cache: IMMUTABLE,
      });
      if (!url.endsWith('.js')) continue;
      // Chunks are imported relative to the importing file; workers and fonts are named by absolute path.
      for (const m of res.text.matchAll(/["'](\.\/chunk-[A-Z0-9]+\.js|\/graphiql\/assets\/[\w.-]+\.js)["']/g)) {
        queue.push(m[1].startsWith('./') ? `/graphiql/assets/${m[1].slice(2)}` : m[1]);
      }
    }
    const names = [...seen].map((url) => url.replace(/^\/graphiql\/assets\//, '').replace(/-[A-Z0-9]+\.(js|css)$/, '.$1'));
    expect(names).toEqual(
      expect.arrayContaining(['main.js', 'main.css', 'editor.worker.js', 'json.worker.js', 'graphql.worker.js', 'chunk.js']),
    );
    // And that is the whole bundle: the build wrote nothing the page does not load.
    const built = fs.readdirSync(path.join(defaultExplorerDir(), 'assets')).filter((f) => !/\.(br|gz)$/.test(f));
    expect([...seen].map((url) => url.replace(/^\/graphiql\/assets\//, '')).sort()).toEqual(built.sort());
  });

  it('sends the precompressed copy a client accepts, and the file itself to one that accepts none', async () => {
    const page = await t.rest('GET', '/graphiql');
    const url = attributes(page.text).find((u) => u.endsWith('.js'))!;
    const plain = await fetch(t.baseUrl + url, { headers: { 'accept-encoding': 'identity' } });
    const original = Buffer.from(await plain.arrayBuffer());
    expect({ encoding: plain.headers.get('content-encoding'), vary: plain.headers.get('vary') }).toEqual({
      encoding: null,
      vary: 'Accept-Encoding',
    });
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(t.baseUrl + url, { headers: { 'accept-encoding': encoding } });
      expect({ encoding: res.headers.get('content-encoding'), same: Buffer.from(await res.arrayBuffer()).equals(original) }).toEqual({
        encoding,
        same: true,
      });
    }
  });

  it('answers an asset that is not in the bundle, or a path out of it, with the JSON 404', async () => {
    for (const url of ['/graphiql/assets/main-NOTBUILT.js', '/graphiql/assets/..%2F..%2Fpackage.json', '/graphiql/assets/index.html']) {
      const res = await t.rest('GET', url);
      expect({ url, status: res.status, errorCode: res.body.errorCode }).toEqual({ url, status: 404, errorCode: 'WSNotFoundException' });
    }
  });
});

describe('without a built bundle', () => {
  it('/graphiql says to run npm run build', async () => {
    const served = await serveExplorer({ dir: path.join(os.tmpdir(), 'pronet-explorer-never-built') });
    const res = await readReply(await fetch(`${served.baseUrl}/graphiql`)).finally(served.stop);
    expect({ status: res.status, body: res.body }).toEqual({
      status: 404,
      body: { errorCode: 'WSNotFoundException', message: 'The schema explorer is not built: run npm run build.' },
    });
  });
});

describe("the page's fetcher", () => {
  const fetcher = () => createFetcher(`${t.baseUrl}/graphql`);

  it('runs a query with the header editor headers, past the CSRF prevention', async () => {
    const anonymous = await fetcher()({ query: '{ userProfile { uFirstName } }' }, { headers: JSON.parse(INITIAL_HEADERS) });
    expect((anonymous.errors as any[])[0].extensions.errorCode).toBe('WSInvalidAuthTokenException');
    const headers = { 'x-service-authtoken': await olivia.token() };
    expect(await fetcher()({ query: '{ userProfile { uFirstName } }' }, { headers })).toEqual({
      data: { userProfile: { uFirstName: 'Olivia' } },
    });
  });

  it('runs a mutation, naming the operation and passing its variables', async () => {
    const headers = { 'x-service-authtoken': await olivia.token() };
    const result = await fetcher()(
      {
        query: `query other { __typename } mutation interests($i: String) { updateUserProfile(input: { uId: ${OLIVIA}, uInterests: $i }) { updatedFieldCount } }`,
        operationName: 'interests',
        variables: { i: 'Explorers without the internet' },
      },
      { headers },
    );
    expect(result).toEqual({ data: { updateUserProfile: { updatedFieldCount: 1 } } });
    expect(await t.row('app_user', { u_id: OLIVIA })).toMatchObject({ interests: 'Explorers without the internet' });
  });

  it("describes an answer that is not JSON (a proxy's error page) instead of failing", async () => {
    const proxy = async () =>
      new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } });
    const result = await createFetcher(`${t.baseUrl}/graphql`, proxy)({ query: '{ __typename }' });
    expect(result).toEqual({
      errors: [{ message: 'The service answered 502 Bad Gateway without a GraphQL response.', body: '<h1>Bad gateway</h1>' }],
    });
  });
});

/** fetch, recording the path of each request in `paths` (and sending it to `rewrite(url)`). */
function recordingFetch(paths: string[], rewrite = (url: string) => url): typeof fetch {
  return ((url: string, init?: RequestInit) => {
    paths.push(new URL(url).pathname);
    return fetch(rewrite(url), init);
  }) as typeof fetch;
}

describe("the page's sign-in", () => {
  /** The page's origin: the service's. */
  const options = () => ({ origin: t.baseUrl });
  const fetcher = () => createFetcher(`${t.baseUrl}/graphql`);
  const profile = '{ userProfile { uFirstName } }';

  it('when Olivia signs in with her password, then her token runs her operations until she signs out, which revokes it', async () => {
    const session = await signIn('olivia@demo.example', DEMO.password, options());
    expect(session).toEqual({
      email: 'olivia@demo.example',
      userId: OLIVIA,
      authToken: expect.stringMatching(/^[A-Za-z0-9_-]{40,}$/),
    });
    const headers = JSON.parse(withAuthToken(INITIAL_HEADERS, session.authToken)!);
    expect(await fetcher()({ query: profile }, { headers })).toEqual({ data: { userProfile: { uFirstName: 'Olivia' } } });

    await signOut(session.authToken, options());
    const after = await fetcher()({ query: profile }, { headers });
    expect((after.errors as any[]).map((e) => e.extensions.errorCode)).toEqual(['WSInvalidAuthTokenException']);
    // The token is revoked already: signing out again is no error.
    await expect(signOut(session.authToken, options())).resolves.toBeUndefined();
  });

  it("when the password is wrong, then sign-in fails with the token endpoint's invalid_grant, as the form shows it", async () => {
    const err = await signIn('olivia@demo.example', 'Not-Her-Passw0rd!', options()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SessionError);
    expect((err as SessionError).text).toBe('invalid_grant: The username or password is incorrect.');
  });

  it("when the e-mail address is not one, then sign-in fails with the login scheme's WSInvalidParameterException", async () => {
    const err = await signIn('olivia', DEMO.password, options()).catch((e: unknown) => e);
    expect({ code: (err as SessionError).code, message: (err as SessionError).message }).toEqual({
      code: 'WSInvalidParameterException',
      message: 'email must be an e-mail address.',
    });
  });

  it('when the user signs in at an identity provider, then the form says so and the password goes nowhere', async () => {
    const paths: string[] = [];
    const err = await signIn('ian@demo.example', DEMO.password, { origin: t.baseUrl, fetchFn: recordingFetch(paths) }).catch(
      (e: unknown) => e,
    );
    expect({ code: (err as SessionError).code, text: (err as SessionError).text }).toEqual({
      code: null,
      text:
        "ian@demo.example signs in at their organisation's identity provider, which returns to the app, not to the explorer: " +
        'sign in from the app and paste its authToken into the x-service-authtoken header.',
    });
    expect(paths).toEqual(['/rest/user/login-scheme']);
  });

  it('when the token endpoint is elsewhere (AUTH_BASE_URL with a path), then sign-in posts there', async () => {
    const paths: string[] = [];
    // The service here has its token endpoint at /as/token.oauth2: what the page sends to /sso/as/token.oauth2 goes there.
    const recording = recordingFetch(paths, (url) => url.replace('/sso/as/', '/as/'));
    const session = await signIn('olivia@demo.example', DEMO.password, {
      origin: t.baseUrl,
      tokenPath: '/sso/as/token.oauth2',
      fetchFn: recording,
    });
    expect(paths).toEqual(['/rest/user/login-scheme', '/sso/as/token.oauth2', '/rest/user/login']);
    await signOut(session.authToken, options());
  });

  it("describes an answer that is not the service's (a proxy's error page)", async () => {
    const proxy = async () =>
      new Response('<h1>Bad gateway</h1>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } });
    const err = await signIn('olivia@demo.example', DEMO.password, { origin: t.baseUrl, fetchFn: proxy }).catch((e: unknown) => e);
    expect((err as SessionError).text).toBe('The service answered 502 Bad Gateway to /rest/user/login-scheme.');
  });

  it("puts the token into the header editor's JSON, keeping the other headers, and reads it back", () => {
    expect(withAuthToken(INITIAL_HEADERS, 'abc')).toBe('{"x-service-authtoken": "abc"}');
    expect(withAuthToken('', 'abc')).toBe('{"x-service-authtoken": "abc"}');
    expect(withAuthToken('{"x-api-key": "k", "X-Service-AuthToken": "old", "n": 1}', 'new')).toBe(
      '{"x-api-key": "k", "x-service-authtoken": "new", "n": 1}',
    );
    expect(withAuthToken('{"x-service-authtoken": "abc", "x-request-id": "r"}', '')).toBe(
      '{"x-service-authtoken": "", "x-request-id": "r"}',
    );
    expect([withAuthToken('{"x-service-authtoken": ', 'abc'), withAuthToken('["a"]', 'abc'), withAuthToken('null', 'abc')]).toEqual([
      null,
      null,
      null,
    ]);
    expect([
      authTokenOf('{"X-Service-AuthToken": "a"}'),
      authTokenOf(INITIAL_HEADERS),
      authTokenOf('{}'),
      authTokenOf('{"x-service-authtoken": 1}'),
      authTokenOf('{'),
    ]).toEqual(['a', '', null, null, null]);
  });
});

describe('Apollo Sandbox', () => {
  /** The HTML a landing page plugin renders. */
  async function render(plugin: ReturnType<typeof sandboxLandingPage>): Promise<string> {
    const listener = await plugin.serverWillStart!({} as Parameters<NonNullable<typeof plugin.serverWillStart>>[0]);
    const { html } = await listener!.renderLandingPage!();
    return typeof html === 'string' ? html : html();
  }
  const SCRIPT = `<script nonce="NONCE" src="https://embeddable-sandbox.cdn.apollographql.com/${SANDBOX_VERSION}/embeddable-sandbox.umd.production.min.js?runtime=`;
  const unNonced = (html: string) => html.replace(/nonce="?[0-9a-f]{64}"?/g, 'nonce="NONCE"');

  it('is pinned: /graphql loads the Sandbox build SANDBOX_VERSION names, and nothing from _latest or a moving v2', async () => {
    const res = await t.rest('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(unNonced(res.text)).toContain(SCRIPT);
    expect(res.text).not.toContain('_latest');
    expect(res.text).not.toMatch(/cdn\.apollographql\.com\/v\d/);
  });

  it('sandboxLandingPage renders that page, with or without the link to /graphiql', async () => {
    const pages = [
      await render(sandboxLandingPage(ROUTES, { explorerLink: true })),
      await render(sandboxLandingPage(ROUTES, { explorerLink: false })),
    ];
    expect(
      pages.map((html) => ({
        pinned: unNonced(html).includes(SCRIPT),
        latest: html.includes('_latest'),
        link: html.includes(EXPLORER_LINK_HTML),
      })),
    ).toEqual([
      { pinned: true, latest: false, link: true },
      { pinned: true, latest: false, link: false },
    ]);
    expect(SANDBOX_VERSION).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('the /graphql landing page', () => {
  it('keeps Apollo Sandbox, opens with the home-screen query, and links to /graphiql in its offline fallback', async () => {
    const res = await t.rest('GET', '/graphql', { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('embeddable-sandbox');
    expect(res.text).toContain('<a href="/graphiql">/graphiql</a>');
    // Inside the fallback Apollo shows when Sandbox cannot load, with the style that lets it be clicked under the page's nonce.
    const fallback = res.text.slice(res.text.indexOf('<div class="fallback">'), res.text.indexOf('<div id="embeddableSandbox">'));
    expect(fallback).toContain(EXPLORER_LINK_HTML);
    const nonce = /<style nonce=([0-9a-f]+)>/.exec(res.text)![1];
    expect(fallback).toContain(`<style nonce="${nonce}">`);
    // The example document opens with the home-screen query (JSON-encoded in the page's configuration).
    const document = JSON.parse(`"${/"document":"((?:[^"\\]|\\.)*)"/.exec(res.text)![1]}"`);
    expect(document.indexOf('query homeScreen')).toBeLessThan(document.indexOf('query getAllTimezones'));
    expect(document).toContain(HOME_SCREEN_QUERY.trim());
  });

  it('puts the link at the end of a page without the fallback it expects', () => {
    expect(addExplorerLink('<html><body><p>Landing</p></body></html>')).toBe(
      `<html><body><p>Landing</p>${EXPLORER_LINK_HTML}</body></html>`,
    );
  });
});
