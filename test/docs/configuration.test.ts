// The configuration table of docs/configuration.md is generated from the variable declarations
// of src/config.ts (npm run docs:config): when it is stale, this fails. And config.ts is the only
// reader of process.env, so the table names every setting the service reads.
import fs from 'node:fs';
import path from 'node:path';
import { withCurrentTable } from '../../scripts/config-docs';

const root = path.join(__dirname, '../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = path.join(dir, entry.name);
    return entry.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

it('when the variable declarations change, then docs/configuration.md has been regenerated (npm run docs:config)', () => {
  const doc = fs.readFileSync(path.join(root, 'docs/configuration.md'), 'utf8');
  expect(doc).toBe(withCurrentTable(doc));
});

it('nothing but src/config.ts reads process.env', () => {
  const readers = sources(path.join(root, 'src'))
    .filter((file) => /\bprocess\.env\b/.test(fs.readFileSync(file, 'utf8')))
    .map((file) => path.relative(root, file));
  expect(readers).toEqual(['src/config.ts']);
});
