// npm run test:mutation [-- <group> ... | --report]: StrykerJS on the files that guard access and data, one
// group of stryker.config.mjs at a time (each mutates its files and runs only its tests), then the
// score per file of every group's JSON report in reports/mutation/ (killed and timed-out over the
// mutants that compile; docs/development.md, "Mutation testing"); `--report` prints the scores of
// the reports there without running anything. The guard group tests the Redis store too when Redis
// answers: at REDIS_URL, else at the machine's 127.0.0.1:6379 (then REDIS_URL is set for the run).
// Node runs this file as it is.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { GROUPS } from '../stryker.config.mjs';

interface Mutant {
  status: string;
}
interface Report {
  files: Record<string, { mutants: Mutant[] }>;
}

const root = path.join(import.meta.dirname, '..');
const reportOnly = process.argv.includes('--report');
const asked = process.argv.slice(2).filter((a) => a !== '--report');
const unknown = asked.filter((g) => !(g in GROUPS));
if (unknown.length) {
  console.error(`no such group: ${unknown.join(', ')} (groups: ${Object.keys(GROUPS).join(', ')})`);
  process.exit(2);
}
const groups = reportOnly ? [] : asked.length ? asked : Object.keys(GROUPS);

/** Whether a Redis answers PING at `url` within a second. */
function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379), timeout: 1000 });
    const done = (answered: boolean) => {
      socket.destroy();
      resolve(answered);
    };
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.on('timeout', () => done(false));
    socket.on('error', () => done(false));
  });
}

const env = { ...process.env };
if (groups.includes('guard')) {
  const url = env.REDIS_URL || 'redis://127.0.0.1:6379';
  if (await redisAnswers(url)) {
    env.REDIS_URL = url;
    console.log(`Redis answers at ${url}: the guard group tests the Redis store too.`);
  } else {
    delete env.REDIS_URL;
    console.log(`Redis does not answer at ${url}: the guard group's Redis store mutants are not covered.`);
  }
}

let failed = false;
for (const group of groups) {
  console.log(`\n== mutation group ${group}`);
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, MUTATION_GROUP: group },
  });
  failed ||= run.status !== 0;
}

const DETECTED = new Set(['Killed', 'Timeout']);
const VALID = new Set(['Killed', 'Timeout', 'Survived', 'NoCoverage']);
const rows: [string, number, number][] = [];
for (const group of Object.keys(GROUPS)) {
  const file = path.join(root, 'reports/mutation', `${group}.json`);
  if (!fs.existsSync(file)) continue;
  const report = JSON.parse(fs.readFileSync(file, 'utf8')) as Report;
  for (const [name, { mutants }] of Object.entries(report.files)) {
    const valid = mutants.filter((m) => VALID.has(m.status));
    rows.push([name, valid.filter((m) => DETECTED.has(m.status)).length, valid.length]);
  }
}
const score = (detected: number, valid: number) => (valid ? ((100 * detected) / valid).toFixed(2) : '-');
console.log('\nfile | score | detected / valid');
for (const [name, detected, valid] of rows) console.log(`${name} | ${score(detected, valid)} | ${detected} / ${valid}`);
const [detected, valid] = rows.reduce(([d, v], [, rd, rv]) => [d + rd, v + rv], [0, 0]);
console.log(`all reported files | ${score(detected, valid)} | ${detected} / ${valid}`);
process.exit(failed ? 1 : 0);
