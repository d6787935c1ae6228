// /openapi.json as OpenAPI generators read it: Spectral's spectral:oas, with the repository's
// .spectral.yaml (the ruleset `npm run lint:openapi` runs beside Redocly's), finds nothing in the
// document the running service serves. Generators group methods by tag and document them from the
// summary and description, so each operation has one tag of the document's areas and a
// description that says more than its summary.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { useTestApp } from '../kit';

const t = useTestApp();
const root = path.join(__dirname, '../..');
const SPECTRAL = require.resolve('@stoplight/spectral-cli/dist/index.js');

interface Finding {
  code: string;
  path: string[];
  severity: number;
}

let dir: string;
let doc: any;

beforeAll(async () => {
  doc = await (await fetch(`${t.baseUrl}/openapi.json`)).json();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-spectral-'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Spectral's CLI on the document with the repository's ruleset: every finding, whatever its severity. */
async function spectral(document: unknown, name: string): Promise<Finding[]> {
  const file = path.join(dir, `${name}.json`);
  const results = path.join(dir, `${name}.results.json`);
  fs.writeFileSync(file, JSON.stringify(document, null, 2));
  const args = [SPECTRAL, 'lint', file, '--ruleset', path.join(root, '.spectral.yaml'), '--format', 'json', '--output', results, '--quiet'];
  try {
    await promisify(execFile)(process.execPath, args, { cwd: dir });
  } catch (err) {
    // Exit status 1 is findings at error severity: they are in the results file. Anything else is a failure to lint.
    if ((err as { code?: number }).code !== 1 || !fs.existsSync(results)) throw err;
  }
  return (JSON.parse(fs.readFileSync(results, 'utf8')) as Finding[]).map(({ code, path: at, severity }) => ({ code, path: at, severity }));
}

const operations = () =>
  Object.entries<any>(doc.paths).flatMap(([p, item]) =>
    Object.entries<any>(item)
      .filter(([method]) => method !== 'servers')
      .map(([method, op]) => ({ key: `${method.toUpperCase()} ${p}`, op })),
  );

it('when Spectral lints /openapi.json with spectral:oas and .spectral.yaml, then it finds nothing: no error, no warning, no hint', async () => {
  expect(await spectral(doc, 'served')).toEqual([]);
}, 60000);

it('when the document lacks a contact, an operation its description and a defined tag, then the same lint names each (it reads the ruleset)', async () => {
  const broken = structuredClone(doc);
  delete broken.info.contact;
  delete broken.paths['/rest/user/login'].post.description;
  broken.paths['/rest/refdata/titles'].get.tags = ['Titles'];
  const findings = await spectral(broken, 'broken');
  expect(findings.sort((a, b) => a.code.localeCompare(b.code))).toEqual([
    { code: 'info-contact', path: ['info'], severity: 1 },
    { code: 'operation-description', path: ['paths', '/rest/user/login', 'post'], severity: 1 },
    { code: 'operation-tag-defined', path: ['paths', '/rest/refdata/titles', 'get', 'tags', '0'], severity: 1 },
  ]);
}, 60000);

it('each operation carries one tag of the areas, each area is described and used, in the order of the specification', () => {
  expect(doc.tags.map((tag: any) => tag.name)).toEqual([
    'Identity',
    'User profile',
    'Smart directory',
    'Smart library',
    'Discovery',
    'Connections',
    'Company administration',
    'Notifications',
    'Events',
    'Reference data',
  ]);
  for (const tag of doc.tags) expect(tag.description).toMatch(/^[A-Z"'].{40,}\.$/);
  const byTag = new Map<string, string[]>();
  for (const { key, op } of operations()) {
    expect([key, op.tags.length]).toEqual([key, 1]);
    byTag.set(op.tags[0], [...(byTag.get(op.tags[0]) ?? []), key]);
  }
  expect([...byTag.keys()].sort()).toEqual(doc.tags.map((tag: any) => tag.name).sort());
  // A route names its own area over its module's: the user module's reference lists are reference data.
  expect(byTag.get('Reference data')).toEqual(expect.arrayContaining(['GET /rest/refdata/titles', 'GET /rest/refdata/genders']));
  expect(byTag.get('Identity')).toEqual(expect.arrayContaining(['POST /as/token.oauth2', 'POST /rest/user/login']));
});

it('each operation says what it does and then what its REST answer adds: its description goes beyond its summary', () => {
  for (const { key, op } of operations()) {
    const more = op.description.startsWith(op.summary) ? op.description.slice(op.summary.length) : op.description;
    expect([key, more.trim().length > 20]).toEqual([key, true]);
  }
  expect(doc.paths['/rest/refdata/countries'].get.description).toBe(
    'ISO 3166-1 countries with English names.\n\nEvery ISO 3166-1 alpha-2 code, sorted by English name: the country codes profiles and addresses carry.',
  );
  expect(doc.info.contact).toEqual({ name: 'Operator of this service', url: doc.servers[0].url });
});
