// The schema explorer at /graphiql (issue "The graph", item 5): the page and its assets as the
// service serves them from the bundle npm run build wrote (dist/explorer; npm test builds first),
// the page's fetcher running operations against /graphql, and the /graphql landing page's link to
// it for when Apollo Sandbox cannot load. The page itself, in a browser with the network closed,
// is test/browser/graphiql.browser.ts (npm run test:browser).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import Router from '@koa/router';
import { useTestApp, OLIVIA } from '../kit';
import { readReply } from '../kit/http';
import { defaultExplorerDir } from '../../src/explorer/bundle';
import { EXPLORER_CSP, mountExplorer } from '../../src/explorer/route';
import { addExplorerLink, EXPLORER_LINK_HTML } from '../../src/explorer/landing-page';
import { createFetcher, INITIAL_HEADERS } from '../../src/explorer/page/fetcher';
import { HOME_SCREEN_QUERY } from '../../src/graphql/examples';

const t = useTestApp();
const olivia = t.as(OLIVIA);

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The src and href attributes of an HTML page. */
const attributes = (html: string) => [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((m) => m[1]);

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
  let server: http.Server;
  let baseUrl: string;
  beforeAll(async () => {
    const koa = new Koa();
    const router = new Router();
    mountExplorer(router, path.join(os.tmpdir(), 'pronet-explorer-never-built'));
    koa.use(router.routes());
    const handler = koa.callback();
    server = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('/graphiql says to run npm run build', async () => {
    const res = await readReply(await fetch(`${baseUrl}/graphiql`));
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
    expect((anonymous.errors as any[])[0].extensions.code).toBe('WSInvalidAuthTokenException');
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
