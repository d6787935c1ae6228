// A focused run: one or more bench scenarios against the already seeded `pronet_bench` (run
// `npm run bench` or `npm run seed:bench` once first), one measurement each, no ratios. For
// judging one change quickly: run it on the build before and after the change.
//
//   node dist/bench/focus.js "events page 1" "sent notifications"
//
// Environment: DATABASE_URL (the server, as for npm run bench), FOCUS_SERVER (the server.js to
// start, default this build's), FOCUS_PROFILE (a directory: the service writes a V8 CPU profile
// there, `node --cpu-prof`), BENCH_DURATION (seconds, 5), BENCH_CONNECTIONS (10).
import path from 'node:path';
import { load, metricsText, spawnServer, sumOf, withCpu, SERVICE_NODE_FLAGS, type LoadSpec } from './harness';
import { benchScenarios, benchServiceEnv, signIn, type Scenario } from './scenarios';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

function spec(base: string, s: Scenario, duration: number): LoadSpec {
  const body = s.form ? new URLSearchParams(s.form).toString() : s.body === undefined ? undefined : JSON.stringify(s.body);
  const headers = s.form ? { 'content-type': 'application/x-www-form-urlencoded' } : s.headers;
  return { url: base + s.path, method: s.method, headers, body, setupRequest: s.setupRequest, connections: CONNECTIONS, duration };
}

async function main() {
  const names = process.argv.slice(2);
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || !names.length) throw new Error('usage: DATABASE_URL=postgres://... node dist/bench/focus.js "<scenario>" ...');
  const url = new URL(serverUrl);
  url.pathname = '/pronet_bench';
  const entry = process.env.FOCUS_SERVER ?? path.join(__dirname, '..', 'src', 'server.js');
  const profile = process.env.FOCUS_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.FOCUS_PROFILE}`] : [];
  const server = await spawnServer(entry, { ...(await benchServiceEnv()), DATABASE_URL: url.toString() }, '/readyz', [
    ...SERVICE_NODE_FLAGS,
    ...profile,
  ]);
  const base = `http://127.0.0.1:${server.port}`;
  try {
    const [olivia, cara, pat] = await Promise.all(
      ['olivia', 'cara', 'pat'].map((u) => signIn(base, `${u}@demo.example`, 'Demo-Passw0rd!')),
    );
    const all = benchScenarios({ olivia, cara, pat }, Date.now().toString(36));
    for (const name of names) {
      const s = all.find((x) => x.name === name);
      if (!s) throw new Error(`no scenario "${name}"; scenarios: ${all.map((x) => x.name).join(', ')}`);
      await load(spec(base, s, 1));
      const before = await metricsText(server.port);
      const r = await withCpu(server.child.pid!, () => load(spec(base, s, DURATION)));
      const statements = sumOf(await metricsText(server.port), 'db_statements_total') - sumOf(before, 'db_statements_total');
      console.log(
        `${name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${(statements / r.requests).toFixed(2)} SQL/req, ` +
          `service CPU ${r.cpuMsPerRequest.toFixed(3)} ms/req, PostgreSQL CPU ${r.postgresCpuMsPerRequest.toFixed(3)} ms/req, ` +
          `${r.non2xx} non-2xx, ${r.errors} errors`,
      );
    }
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
