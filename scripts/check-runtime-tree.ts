// npm run test:image (run by .ci/run): the Dockerfile's runtime stage without Docker, which these
// machines cannot run. It reads the runtime stage's lines and does what they say in a temporary
// folder standing for the image's WORKDIR: each COPY from the build context (this checkout) or from
// the build stage (this checkout after `npm run build`, as the build stage's /app), each `npm ci`
// of a RUN, each ENV. An instruction it does not know fails the check, so the Dockerfile cannot grow
// a step this check silently skips. System setup is the one thing left out (apt-get for tini, the
// .data folder; `npm cache clean` would empty this machine's shared npm cache).
//
// Then, with only those files, the production dependencies, the Dockerfile's ENV and the variables
// production requires (docs/deployment.md, "Production"; fresh keys), on a new database of the
// PostgreSQL server of DATABASE_URL, as an unprivileged user when run as root (the image's USER):
// it runs the production compose file's migration job, starts the CMD with MIGRATE_ON_START=false
// as the replicas do, asks the HEALTHCHECK, reads REST and GraphQL, and stops it with SIGTERM.
// Prints `ok`/`not ok` per check and a jest-style `Tests:` line that .ci/run counts.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { exportJWK, generateKeyPair } from 'jose';
import { Client } from 'pg';
import { generateVAPIDKeys } from 'web-push';
import { parse as parseYaml } from 'yaml';

/** The repository: dist/scripts/check-runtime-tree.js sits two folders down. */
const ROOT = path.resolve(__dirname, '../..');
const COMPOSE_FILE = 'deploy/compose/docker-compose.prod.yml';

export interface Instruction {
  op: string;
  args: string;
  /** 1-based line of the instruction's first line. */
  line: number;
}

/** The Dockerfile's instructions, continuation lines joined, comments and blank lines dropped. */
export function dockerInstructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: { text: string; line: number } | null = null;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (!pending && (line.trim() === '' || line.trimStart().startsWith('#'))) return;
    if (pending && line.trimStart().startsWith('#')) return;
    const continued = line.endsWith('\\');
    const part = continued ? line.slice(0, -1) : line;
    pending = pending ? { text: `${pending.text} ${part.trim()}`, line: pending.line } : { text: part.trim(), line: i + 1 };
    if (continued) return;
    const m = /^(\S+)\s*(.*)$/.exec(pending.text)!;
    out.push({ op: m[1].toUpperCase(), args: m[2].trim(), line: pending.line });
    pending = null;
  });
  return out;
}

/** The instructions of stage `name` (`FROM ... AS name`), FROM excluded. */
export function stageInstructions(all: Instruction[], name: string): Instruction[] {
  const start = all.findIndex((i) => i.op === 'FROM' && new RegExp(`\\s+AS\\s+${name}$`, 'i').test(i.args));
  if (start < 0) throw new Error(`The Dockerfile has no stage ${name}`);
  const end = all.findIndex((i, n) => n > start && i.op === 'FROM');
  return all.slice(start + 1, end < 0 ? undefined : end);
}

/** The exec form of CMD, ENTRYPOINT or HEALTHCHECK's CMD: a JSON array of strings. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args);
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string')) throw new Error(`not an exec form: ${args}`);
  return parsed;
}

/** `KEY=value KEY2="value two"` of an ENV instruction. */
export function envPairs(args: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const m of args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)/g)) {
    env[m[1]] = m[2].startsWith('"') ? (JSON.parse(m[2]) as string) : m[2];
  }
  return env;
}

/** HEALTHCHECK's options and command. */
export function healthcheck(args: string): { options: Record<string, string>; command: string[] } {
  const options: Record<string, string> = {};
  let rest = args;
  for (let m = /^--([a-z-]+)=(\S+)\s+/.exec(rest); m; m = /^--([a-z-]+)=(\S+)\s+/.exec(rest)) {
    options[m[1]] = m[2];
    rest = rest.slice(m[0].length);
  }
  if (!rest.startsWith('CMD ')) throw new Error(`HEALTHCHECK without an exec-form CMD: ${args}`);
  return { options, command: execForm(rest.slice(4).trim()) };
}

