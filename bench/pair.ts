// Two builds side by side, for judging one change: both services run at once against the seeded
// bench database, and each scenario's load goes to one then the other, round after round (the
// order alternating), so that both see the same machine. On these shared two-core machines one
// build's CPU per request moves by up to a factor of two within minutes (other tenants, the CPU's
// own clock): runs of one build after the other (focus.ts) then differ by more than most changes
// do, where the rounds of a pair move together and their differences keep their sign.
//
//   node dist/bench/pair.js /tmp/before/dist/src/server.js "conditions" "recommended entities (GraphQL)"
//
// The first argument is the build to compare with (its server.js); the second side is this build's,
// or PAIR_B. Environment: DATABASE_URL (the server, as for npm run bench), PAIR_ROUNDS (6),
// PAIR_SECONDS (seconds of each round, 5), PAIR_A_ENV / PAIR_B_ENV (JSON objects of variables added
// to one side's environment, e.g. a switch to measure), PAIR_A_FLAGS / PAIR_B_FLAGS (V8 flags added
// after package.json's), PAIR_A_DATABASE / PAIR_B_DATABASE (another database on the same server
// for one side, seeded by that build's own `seed:bench`: a build whose schema differs). Prints, per
// scenario and side, the service CPU per request of every round and their median, the same of its
// PostgreSQL backends' CPU, the median req/s and p99, then how many rounds B used less service CPU
// than A in. Like focus.ts, it writes to the bench database: run `DATABASE_URL=<server>/pronet_bench
// npm run seed:bench` after a series that creates entries.
//
// PAIR_A_AS=floor or sofa pairs this build's service with the design's floor or the peer instead of
// another build: side A is then dist/bench/floor-server.js (the REST router alone, signed in through
// B) or dist/bench/sofa-server.js (each read as SOFA serves it, peer.ts), and the first argument is
// left out:
//
//   PAIR_A_AS=floor node dist/bench/pair.js "conditions" "user addresses"
//
// Each round then also prints B's req/s over A's; the median of those per-round ratios is the
// read's service/floor (or facade/SOFA) ratio, both sides measured on the same seconds of the machine.
import path from 'node:path';
import { databaseUrl, load, median, spawnServer, withCpu, SERVICE_NODE_FLAGS, type Spawned, type LoadResult } from './harness';
import { routeTable } from '../src/rest/routes';
import { compileRoutes } from '../src/rest/executor';
import { createSchema } from '../src/graphql/schema';
import { chooseScenarios } from './twin';
import { floorScenario, sofaScenario } from './peer';
import { benchScenarios, benchServiceEnv, loadSpec, signIn, type Scenario } from './scenarios';
import { MODULES } from '../src/modules';

const ROUNDS = Number(process.env.PAIR_ROUNDS ?? 6);
const SECONDS = Number(process.env.PAIR_SECONDS ?? 5);
const CONNECTIONS = 10;

interface Side {
  label: 'A' | 'B';
  server: Spawned;
  base: string;
  scenarios: Scenario[];
  databaseUrl: string;
}

const words = (v: string | undefined) => v?.split(' ').filter(Boolean) ?? [];

/** What side A is besides another build of the service (PAIR_A_AS). */
type Counterpart = 'floor' | 'sofa';
const COUNTERPART: Record<Counterpart, { entry: string; ready: string }> = {
  floor: { entry: path.join(__dirname, 'floor-server.js'), ready: '/ready' },
  sofa: { entry: path.join(__dirname, 'sofa-server.js'), ready: '/readyz' },
};

/** The scenarios `names` as `as` serves them. */
async function counterpartScenarios(as: Counterpart, scenarios: Scenario[]): Promise<Scenario[]> {
  const schema = as === 'sofa' ? await createSchema(MODULES) : undefined;
  const routes = schema ? compileRoutes(schema, routeTable(MODULES)) : [];
  return scenarios.map((s) => {
    const other = schema ? sofaScenario(routes, schema, s) : floorScenario(s);
    if (!other || 'reason' in other)
      throw new Error(`${s.name}: the ${as} cannot serve it${other ? ` (${other.reason})` : ' (not a REST read)'}`);
    return other;
  });
}

