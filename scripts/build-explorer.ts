// Builds the schema explorer served at /graphiql (src/explorer/route.ts): GraphiQL 5 with React
// and Monaco, bundled by esbuild from src/explorer/page/ into dist/explorer/ (npm run build runs
// this after tsc). Everything the page loads is in the bundle: no URL of another origin.
//
//   node dist/scripts/build-explorer.js [--out <dir>] [--force]     (default: dist/explorer)
//
// It type-checks the page (its own tsconfig.json: the DOM, no Node), bundles Monaco's three
// workers as files of their own (the GraphQL, JSON and base editor workers), then the page with
// the workers' URLs compiled in, writes index.html naming the page's script and stylesheet, and
// puts brotli and gzip copies beside the larger files. File names carry content hashes.
//
// A bundle made from the same inputs is kept (the 15-45 s of a build saved on every `npm start`):
// the last step writes a digest of the inputs beside index.html, with the project's files outside
// the page's folder that the page imports (src/graphql/examples.ts), and a later run whose inputs
// have the same digest, with the page's files all present, does nothing. --force builds anyway.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as esbuild from 'esbuild';
import ts from 'typescript';
import { EXPLORER_ASSETS_DIR, EXPLORER_ASSETS_PATH, EXPLORER_PAGE_FILE, packageRoot } from '../src/explorer/bundle';

const root = packageRoot(__dirname);
const pageDir = path.join(root, 'src/explorer/page');

/** Monaco's workers by the label it asks MonacoEnvironment.getWorker for (src/explorer/page/workers.ts). */
const WORKERS = {
  editor: 'monaco-editor/esm/vs/editor/editor.worker.js',
  json: 'monaco-editor/esm/vs/language/json/json.worker.js',
  graphql: 'monaco-graphql/esm/graphql.worker.js',
};

/** Files smaller than this are sent as they are. */
const COMPRESS_FROM_BYTES = 1024;
const COMPRESSIBLE = /\.(js|css|ttf|svg)$/;

/**
 * Monaco's modules import their own stylesheets, which GraphiQL's stylesheet (graphiql/style.css)
 * already holds; bundled, they would become CSS files of the lazily loaded chunks that nothing loads.
 * Each becomes an empty module.
 */
const monacoStylesheetsInGraphiql: esbuild.Plugin = {
  name: 'monaco-stylesheets-in-graphiql',
  setup(build) {
    build.onResolve({ filter: /\.css$/ }, (args) =>
      /[\\/]node_modules[\\/]monaco-editor[\\/]/.test(args.importer)
        ? { path: args.path, namespace: 'in-graphiql-css', sideEffects: false }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'in-graphiql-css' }, () => ({ contents: '', loader: 'js' }));
  },
};

