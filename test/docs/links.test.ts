// The documentation cites only pages that are in the repository: every relative markdown link of
// README.md and docs/ names a file that exists, and no file cites the design page that lives
// outside the repository (its rules are stated in docs/, which is what the code cites).
import fs from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '../..');
const OUTSIDE_PAGE = /DESIGN\.md/;

function filesUnder(dir: string, keep: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...filesUnder(rel, keep));
    else if (keep(rel)) found.push(rel);
  }
  return found;
}

const TEXT = /\.(ts|js|cjs|mjs|md|json|graphql|sql|sh|ya?ml)$/;
const markdownPages = () => ['README.md', ...filesUnder('docs', (f) => f.endsWith('.md'))];

/** Link targets of a markdown page, outside fenced code blocks and inline code. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1]);
}

const external = (target: string) => /^(https?:|mailto:|#)/.test(target);

function citing(files: string[]): string[] {
  return files.filter((file) => OUTSIDE_PAGE.test(fs.readFileSync(path.join(root, file), 'utf8')));
}

it('every relative link of README.md and docs/ points to a file of the repository', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const page of markdownPages()) {
    for (const target of linkTargets(fs.readFileSync(path.join(root, page), 'utf8'))) {
      if (external(target)) continue;
      checked++;
      const file = path.resolve(root, path.dirname(page), decodeURI(target.replace(/[#?].*$/, '')));
      const inside = file.startsWith(root + path.sep);
      if (!inside || !fs.existsSync(file) || !fs.statSync(file).isFile()) broken.push(`${page}: ${target}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(10); // the check found the links it is about
});

it('README.md, docs/, test/, bench/ and scripts/ cite no page from outside the repository', () => {
  const files = ['README.md', ...['docs', 'test', 'bench', 'scripts'].flatMap((dir) => filesUnder(dir, (f) => TEXT.test(f)))];
  expect(citing(files)).toEqual([]);
});

it('src/ cites no page from outside the repository', () => {
  expect(citing(filesUnder('src', (f) => TEXT.test(f)))).toEqual([]);
});
