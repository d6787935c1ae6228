// Every environment variable the code reads is documented, identically in README.md and
// docs/configuration.md.
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');

function table(file: string): string {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  const start = text.indexOf('| variable | default | meaning |');
  const end = text.indexOf('\n\n', start);
  return text.slice(start, end);
}

function readVariables(dir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) readVariables(p).forEach((v) => found.add(v));
    else if (p.endsWith('.ts')) for (const m of fs.readFileSync(p, 'utf8').matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) found.add(m[1]);
  }
  return found;
}

it('README and docs/configuration.md carry the same configuration table, naming every variable read', () => {
  const readme = table('README.md');
  expect(table('docs/configuration.md')).toBe(readme);
  const documented = new Set([...readme.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]));
  const missing = [...readVariables(path.join(root, 'src'))].filter((v) => !documented.has(v));
  expect(missing).toEqual([]);
});