const common: esbuild.BuildOptions = {
  absWorkingDir: root,
  bundle: true,
  minify: true,
  target: 'es2022',
  metafile: true,
  legalComments: 'eof',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

/** Beside index.html: the digest of the inputs the bundle was made from, then the imported files outside pageDir, a line each. */
const INPUTS_FILE = '.build-inputs';

/**
 * The digest of what the bundle is made from: the page's sources, the tsconfig.json it extends,
 * this script (compiled) with the paths it shares with the route, and the installed packages it
 * bundles or builds with (GraphiQL, React, Monaco, esbuild, TypeScript), by npm's record of the
 * installed tree, which every install rewrites.
 */
function inputsDigest(imported: readonly string[]): string {
  const pageFiles = fs
    .readdirSync(pageDir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(pageDir, f))
    .filter((f) => fs.statSync(f).isFile());
  const installed = [path.join(root, 'node_modules/.package-lock.json'), path.join(root, 'package-lock.json')].find((f) =>
    fs.existsSync(f),
  );
  const files = [
    ...pageFiles.sort(),
    ...imported.map((f) => path.join(root, f)),
    path.join(root, 'tsconfig.json'),
    __filename,
    require.resolve('../src/explorer/bundle'),
    installed,
  ];
  const hash = crypto.createHash('sha256');
  for (const file of files) {
    if (!file) continue;
    hash.update(`${path.relative(root, file)}\0`);
    // A file gone since the last build: the digest differs, so it builds again.
    hash.update(fs.existsSync(file) ? fs.readFileSync(file) : '\0gone');
  }
  return hash.digest('hex');
}

/** The project's own files outside pageDir that a build of the page read (by esbuild's record), relative to the root. */
function importedFiles(metafile: esbuild.Metafile): string[] {
  return Object.keys(metafile.inputs)
    .map((input) => path.resolve(root, input))
    .filter((file) => !file.split(path.sep).includes('node_modules') && !file.startsWith(pageDir + path.sep) && fs.existsSync(file))
    .map((file) => path.relative(root, file))
    .sort();
}

/** Whether outDir holds a whole bundle made from inputs whose digest is the one recorded there. */
function upToDate(outDir: string): boolean {
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null);
  const [digest, ...imported] = (read(path.join(outDir, INPUTS_FILE)) ?? '').split('\n').filter(Boolean);
  if (!digest || digest !== inputsDigest(imported)) return false;
  const html = read(path.join(outDir, EXPLORER_PAGE_FILE));
  if (html === null) return false;
  const named = [...html.matchAll(/"\/graphiql\/assets\/([^"]+)"/g)].map((m) => m[1]);
  return named.length > 0 && named.every((name) => fs.existsSync(path.join(outDir, EXPLORER_ASSETS_DIR, name)));
}

function outDirFromArgs(argv: string[]): string {
  const i = argv.indexOf('--out');
  if (i === -1) return path.join(root, 'dist/explorer');
  if (!argv[i + 1]) throw new Error('--out needs a directory');
  return path.resolve(argv[i + 1]);
}

function typeCheckPage(): void {
  const host: ts.ParseConfigFileHost = {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const config = ts.getParsedCommandLineOfConfigFile(path.join(pageDir, 'tsconfig.json'), {}, host)!;
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
  if (diagnostics.length) {
    const text = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => root,
      getNewLine: () => '\n',
    });
    throw new Error(`The explorer page does not type-check:\n${text}`);
  }
}