async function startSide(
  label: Side['label'],
  entry: string,
  env: Record<string, string>,
  names: string[],
  signedIn?: Side,
  as?: Counterpart,
): Promise<Side> {
  const extra = JSON.parse(process.env[`PAIR_${label}_ENV`] ?? '{}') as Record<string, string>;
  const database = process.env[`PAIR_${label}_DATABASE`];
  if (database) extra.DATABASE_URL = databaseUrl(env.DATABASE_URL, database);
  const flags = [...SERVICE_NODE_FLAGS, ...words(process.env[`PAIR_${label}_FLAGS`])];
  const server = await spawnServer(entry, { ...env, ...extra }, as ? COUNTERPART[as].ready : '/readyz', flags);
  const base = `http://127.0.0.1:${server.port}`;
  const side = { label, server, base, databaseUrl: extra.DATABASE_URL ?? env.DATABASE_URL };
  // A counterpart reads with the tokens of the service beside it (the floor has no sign-in route).
  if (signedIn && as) return { ...side, scenarios: await counterpartScenarios(as, signedIn.scenarios) };
  const [olivia, cara, pat] = await Promise.all(['olivia', 'cara', 'pat'].map((u) => signIn(base, `${u}@demo.example`, 'Demo-Passw0rd!')));
  const all = benchScenarios({ olivia, cara, pat }, `${Date.now().toString(36)}${label}`);
  return { ...side, scenarios: await chooseScenarios(all, names) };
}

async function main() {
  const as = process.env.PAIR_A_AS as Counterpart | undefined;
  if (as && !(as in COUNTERPART)) throw new Error(`PAIR_A_AS is floor or sofa, not ${as}`);
  const args = process.argv.slice(2);
  const before = as ? COUNTERPART[as].entry : args.shift();
  const names = args;
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || !before || !names.length)
    throw new Error('usage: DATABASE_URL=postgres://... node dist/bench/pair.js <server.js of the build before> "<scenario>" ...');
  const env = { ...(await benchServiceEnv()), DATABASE_URL: databaseUrl(serverUrl, 'pronet_bench') };
  const sides: Side[] = [];
  const backends = (side: Side) => ({ databaseUrl: side.databaseUrl, applicationName: side.server.applicationName });
  try {
    const b = await startSide('B', path.resolve(process.env.PAIR_B ?? path.join(__dirname, '..', 'src', 'server.js')), env, names);
    sides.push(b);
    sides.unshift(await startSide('A', path.resolve(before), env, names, as ? b : undefined, as));
    for (const [i, name] of names.entries()) {
      const spec = (side: Side, seconds: number) => loadSpec(side.base, side.scenarios[i], CONNECTIONS, seconds);
      for (const side of sides) await load(spec(side, 2)); // warm-up
      const runs: Record<Side['label'], (LoadResult & { cpuMsPerRequest: number; postgresCpuMsPerRequest: number })[]> = { A: [], B: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of round % 2 ? [...sides].reverse() : sides)
          runs[side.label].push(await withCpu(side.server.child.pid!, () => load(spec(side, SECONDS)), backends(side)));
      }
      for (const side of sides) {
        const r = runs[side.label];
        const cpu = r.map((x) => x.cpuMsPerRequest);
        const postgres = r.map((x) => x.postgresCpuMsPerRequest);
        console.log(
          `${name} ${side.label}: service CPU ms/req median ${median(cpu).toFixed(3)} [${cpu.map((c) => c.toFixed(3)).join(' ')}], ` +
            `PostgreSQL CPU ms/req median ${median(postgres).toFixed(3)} [${postgres.map((c) => c.toFixed(3)).join(' ')}], ` +
            `req/s median ${median(r.map((x) => x.rps))}, p99 median ${median(r.map((x) => x.p99))} ms, ` +
            `${r.reduce((t, x) => t + x.non2xx + x.errors, 0)} failed`,
        );
      }
      const less = runs.B.filter((b, k) => b.cpuMsPerRequest < runs.A[k].cpuMsPerRequest).length;
      console.log(`${name}: B used less CPU than A in ${less} of ${ROUNDS} rounds`);
      const ratios = runs.B.map((b, k) => b.rps / runs.A[k].rps);
      console.log(
        `${name}: B's req/s over A's median ${median(ratios).toFixed(2)} [${ratios.map((r) => r.toFixed(2)).join(' ')}], ` +
          `A's CPU ms/req over B's median ${median(runs.B.map((b, k) => runs.A[k].cpuMsPerRequest / b.cpuMsPerRequest)).toFixed(2)}`,
      );
    }
  } finally {
    for (const side of sides) await side.server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