/** The runtime stage's tree and what running it takes. */
interface Tree {
  dir: string;
  env: Record<string, string>;
  cmd: string[];
  health: string[];
  skipped: string[];
}

/** COPY [--from=build] src... dest, relative to WORKDIR (the tree's folder). */
function copy(tree: Tree, args: string, workdir: string): void {
  const words = args.split(/\s+/);
  let fromBuild = false;
  while (words[0].startsWith('--')) {
    const flag = words.shift()!;
    if (flag === '--from=build') fromBuild = true;
    else throw new Error(`COPY ${flag} is not known to this check`);
  }
  const dest = words.pop()!;
  const target = path.join(tree.dir, path.relative(workdir, path.resolve(workdir, dest)));
  for (const src of words) {
    // The build stage's WORKDIR is /app: this checkout, built.
    const from = fromBuild ? path.join(ROOT, path.relative('/app', src)) : path.join(ROOT, src);
    if (!fs.existsSync(from)) throw new Error(`COPY source ${src} does not exist (${from}): run npm run build`);
    const to = dest.endsWith('/') || words.length > 1 ? path.join(target, path.basename(src)) : target;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(from, to, { recursive: true });
  }
}

/** A RUN line: its `npm ci` parts run in the tree; system setup is noted and left out. */
function run(tree: Tree, args: string): void {
  for (const part of args.split('&&').map((p) => p.trim())) {
    if (/^npm ci(\s|$)/.test(part)) {
      console.log(`# ${part}`);
      const result = spawnSync('sh', ['-c', part], { cwd: tree.dir, env: { ...process.env, ...tree.env }, stdio: 'inherit' });
      if (result.status !== 0) throw new Error(`${part} exited with ${result.status}`);
    } else if (/^(apt-get|rm -rf \/var\/lib\/apt\/lists|mkdir|chown|npm cache clean)\b/.test(part)) {
      tree.skipped.push(part);
    } else {
      throw new Error(`RUN ${part} is not known to this check`);
    }
  }
}

/** Builds the runtime stage's tree in a new temporary folder. */
export function buildTree(dockerfile: string): Tree {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-runtime-'));
  const tree: Tree = { dir, env: {}, cmd: [], health: [], skipped: [] };
  try {
    interpret(tree, dockerfile);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return tree;
}

function interpret(tree: Tree, dockerfile: string): void {
  let workdir = '/';
  for (const { op, args, line } of stageInstructions(dockerInstructions(dockerfile), 'runtime')) {
    switch (op) {
      case 'WORKDIR':
        workdir = path.resolve(workdir, args);
        break;
      case 'ENV':
        Object.assign(tree.env, envPairs(args));
        break;
      case 'COPY':
        copy(tree, args, workdir);
        break;
      case 'RUN':
        run(tree, args);
        break;
      case 'CMD':
        tree.cmd = execForm(args);
        break;
      case 'HEALTHCHECK':
        tree.health = healthcheck(args).command;
        break;
      // The image's user and init process: this check runs the CMD itself, as an unprivileged user
      // when it can; tini only forwards signals.
      case 'USER':
      case 'ENTRYPOINT':
      case 'EXPOSE':
        break;
      default:
        throw new Error(`Dockerfile line ${line}: ${op} is not known to this check`);
    }
  }
}

const results: { name: string; ok: boolean; detail?: string }[] = [];

async function check(name: string, fn: () => unknown): Promise<boolean> {
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`ok - ${name}`);
    return true;
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    results.push({ name, ok: false, detail });
    console.log(`not ok - ${name}\n  ${detail.replace(/\n/g, '\n  ')}`);
    return false;
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** What production insists on, freshly made (docs/deployment.md, "Production"), and nothing optional. */
async function productionVariables(databaseUrl: string, port: number): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const vapid = generateVAPIDKeys();
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: 'image-check' }] }),
    LOGIN_CLIENT_ID: 'image-check',
    LOGIN_CLIENT_SECRET: crypto.randomBytes(24).toString('hex'),
    LOGIN_CLIENT_REDIRECT_URIS: 'com.example.app:/oauth/ssosignedin',
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.org',
    PORT: String(port),
    HOST: '127.0.0.1',
  };
}