/** The output file of each entry point, by entry name, as URLs under /graphiql/assets/. */
function entryUrls(metafile: esbuild.Metafile, assetsDir: string): Map<string, { url: string; css?: string }> {
  const urls = new Map<string, { url: string; css?: string }>();
  const url = (output: string) => EXPLORER_ASSETS_PATH + path.relative(assetsDir, path.resolve(root, output)).split(path.sep).join('/');
  for (const [output, meta] of Object.entries(metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const name = path.basename(output).replace(/-[A-Z0-9]+\.js$/, '');
    urls.set(name, { url: url(output), css: meta.cssBundle ? url(meta.cssBundle) : undefined });
  }
  return urls;
}

function pageHtml(script: string, stylesheet: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="description" content="GraphQL schema explorer (GraphiQL), served by this service: no internet needed." />
    <title>GraphQL explorer</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${stylesheet}" />
    <script type="module" src="${script}"></script>
  </head>
  <body>
    <div id="graphiql">Loading the GraphQL explorer...</div>
    <noscript>The GraphQL explorer needs JavaScript.</noscript>
  </body>
</html>
`;
}

/**
 * Removes what nothing loads: esbuild still writes the chunk of a dynamic import whose call was
 * shaken out as dead code. Reached: the page's script and stylesheet, the workers, and every asset
 * a reached file names (`/graphiql/assets/<name>` or `./<name>`).
 */
function dropUnreached(assetsDir: string, roots: readonly (string | undefined)[]): void {
  const nameOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const reached = new Set<string>();
  const pending = roots.filter((r): r is string => Boolean(r)).map(nameOf);
  const reference = /(?:\/graphiql\/assets\/|\.\/)([A-Za-z0-9_-][A-Za-z0-9_.-]*\.(?:js|css|ttf|woff2?|svg|png))/g;
  while (pending.length) {
    const name = pending.pop()!;
    if (reached.has(name) || !fs.existsSync(path.join(assetsDir, name))) continue;
    reached.add(name);
    if (!/\.(js|css)$/.test(name)) continue;
    for (const m of fs.readFileSync(path.join(assetsDir, name), 'utf8').matchAll(reference)) pending.push(m[1]);
  }
  for (const name of fs.readdirSync(assetsDir)) if (!reached.has(name)) fs.rmSync(path.join(assetsDir, name));
}

function compress(assetsDir: string): number {
  let count = 0;
  for (const name of fs.readdirSync(assetsDir)) {
    const file = path.join(assetsDir, name);
    if (!COMPRESSIBLE.test(name) || fs.statSync(file).size < COMPRESS_FROM_BYTES) continue;
    const content = fs.readFileSync(file);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
    count++;
  }
  return count;
}

export async function buildExplorer(outDir: string, { force = false } = {}): Promise<void> {
  const started = Date.now();
  if (!force && upToDate(outDir)) {
    console.log(`Explorer: ${path.relative(process.cwd(), outDir) || '.'}/${EXPLORER_PAGE_FILE} is up to date`);
    return;
  }
  typeCheckPage();
  const assetsDir = path.join(outDir, EXPLORER_ASSETS_DIR);
  fs.rmSync(path.join(outDir, INPUTS_FILE), { force: true });
  fs.rmSync(assetsDir, { recursive: true, force: true });
  fs.rmSync(path.join(outDir, EXPLORER_PAGE_FILE), { force: true });

  // Classic (non-module) workers, each one self-contained file.
  const workers = await esbuild.build({
    ...common,
    entryPoints: Object.fromEntries(Object.entries(WORKERS).map(([label, entry]) => [`${label}.worker`, entry])),
    format: 'iife',
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
  });
  const workerUrls = entryUrls(workers.metafile!, assetsDir);
  const workerUrl = (label: string) => workerUrls.get(`${label}.worker`)!.url;

  const page = await esbuild.build({
    ...common,
    entryPoints: { main: path.join(pageDir, 'main.ts') },
    tsconfig: path.join(pageDir, 'tsconfig.json'),
    format: 'esm',
    splitting: true,
    outdir: assetsDir,
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    publicPath: EXPLORER_ASSETS_PATH,
    plugins: [monacoStylesheetsInGraphiql],
    loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file', '.svg': 'file', '.png': 'file' },
    define: {
      ...common.define,
      EXPLORER_WORKERS: JSON.stringify(Object.fromEntries(Object.keys(WORKERS).map((label) => [label, workerUrl(label)]))),
    },
  });
  const main = entryUrls(page.metafile!, assetsDir).get('main')!;
  if (!main.css) throw new Error('The explorer page has no stylesheet: GraphiQL needs graphiql/style.css.');
  fs.writeFileSync(path.join(outDir, EXPLORER_PAGE_FILE), pageHtml(main.url, main.css));
  dropUnreached(assetsDir, [main.url, main.css, ...[...workerUrls.values()].map((w) => w.url)]);
  const compressed = compress(assetsDir);
  // Last: a bundle cut short leaves no digest, so the next run builds again.
  const imported = importedFiles(page.metafile!);
  fs.writeFileSync(path.join(outDir, INPUTS_FILE), [inputsDigest(imported), ...imported, ''].join('\n'));

  const files = fs.readdirSync(assetsDir).filter((f) => !/\.(br|gz)$/.test(f));
  const bytes = files.reduce((sum, f) => sum + fs.statSync(path.join(assetsDir, f)).size, 0);
  console.log(
    `Explorer: ${path.relative(process.cwd(), outDir) || '.'}/${EXPLORER_PAGE_FILE} and ${files.length} assets ` +
      `(${(bytes / 1e6).toFixed(1)} MB, ${compressed} precompressed) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  buildExplorer(outDirFromArgs(argv), { force: argv.includes('--force') }).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
