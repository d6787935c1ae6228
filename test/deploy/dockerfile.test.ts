// The Dockerfile against the rules a linter such as hadolint checks and that need no Docker (pinned
// base image, apt hygiene, exec forms, a non-root USER, absolute WORKDIR), and against this
// repository: the build context .dockerignore lets through is exactly what the build copies, the
// runtime stage installs production dependencies only and runs node with package.json's flags.
// scripts/check-runtime-tree.ts (npm run test:image) runs the runtime stage itself.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { dockerInstructions, envPairs, execForm, healthcheck, stageInstructions, type Instruction } from '../../scripts/check-runtime-tree';

const ROOT = path.join(__dirname, '../..');
const all = dockerInstructions(fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
const build = stageInstructions(all, 'build');
const runtime = stageInstructions(all, 'runtime');
const args = (list: Instruction[], op: string) => list.filter((i) => i.op === op).map((i) => i.args);
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { config: { nodeFlags: string } };

/** Whether Node takes a flag in NODE_OPTIONS (it refuses most of V8's, --no-allocation-site-pretenuring among them). */
const inNodeOptions = (flag: string) =>
  spawnSync(process.execPath, ['-e', ''], { env: { PATH: process.env.PATH, NODE_OPTIONS: flag } }).status === 0;

/** ARG defaults declared before the first FROM, which FROM lines may name. */
const globalArgs = Object.fromEntries(
  all
    .slice(
      0,
      all.findIndex((i) => i.op === 'FROM'),
    )
    .filter((i) => i.op === 'ARG')
    .map((i) => i.args.split('=') as [string, string]),
);

describe('the Dockerfile', () => {
  it('has a build stage and a runtime stage, the last, each from a pinned image (no latest)', () => {
    const froms = all.filter((i) => i.op === 'FROM').map((i) => i.args);
    expect(froms.map((f) => f.split(/\s+AS\s+/i)[1])).toEqual(['build', 'runtime']);
    for (const from of froms) {
      const image = from.split(/\s+/)[0].replace(/^\$\{(\w+)\}$/, (_m, name: string) => globalArgs[name]);
      expect(image).toMatch(/^[\w./-]+:[\w.-]*\d[\w.-]*$/);
      expect(image).not.toMatch(/:latest$/);
    }
  });

  it('installs system packages without recommends, at pinned versions, and removes the apt lists in the same RUN', () => {
    const apt = [...args(build, 'RUN'), ...args(runtime, 'RUN')].filter((r) => r.includes('apt-get'));
    expect(apt.length).toBeGreaterThan(0);
    for (const run of apt) {
      const install = /apt-get install ([^&]+)/.exec(run)![1].trim().split(/\s+/);
      expect(install).toEqual(expect.arrayContaining(['-y', '--no-install-recommends']));
      for (const pkg of install.filter((w) => !w.startsWith('-'))) expect(pkg).toMatch(/^[\w.+-]+=[\w.+:~-]+$/);
      expect(run).toMatch(/&& rm -rf \/var\/lib\/apt\/lists\/\*/);
    }
  });

  it('uses COPY not ADD, absolute WORKDIRs, npm ci (never npm install), no cd or sudo in RUN', () => {
    expect(all.filter((i) => i.op === 'ADD')).toEqual([]);
    for (const w of args(all, 'WORKDIR')) expect(w).toMatch(/^\//);
    for (const run of args(all, 'RUN')) {
      expect(run).not.toMatch(/\bnpm (install|i)\b/);
      expect(run).not.toMatch(/(^|&&\s*)cd\s|\bsudo\b/);
    }
  });

  it('runs tini and node in exec form, as the unprivileged node user, with a HEALTHCHECK on /readyz', () => {
    expect(execForm(args(runtime, 'ENTRYPOINT')[0])).toEqual(['/usr/bin/tini', '--']);
    const flags = pkg.config.nodeFlags.split(' ');
    // The flags Node refuses in NODE_OPTIONS (set by ENV below) go on the command.
    expect(execForm(args(runtime, 'CMD')[0])).toEqual([
      'node',
      ...flags.filter((f) => !inNodeOptions(f)),
      '--enable-source-maps',
      'dist/src/server.js',
    ]);
    expect(args(runtime, 'USER')).toEqual(['node']);
    const user = runtime.findIndex((i) => i.op === 'USER');
    expect(runtime.findIndex((i) => i.op === 'CMD')).toBeGreaterThan(user);
    const check = healthcheck(args(runtime, 'HEALTHCHECK')[0]);
    expect(check.command.join(' ')).toContain("'/readyz'");
    expect(Object.keys(check.options).sort()).toEqual(['interval', 'retries', 'start-period', 'timeout']);
  });

  it('installs production dependencies only in the runtime stage, and sets NODE_ENV, MALLOC_ARENA_MAX and the node flags of package.json', () => {
    expect(args(runtime, 'RUN').filter((r) => r.includes('npm ci'))).toEqual([expect.stringMatching(/^npm ci --omit=dev\b/)]);
    const env = Object.assign({}, ...args(runtime, 'ENV').map(envPairs)) as Record<string, string>;
    // Every heap flag of config.nodeFlags Node admits in NODE_OPTIONS (the rest are on CMD).
    const admitted = pkg.config.nodeFlags.split(' ').filter(inNodeOptions);
    expect(admitted).toEqual(expect.arrayContaining(['--max-old-space-size=128', '--max-semi-space-size=8']));
    expect(env).toEqual({ NODE_ENV: 'production', MALLOC_ARENA_MAX: '2', NODE_OPTIONS: admitted.join(' ') });
    // NODE_ENV before npm ci; the 128 MB heap flag after it.
    const at = (pred: (i: Instruction) => boolean) => runtime.findIndex(pred);
    const npmCi = at((i) => i.op === 'RUN' && i.args.includes('npm ci'));
    expect(at((i) => i.op === 'ENV' && i.args.includes('NODE_ENV='))).toBeLessThan(npmCi);
    expect(at((i) => i.op === 'ENV' && i.args.includes('NODE_OPTIONS='))).toBeGreaterThan(npmCi);
  });

  it('copies into the runtime stage the built files only: the service, the migration job, the explorer', () => {
    const fromBuild = args(runtime, 'COPY')
      .filter((c) => c.startsWith('--from=build'))
      .flatMap((c) => c.split(/\s+/).slice(1, -1));
    expect(fromBuild).toEqual(['/app/dist/src', '/app/dist/scripts/migrate.js', '/app/dist/scripts/migrate.js.map', '/app/dist/explorer']);
  });

  it('has a .dockerignore that lets through exactly what the stages copy from the build context', () => {
    const lines = fs
      .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    expect(lines[0]).toBe('*');
    const allowed = lines.slice(1).map((l) => {
      expect(l.startsWith('!')).toBe(true);
      return l.slice(1).replace(/\/$/, '');
    });
    const copied = new Set(
      all
        .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
        .flatMap((i) => i.args.split(/\s+/).slice(0, -1))
        .map((s) => s.replace(/^\.\//, '').replace(/\/$/, '')),
    );
    expect(allowed.sort()).toEqual([...copied].sort());
    for (const source of copied) expect(fs.existsSync(path.join(ROOT, source))).toBe(true);
  });
});