/** Runs as `nobody` when this check runs as root, as the image runs as its `node` user. */
function unprivileged(): { uid?: number; gid?: number } {
  return process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
}

function runTo(command: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): { status: number | null; output: string } {
  const r = spawnSync(command[0], command.slice(1), { cwd, env, timeout: timeoutMs, encoding: 'utf8', ...unprivileged() });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

interface Started {
  child: ChildProcess;
  lines: string[];
  listening: Promise<void>;
}

function startCmd(command: string[], cwd: string, env: NodeJS.ProcessEnv): Started {
  const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], ...unprivileged() });
  const lines: string[] = [];
  const listening = new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (line.includes('"msg":"listening"')) resolve();
    });
    readline.createInterface({ input: child.stderr }).on('line', (line) => lines.push(line));
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${lines.slice(-20).join('\n')}`)));
    setTimeout(() => reject(new Error(`not listening after 90 s:\n${lines.slice(-20).join('\n')}`)), 90_000).unref();
  });
  return { child, lines, listening };
}

/** Every package the lockfile marks dev-only (and nothing of production needs). */
function devOnlyPackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  return Object.entries(lock.packages)
    .filter(([p, v]) => p.startsWith('node_modules/') && v.dev === true)
    .map(([p]) => p);
}

/** The files the patches in patches/ change, as paths in the tree (node_modules/...). */
function patchedFiles(): string[] {
  const files: string[] = [];
  for (const name of fs.readdirSync(path.join(ROOT, 'patches'))) {
    for (const m of fs.readFileSync(path.join(ROOT, 'patches', name), 'utf8').matchAll(/^diff --git a\/(\S+) b\//gm)) files.push(m[1]);
  }
  return files;
}

async function main(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('DATABASE_URL must name a PostgreSQL server (a fresh database is made beside it)');
  const tree = buildTree(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  try {
    await checkTree(tree, base);
  } finally {
    fs.rmSync(tree.dir, { recursive: true, force: true });
  }
}

async function checkTree(tree: Tree, base: string): Promise<void> {
  console.log(`# runtime tree in ${tree.dir}; left out: ${tree.skipped.join('; ')}`);
  fs.chmodSync(tree.dir, 0o755);

  await check('the tree holds package.json, the lockfile, .npmrc, patches, production node_modules and dist only', () => {
    const top = fs.readdirSync(tree.dir).sort();
    assert(
      JSON.stringify(top) === JSON.stringify(['.npmrc', 'dist', 'node_modules', 'package-lock.json', 'package.json', 'patches']),
      `top level: ${top.join(', ')}`,
    );
    const dist = fs.readdirSync(path.join(tree.dir, 'dist')).sort();
    assert(JSON.stringify(dist) === JSON.stringify(['explorer', 'scripts', 'src']), `dist: ${dist.join(', ')}`);
    const scripts = fs.readdirSync(path.join(tree.dir, 'dist/scripts')).sort();
    assert(JSON.stringify(scripts) === JSON.stringify(['migrate.js', 'migrate.js.map']), `dist/scripts: ${scripts.join(', ')}`);
    const sources = fs
      .readdirSync(path.join(tree.dir, 'dist'), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'));
    assert(sources.length === 0, `TypeScript sources in dist: ${sources.slice(0, 5).join(', ')}`);
  });

  await check('no dev-only package is installed', () => {
    const present = devOnlyPackages().filter((p) => fs.existsSync(path.join(tree.dir, p)));
    assert(present.length === 0, `${present.length} dev-only packages: ${present.slice(0, 10).join(', ')}`);
    const size = spawnSync('du', ['-sm', path.join(tree.dir, 'node_modules')], { encoding: 'utf8' }).stdout.split('\t')[0];
    console.log(`# node_modules: ${size} MB`);
  });

  await check('the postinstall applied every patch (patched files equal this checkout, where npm ci applied them)', () => {
    const differing = patchedFiles().filter((f) => !fs.readFileSync(path.join(tree.dir, f)).equals(fs.readFileSync(path.join(ROOT, f))));
    assert(differing.length === 0, `not patched: ${differing.join(', ')}`);
  });

  const name = `image_${Date.now().toString(36)}_${crypto.randomBytes(3).toString('hex')}`;
  const adminUrl = new URL(base);
  adminUrl.pathname = '/postgres';
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: adminUrl.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const dbUrl = new URL(base);
  dbUrl.pathname = `/${name}`;
  const port = await freePort();
  // The Dockerfile's ENV and production's variables, nothing from this shell but PATH.
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...tree.env, ...(await productionVariables(dbUrl.toString(), port)) };
  let service: Started | undefined;
  try {
    const compose = parseYaml(fs.readFileSync(path.join(ROOT, COMPOSE_FILE), 'utf8')) as {
      services: Record<string, { command?: string[] }>;
    };
    const migrateCommand = compose.services.migrate?.command;
    await check(`the migration job of ${COMPOSE_FILE} migrates the empty database`, () => {
      assert(Array.isArray(migrateCommand), 'no exec-form command for services.migrate');
      const r = runTo(migrateCommand, tree.dir, env, 120_000);
      assert(r.status === 0, `exited with ${r.status}:\n${r.output.split('\n').slice(-20).join('\n')}`);
    });

    service = startCmd(tree.cmd, tree.dir, { ...env, MIGRATE_ON_START: 'false' });
    const started = await check(`CMD ${JSON.stringify(tree.cmd)} starts in production mode`, () => service!.listening);
    if (started) {
      const baseUrl = `http://127.0.0.1:${port}`;
      await check('GET /readyz answers 200', async () => {
        const res = await fetch(`${baseUrl}/readyz`);
        assert(res.status === 200, `${res.status} ${await res.text()}`);
      });
      await check('the HEALTHCHECK command exits 0', () => {
        const r = runTo(tree.health, tree.dir, env, 10_000);
        assert(r.status === 0, `exited with ${r.status}: ${r.output}`);
      });
      await check('GET /rest/refdata/countries answers 200 with the countries', async () => {
        const res = await fetch(`${baseUrl}/rest/refdata/countries`);
        const body = (await res.json()) as { countryCode: string }[];
        assert(res.status === 200, `${res.status} ${JSON.stringify(body)}`);
        assert(Array.isArray(body) && body.some((c) => c.countryCode === 'AU'), `no AU in ${JSON.stringify(body).slice(0, 200)}`);
      });
      await check('a GraphQL query on /graphql answers', async () => {
        const res = await fetch(`${baseUrl}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ timezones(countryCode: "AU") { timezoneId } }' }),
        });
        const body = (await res.json()) as { data?: { timezones: { timezoneId: string }[] }; errors?: unknown };
        assert(res.status === 200 && !body.errors, `${res.status} ${JSON.stringify(body)}`);
        assert(
          body.data?.timezones.some((t) => t.timezoneId === 'Australia/Sydney'),
          JSON.stringify(body).slice(0, 200),
        );
      });
    }
    await check('SIGTERM stops it with exit code 0', async () => {
      const child = service!.child;
      if (child.exitCode !== null) throw new Error(`already exited with ${child.exitCode}`);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      const code = await exited;
      clearTimeout(timer);
      assert(code === 0, `exit code ${code}:\n${service!.lines.slice(-10).join('\n')}`);
    });
  } finally {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

if (require.main === module) {
  main()
    .catch((err: unknown) => {
      results.push({ name: 'the check ran to its end', ok: false });
      console.log(`not ok - the check ran to its end\n  ${err instanceof Error ? err.message : String(err)}`);
    })
    .finally(() => {
      const failed = results.filter((r) => !r.ok).length;
      console.log(`Tests:       ${failed} failed, ${results.length - failed} passed, ${results.length} total`);
      process.exitCode = failed ? 1 : 0;
    });
}
