// GET /graphiql: the schema explorer (GraphiQL, bundled at build time by scripts/build-explorer.ts)
// and its files under /graphiql/assets/. Nothing in the page comes from another origin, so it
// works on a network without the internet, where Apollo Sandbox (from Apollo's CDN) cannot load.
// The page and every asset carry a Content-Security-Policy of their own (a worker script's
// policy is the one its own response carries). Assets have content hashes in their names and
// are cached for a year; the page is revalidated, so a new build is picked up at once. Mounted
// only with GRAPHQL_EXPLORER (off by default in production, and only beside introspection: src/app.ts).
// The page's sign-in form posts to the token endpoint, which lies under AUTH_BASE_URL's path: the
// page is sent with that path in a meta element (the same origin: the service serves it too).
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type Router from '@koa/router';
import { ServiceError } from '../core/errors';
import { sendError } from '../rest/respond';
import { defaultExplorerDir, EXPLORER_ASSETS_DIR, EXPLORER_ASSETS_PATH, EXPLORER_PAGE_FILE, EXPLORER_PATH } from './bundle';

/**
 * Same origin only. Monaco (the editor) sets element styles at run time ('unsafe-inline' styles)
 * and GraphiQL's stylesheet embeds its fonts and icons as data: URLs.
 */
export const EXPLORER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The file types the build writes, by extension. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/** Precompressed copies the build writes beside a file (file.br, file.gz), by Content-Encoding. */
const ENCODINGS: Record<string, string> = { br: '.br', gzip: '.gz' };

/** A name the build gives an asset: letters, digits, dot, dash and underscore, no path. */
const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** The token endpoint's path on this origin, for an AUTH_BASE_URL (src/modules/identity/http/oauth-server.ts mounts it there). */
export function tokenPathOf(authBaseUrl: string | undefined): string {
  return `${authBaseUrl ? new URL(authBaseUrl).pathname.replace(/\/$/, '') : ''}/as/token.oauth2`;
}

const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export interface ExplorerOptions {
  /** Where the bundle is: dist/explorer by default. */
  dir?: string;
  /** The service's AUTH_BASE_URL, whose path the token endpoint is under; none: /as/token.oauth2. */
  authBaseUrl?: string;
}

const notBuilt = () => new ServiceError('WSNotFoundException', 'The schema explorer is not built: run npm run build.');

/** The size of a regular file, or null when there is none. */
function fileSize(file: string): Promise<number | null> {
  return fs.promises.stat(file).then(
    (s) => (s.isFile() ? s.size : null),
    () => null,
  );
}

/** Mounts GET /graphiql and GET /graphiql/assets/:name, serving the bundle in `dir` (dist/explorer by default). */
export function mountExplorer(router: Router, { dir = defaultExplorerDir(), authBaseUrl }: ExplorerOptions = {}): void {
  const page = path.join(dir, EXPLORER_PAGE_FILE);
  const meta = `<meta name="explorer-token-endpoint" content="${attribute(tokenPathOf(authBaseUrl))}" />`;
  const assets = path.join(dir, EXPLORER_ASSETS_DIR);

  router.get(EXPLORER_PATH, async (ctx) => {
    const html = await fs.promises.readFile(page, 'utf8').catch(() => null);
    if (!html) return sendError(ctx, notBuilt());
    ctx.set('Content-Security-Policy', EXPLORER_CSP);
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html.replace('</head>', `  ${meta}\n  </head>`);
  });

  router.get(`${EXPLORER_ASSETS_PATH}:name`, async (ctx, next) => {
    const name = ctx.params.name;
    const type = CONTENT_TYPES[path.extname(name)];
    const file = path.join(assets, name);
    if (!ASSET_NAME.test(name) || !type || (await fileSize(file)) === null) return next();
    const encoding = await pickEncoding(ctx, file);
    const sent = encoding ? file + ENCODINGS[encoding] : file;
    const size = await fileSize(sent);
    if (size === null) return next();
    ctx.set('Content-Security-Policy', EXPLORER_CSP);
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.vary('Accept-Encoding');
    if (encoding) ctx.set('Content-Encoding', encoding);
    ctx.type = type;
    ctx.body = fs.createReadStream(sent);
    ctx.length = size;
  });
}

/** The client's preferred encoding among the precompressed copies of `file` that exist, or null for the file itself. */
async function pickEncoding(ctx: Koa.Context, file: string): Promise<string | null> {
  const available: string[] = [];
  for (const [encoding, suffix] of Object.entries(ENCODINGS)) if ((await fileSize(file + suffix)) !== null) available.push(encoding);
  if (!available.length) return null;
  const chosen = ctx.acceptsEncodings([...available, 'identity']);
  return typeof chosen === 'string' && chosen !== 'identity' ? chosen : null;
}
