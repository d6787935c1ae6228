// Writes the trusted documents manifest (every REST route's document and the explorers' examples)
// to dist/trusted-documents.json in Apollo's persisted query manifest shape: what a client sends
// by id, what Apollo Router's safelist or GraphOS reads. `npm run build` runs it after tsc; the
// server builds the same list in-process (src/graphql/trusted-manifest.ts).
//
//   node dist/scripts/trusted-manifest.js [--out <file>]
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { routeTable } from '../src/rest/routes';
import { MANIFEST_FILE, trustedManifest } from '../src/graphql/trusted-manifest';
import { packageRoot } from '../src/explorer/bundle';
import { MODULES } from '../src/modules';

const at = process.argv.indexOf('--out');
const file = at > 0 ? path.resolve(process.argv[at + 1]) : path.join(packageRoot(__dirname), MANIFEST_FILE);
const manifest = trustedManifest(routeTable(MODULES));
fs.mkdirSync(path.dirname(file), { recursive: true });
fs.writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n');
console.log(`Wrote ${path.relative(process.cwd(), file)} (${manifest.operations.length} operations)`);
