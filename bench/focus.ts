// A focused run: one or more bench scenarios against the already seeded `pronet_bench` (run
// `npm run bench` once first, or `DATABASE_URL=<server>/pronet_bench npm run seed:bench`: the seeder
// fills the database its URL names, where this and the bench take the server's), one measurement
// each, no ratios. For judging one change quickly: run it on the build before and after the change.
//
//   node dist/bench/focus.js "events page 1" "sent notifications"
//   node dist/bench/focus.js "recommended entities (GraphQL)"    (a REST read's GraphQL twin)
//
// Environment: DATABASE_URL (the server, as for npm run bench), FOCUS_SERVER (the server.js to
// start, default this build's), FOCUS_PROFILE (a directory: the service writes a V8 CPU profile
// there, `node --cpu-prof`), BENCH_DURATION (seconds, 5), BENCH_CONNECTIONS (10), FOCUS_RAW (set:
// each read is also measured on the raw baseline, raw-server.js replaying the statements this
// build's service sends for it, captured in process; printed as a second line `<scenario> (raw)`),
// FOCUS_NODE_FLAGS (V8 flags added after package.json's, e.g. `--trace-gc`), FOCUS_ROUNDS (1: each
// scenario measured that many times, the order reversed every other round, then a median line).
// Every chosen scenario is warmed before the first is measured: a read measured first in a fresh
// process otherwise pays for the process's warm-up (conditions measured 1.22 times its /graphql
// twin's CPU measured after it, and 1.09 alone in a process of its own).
// Peak RSS is the service's (or the raw handler's) `VmHWM` over the measured seconds, reset after
// the warm-up. PostgreSQL CPU counts only the backends of the measured process's own connections (its
// PGAPPNAME), so tests and other runs on the same server are left out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { captureStatements } from './capture';
import {
  databaseUrl as benchDatabaseUrl,
  load,
  median,
  metricsText,
  peakRssMb,
  resetPeakRss,
  spawnServer,
  sumOf,
  withCpu,
  SERVICE_NODE_FLAGS,
  type Spawned,
} from './harness';
import { chooseScenarios } from './twin';
import { benchScenarios, benchServiceEnv, loadSpec, signIn, type Scenario } from './scenarios';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const spec = (base: string, s: Scenario, duration: number) => loadSpec(base, s, CONNECTIONS, duration);

const ROUNDS = Math.max(1, Number(process.env.FOCUS_ROUNDS ?? 1));

const warm = (server: Spawned, s: Scenario) => load(spec(`http://127.0.0.1:${server.port}`, s, 1));

/** One measurement of `s` on a server: a second of warm-up first; `before` runs after the warm-up. */
async function measure(server: Spawned, s: Scenario, databaseUrl: string, before: () => Promise<void> = async () => {}) {
  const base = `http://127.0.0.1:${server.port}`;
  await warm(server, s);
  await before();
  resetPeakRss(server.child.pid!);
  return withCpu(server.child.pid!, () => load(spec(base, s, DURATION)), { databaseUrl, applicationName: server.applicationName });
}

async function main() {
  const names = process.argv.slice(2);
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || !names.length) throw new Error('usage: DATABASE_URL=postgres://... node dist/bench/focus.js "<scenario>" ...');
  const databaseUrl = benchDatabaseUrl(serverUrl, 'pronet_bench');
  const entry = process.env.FOCUS_SERVER ?? path.join(__dirname, '..', 'src', 'server.js');
  const profile = process.env.FOCUS_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FOCUS_PROFILE}`] : [];
  const extraFlags = process.env.FOCUS_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const env = { ...(await benchServiceEnv()), DATABASE_URL: databaseUrl };
  const server = await spawnServer(entry, env, '/readyz', [...SERVICE_NODE_FLAGS, ...extraFlags, ...profile]);
  const base = `http://127.0.0.1:${server.port}`;
  let raw: Spawned | undefined;
  const rawFile = path.join(os.tmpdir(), `pronet-focus-raw-${process.pid}.json`);
  try {
    const [olivia, cara, pat] = await Promise.all(
      ['olivia', 'cara', 'pat'].map((u) => signIn(base, `${u}@demo.example`, 'Demo-Passw0rd!')),
    );
    const all = benchScenarios({ olivia, cara, pat }, Date.now().toString(36));
    const chosen = await chooseScenarios(all, names);
    const reads = chosen.filter((s) => s.read);
    if (process.env.FOCUS_RAW && reads.length) {
      const captured = await captureStatements(
        databaseUrl,
        reads.map((s, i) => ({
          name: `s${i}`,
          method: s.method,
          path: s.path,
          headers: s.headers ?? {},
          body: s.body === undefined ? undefined : JSON.stringify(s.body),
        })),
        env,
      );
      fs.writeFileSync(rawFile, JSON.stringify(captured));
      raw = await spawnServer(path.join(__dirname, 'raw-server.js'), { DATABASE_URL: databaseUrl, RAW_SCENARIOS: rawFile }, '/ready');
    }
    for (const s of chosen) await warm(server, s);
    const cpu = new Map<Scenario, number[]>();
    for (let round = 0; round < ROUNDS; round++)
      for (const s of round % 2 ? [...chosen].reverse() : chosen) {
        let before = '';
        const r = await measure(server, s, databaseUrl, async () => void (before = await metricsText(server.port)));
        const statements = sumOf(await metricsText(server.port), 'db_statements_total') - sumOf(before, 'db_statements_total');
        cpu.set(s, [...(cpu.get(s) ?? []), r.cpuMsPerRequest]);
        console.log(
          `${s.name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${(statements / r.requests).toFixed(2)} SQL/req, ` +
            `service CPU ${r.cpuMsPerRequest.toFixed(3)} ms/req, PostgreSQL CPU ${r.postgresCpuMsPerRequest.toFixed(3)} ms/req, ` +
            `peak RSS ${peakRssMb(server.child.pid!).toFixed(1)} MB, ${r.non2xx} non-2xx, ${r.errors} errors`,
        );
        if (!raw || !s.read) continue;
        const rawScenario: Scenario = { name: `${s.name} (raw)`, method: 'GET', path: `/s${reads.indexOf(s)}`, read: true };
        const w = await measure(raw, rawScenario, databaseUrl);
        console.log(
          `${rawScenario.name}: ${w.rps} req/s, p50 ${w.p50} ms, p99 ${w.p99} ms, raw CPU ${w.cpuMsPerRequest.toFixed(3)} ms/req, ` +
            `PostgreSQL CPU ${w.postgresCpuMsPerRequest.toFixed(3)} ms/req, peak RSS ${peakRssMb(raw.child.pid!).toFixed(1)} MB, ${w.non2xx} non-2xx, ${w.errors} errors; ` +
            `service/raw ${(r.rps / Math.max(w.rps, 1)).toFixed(2)}`,
        );
      }
    if (ROUNDS > 1)
      for (const s of chosen) {
        console.log(`${s.name}: median service CPU ${median(cpu.get(s)!).toFixed(3)} ms/req over ${ROUNDS} rounds`);
      }
  } finally {
    await raw?.stop();
    fs.rmSync(rawFile, { force: true });
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
