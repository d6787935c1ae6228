// Where the schema explorer's bundle lives: scripts/build-explorer.ts writes it (npm run build),
// the /graphiql route (route.ts) serves it. Both find it from the package root, so the service
// finds it whether it runs compiled from dist/ or from its TypeScript sources under jest.
import fs from 'node:fs';
import path from 'node:path';

/** The page's path; its files are served under `${EXPLORER_PATH}/assets/`. */
export const EXPLORER_PATH = '/graphiql';
export const EXPLORER_ASSETS_PATH = `${EXPLORER_PATH}/assets/`;

/** The page the build writes into the bundle directory, beside its assets/ folder. */
export const EXPLORER_PAGE_FILE = 'index.html';
export const EXPLORER_ASSETS_DIR = 'assets';

/** The nearest folder at or above `from` that holds package.json: the package root. */
export function packageRoot(from: string = __dirname): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json at or above ${from}`);
  }
}

/** dist/explorer under the package root: where `npm run build` puts the bundle. */
export function defaultExplorerDir(): string {
  return path.join(packageRoot(), 'dist', 'explorer');
}
