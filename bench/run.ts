// npm run bench: seeds (once) two bench databases on the PostgreSQL server of DATABASE_URL,
// starts the compiled service against them as a child process (LOG_LEVEL=warn, scheduler off)
// and drives it with autocannon over loopback. Prints the results table and issue 18's targets,
// and writes bench/results/<timestamp>.json and .md.
//
// Every read (but the two scenarios.ts marks noBaseline) is compared with a raw baseline
// (raw-server.ts: Koa and pg replaying the SQL the service sends for it): REST, the same
// operation as a GraphQL POST and raw, interleaved, the median of BENCH_RUNS runs; then the tails
// of service and raw at one paced rate (70% of the service's peak), taking turns, so that both
// see the same machine.
//
// Environment: DATABASE_URL (required, any database on the server: the bench databases are
// created next to it), BENCH_DURATION (seconds a write is measured, and each read's tail budget
// shared by service and raw, 5), BENCH_RUN_DURATION (seconds each of a read's interleaved runs, 2),
// BENCH_RUNS (runs of each read, median taken, 3), BENCH_CONNECTIONS (10), BENCH_WARMUP (seconds,
// 1).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ROUTES } from '../src/rest/routes';
import { compileRoutes } from '../src/rest/executor';
import { createSchema } from '../src/graphql/schema';
import { upload } from './upload-rss';
import { benchScenarios, benchServiceEnv, loadSpec, signIn, userHeaders, type Scenario } from './scenarios';
import { captureStatements, type CaptureRequest } from './capture';
import { graphqlTwin } from './twin';
import {
  databaseUrl,
  load,
  median,
  metricsText,
  pacedSamples,
  peakRssMb,
  sumOf,
  summarize,
  resetPeakRss,
  rssMb,
  spawnServer,
  SERVICE_NODE_FLAGS,
  withCpu,
  type LoadResult,
  type PacedSamples,
  type Backends,
  type Spawned,
} from './harness';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const RUN_DURATION = Number(process.env.BENCH_RUN_DURATION ?? 2);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
/** Service and raw take turns this many times each in a tail measurement. */
const TAIL_TURNS = 2;
/** The paced rate of the tails, as a share of the service's peak. */
const TAIL_LOAD = 0.7;
const ROOT = path.resolve(__dirname, '..', '..');
const SERVER_JS = path.join(ROOT, 'dist', 'src', 'server.js');
const RAW_JS = path.join(ROOT, 'dist', 'bench', 'raw-server.js');
const SEED_JS = path.join(ROOT, 'dist', 'scripts', 'seed-bench.js');
const MB = 1024 * 1024;

/** Issue 18's goals. */
const GOAL = {
  restOverRaw: 0.6,
  /** The two address reads. */
  addressRestOverRaw: 0.8,
  listCpuMs: 1.5,
  libraryStatements: 4,
  libraryCpuMs: 4,
  createEntryStatements: 6,
  createEntryCpuMs: 5,
  recommendedPostgresCpuMs: 2,
  recommendedCpuMs: 3,
  profileStatements: 2,
  p99OverRawP99: 3,
  uploadRiseMb: 10,
  peakRssMb: 250,
};

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

function seed(url: string, companies: number): void {
  execFileSync(process.execPath, [SEED_JS, '--companies', String(companies)], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'inherit',
  });
}

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  statementsPerRequest: number;
  peakRssMb: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU time of the service process per response. */
  cpuMsPerRequest: number;
  /** CPU time of the PostgreSQL backends of the service's connections per response (harness.ts withCpu). */
  postgresCpuMsPerRequest: number;
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  gcMsPerSecond: number;
}

const specOf = (base: string, s: Scenario, duration = DURATION) => loadSpec(base, s, CONNECTIONS, duration);

/** Load on `s` for BENCH_WARMUP seconds, unmeasured (the server's caches and V8's optimiser). */
async function warm(base: string, s: Scenario): Promise<void> {
  if (WARMUP > 0) await load(specOf(base, s, WARMUP));
}

/** The highest peak RSS of the service over the measured runs, and the scenario it was reached in. */
const highest = { peakRssMb: 0, scenario: '' };

/**
 * One measured run of the service: `work` drives the load; statements per request from
 * db_statements_total, peak RSS since reset, CPU of the service and of PostgreSQL, and over the
 * run the event loop's longest and 99th-percentile delay (prom-client samples it every 20 ms)
 * and the time spent in garbage collection.
 */
/** A server process of the bench and the PostgreSQL backends of its connections to the database it serves. */
type Server = Spawned & { backends: Backends };

async function start(entry: string, env: NodeJS.ProcessEnv, readyPath: string, nodeArgs: string[] = []): Promise<Server> {
  const spawned = await spawnServer(entry, env, readyPath, nodeArgs);
  return { ...spawned, backends: { databaseUrl: env.DATABASE_URL!, applicationName: spawned.applicationName } };
}

async function measureWith(server: Server, name: string, work: () => Promise<LoadResult>): Promise<Row> {
  resetPeakRss(server.child.pid!);
  const before = await metricsText(server.port);
  const started = Date.now();
  const r = await withCpu(server.child.pid!, work, server.backends);
  const after = await metricsText(server.port);
  const seconds = (Date.now() - started) / 1000;
  const delta = (metric: string) => sumOf(after, metric) - sumOf(before, metric);
  const peak = peakRssMb(server.child.pid!);
  if (peak > highest.peakRssMb) Object.assign(highest, { peakRssMb: peak, scenario: name });
  return {
    scenario: name,
    ...r,
    statementsPerRequest: r.requests ? Math.round((delta('db_statements_total') / r.requests) * 100) / 100 : 0,
    peakRssMb: peak,
    loopDelayMaxMs: Math.round(sumOf(after, 'nodejs_eventloop_lag_max_seconds') * 1000),
    loopDelayP99Ms: Math.round(sumOf(after, 'nodejs_eventloop_lag_p99_seconds') * 1000),
    gcMsPerSecond: Math.round((delta('nodejs_gc_duration_seconds_sum') * 1000) / seconds),
  };
}

const measure = (server: Server, s: Scenario, duration = DURATION) =>
  measureWith(server, s.name, () => load(specOf(`http://127.0.0.1:${server.port}`, s, duration)));

/** Sends the scenario's request once: it must answer 200 without GraphQL errors. */
async function answers(base: string, s: Scenario): Promise<void> {
  const spec = specOf(base, s);
  const body = s.setupRequest ? s.setupRequest({}).body : spec.body;
  const res = await fetch(spec.url, { method: spec.method, headers: spec.headers, body });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${text.slice(0, 300)}`);
  if (text.includes('"errors"')) throw new Error(`${s.name}: ${text.slice(0, 300)}`);
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

/** The median of each figure over runs of one scenario (peak RSS: the highest). */
function medianRow(runs: Row[]): Row {
  const m = (pick: (r: Row) => number) => median(runs.map(pick));
  const sum = (pick: (r: Row) => number) => runs.reduce((t, r) => t + pick(r), 0);
  return {
    scenario: runs[0].scenario,
    rps: m((r) => r.rps),
    p50: m((r) => r.p50),
    p99: m((r) => r.p99),
    statementsPerRequest: m((r) => r.statementsPerRequest),
    peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    cpuMsPerRequest: m((r) => r.cpuMsPerRequest),
    postgresCpuMsPerRequest: m((r) => r.postgresCpuMsPerRequest),
    loopDelayMaxMs: Math.max(...runs.map((r) => r.loopDelayMaxMs)),
    loopDelayP99Ms: m((r) => r.loopDelayP99Ms),
    gcMsPerSecond: m((r) => r.gcMsPerSecond),
  };
}

function table(rows: Row[]): string {
  const lines = [
    '| scenario | req/s | p50 ms | p99 ms | SQL/req | service CPU ms/req | PostgreSQL CPU ms/req | peak RSS MB | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${fmt(r.statementsPerRequest, 2)} | ${fmt(r.cpuMsPerRequest, 3)} | ${fmt(r.postgresCpuMsPerRequest, 3)} | ${fmt(r.peakRssMb)} | ${r.non2xx + r.errors} |`,
    );
  }
  return lines.join('\n');
}

interface Comparison {
  scenario: string;
  /** Statements the raw handler replays (captured from the service). */
  statements: number;
  /** The service's own count per request (db_statements_total), median. */
  serviceStatements: number;
  serviceRps: number;
  graphqlRps: number | null;
  rawRps: number;
  serviceOverRaw: number;
  serviceOverGraphql: number | null;
  serviceCpuMs: number;
  graphqlCpuMs: number | null;
  rawCpuMs: number;
  /** PostgreSQL CPU per request under the service's load and under the raw handler's. */
  postgresCpuMs: number;
  rawPostgresCpuMs: number;
}

interface Tail {
  scenario: string;
  peakRps: number;
  rate: number;
  p50: number;
  p99: number;
  rawP50: number;
  rawP99: number;
  ratio: number;
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  gcMsPerSecond: number;
}

/**
 * Service and raw handler at one paced rate, taking turns (TAIL_TURNS each, DURATION shared), so
 * that a slow spell of the shared machine falls on both; each side's latencies are pooled.
 */
async function tails(server: Server, raw: Server, s: Scenario, rawScenario: Scenario, peakRps: number): Promise<Tail & { failed: number }> {
  const rate = Math.max(1, Math.round(peakRps * TAIL_LOAD));
  const turn = DURATION / 2 / TAIL_TURNS;
  const service: PacedSamples[] = [];
  const baseline: PacedSamples[] = [];
  const serviceRows: Row[] = [];
  for (let k = 0; k < TAIL_TURNS; k++) {
    serviceRows.push(
      await measureWith(server, s.name, async () => {
        const samples = await pacedSamples(specOf(`http://127.0.0.1:${server.port}`, s, turn), rate);
        service.push(samples);
        return summarize([samples]);
      }),
    );
    baseline.push(await pacedSamples(specOf(`http://127.0.0.1:${raw.port}`, rawScenario, turn), rate));
  }
  const a = summarize(service);
  const b = summarize(baseline);
  const turns = medianRow(serviceRows);
  return {
    scenario: s.name,
    peakRps,
    rate,
    p50: a.p50,
    p99: a.p99,
    rawP50: b.p50,
    rawP99: b.p99,
    ratio: a.p99 / Math.max(b.p99, 0.01),
    loopDelayMaxMs: turns.loopDelayMaxMs,
    loopDelayP99Ms: Math.max(...serviceRows.map((r) => r.loopDelayP99Ms)),
    gcMsPerSecond: turns.gcMsPerSecond,
    failed: a.non2xx + a.errors + b.non2xx + b.errors,
  };
}

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl || !/^postgres(ql)?:/.test(serverUrl))
    throw new Error('npm run bench needs DATABASE_URL=postgres://... (a real PostgreSQL server)');
  const bigUrl = databaseUrl(serverUrl, 'pronet_bench');
  const smallUrl = databaseUrl(serverUrl, 'pronet_bench_small');
  const started = Date.now();
  for (const [name, url, companies] of [
    ['pronet_bench', bigUrl, 10_000],
    ['pronet_bench_small', smallUrl, 100],
  ] as const) {
    await ensureDatabase(serverUrl, name);
    seed(url, companies);
  }

  const serviceEnv = await benchServiceEnv();
  const server = await start(SERVER_JS, { ...serviceEnv, DATABASE_URL: bigUrl }, '/readyz', SERVICE_NODE_FLAGS);
  const base = `http://127.0.0.1:${server.port}`;
  const olivia = await signIn(base, 'olivia@demo.example', 'Demo-Passw0rd!');
  const cara = await signIn(base, 'cara@demo.example', 'Demo-Passw0rd!');
  const pat = await signIn(base, 'pat@demo.example', 'Demo-Passw0rd!');
  const rssAtStart = rssMb(server.child.pid!);
  const run = Date.now().toString(36);

  const scenarios = benchScenarios({ olivia, cara, pat }, run);
  const { recommended } = scenarios.byName;
  // Sanity: every scenario answers 200 once before it is measured.
  for (const s of scenarios) await answers(base, s);
  const recommendedRows = (
    (await (
      await fetch(base + recommended.path, { method: 'POST', headers: recommended.headers, body: JSON.stringify(recommended.body) })
    ).json()) as unknown[]
  ).length;

  // The raw baseline of every read: the statements the service sends for it, captured in process
  // (the reads first: the writes below add library entries and change Pat's profile).
  const reads = scenarios.filter((s) => s.read && !s.noBaseline);
  const routes = compileRoutes(await createSchema(), ROUTES);
  const captureReqs: CaptureRequest[] = reads.map((s, i) => ({
    name: `s${i}`,
    method: s.method,
    path: s.path,
    headers: s.headers ?? {},
    body: s.body === undefined ? undefined : JSON.stringify(s.body),
  }));
  const captured = await captureStatements(bigUrl, captureReqs, serviceEnv);
  const scenariosFile = path.join(os.tmpdir(), `pronet-bench-raw-${run}.json`);
  fs.writeFileSync(scenariosFile, JSON.stringify(captured));
  const raw = await start(RAW_JS, { DATABASE_URL: bigUrl, RAW_SCENARIOS: scenariosFile }, '/ready');
  const rawBase = `http://127.0.0.1:${raw.port}`;

  const rows: Row[] = [];
  const comparisons: Comparison[] = [];
  const tail: Tail[] = [];
  try {
    for (const [i, s] of reads.entries()) {
      const gql = graphqlTwin(routes, s);
      if (gql) await answers(base, gql);
      const rawScenario: Scenario = { name: `${s.name} (raw)`, method: 'GET', path: `/s${i}`, read: true };
      for (const x of [s, gql, rawScenario]) if (x) await warm(x === rawScenario ? rawBase : base, x);
      const rest: Row[] = [],
        g: Row[] = [],
        rw: (LoadResult & { cpuMsPerRequest: number; postgresCpuMsPerRequest: number })[] = [];
      for (let k = 0; k < RUNS; k++) {
        rest.push(await measure(server, s, RUN_DURATION));
        if (gql) g.push(await measure(server, gql, RUN_DURATION));
        rw.push(await withCpu(raw.child.pid!, () => load(specOf(rawBase, rawScenario, RUN_DURATION)), raw.backends));
      }
      for (const [kind, runs] of [
        ['REST', rest],
        ['GraphQL', g],
        ['raw', rw],
      ] as const) {
        const failed = runs.filter((r) => r.non2xx + r.errors);
        if (failed.length) throw new Error(`${s.name}, ${kind}: failed answers in the comparison runs: ${JSON.stringify(failed[0])}`);
      }
      const row = medianRow(rest);
      rows.push(row);
      const rawRps = median(rw.map((r) => r.rps));
      const graphqlRps = gql ? median(g.map((r) => r.rps)) : null;
      comparisons.push({
        scenario: s.name,
        statements: captured[i].statements.length,
        serviceStatements: row.statementsPerRequest,
        serviceRps: row.rps,
        graphqlRps,
        rawRps,
        serviceOverRaw: row.rps / rawRps,
        serviceOverGraphql: graphqlRps === null ? null : row.rps / graphqlRps,
        serviceCpuMs: row.cpuMsPerRequest,
        graphqlCpuMs: gql ? median(g.map((r) => r.cpuMsPerRequest)) : null,
        rawCpuMs: median(rw.map((r) => r.cpuMsPerRequest)),
        postgresCpuMs: row.postgresCpuMsPerRequest,
        rawPostgresCpuMs: median(rw.map((r) => r.postgresCpuMsPerRequest)),
      });
      const { failed, ...t } = await tails(server, raw, s, rawScenario, row.rps);
      if (failed) throw new Error(`${s.name}: failed answers in the tail runs`);
      tail.push(t);
      console.log(
        `${s.name}: ${row.rps} req/s${gql ? `, GraphQL ${graphqlRps}` : ''}, raw ${rawRps}; ${row.statementsPerRequest} SQL/req; ` +
          `CPU ${row.cpuMsPerRequest} ms/req (raw ${comparisons.at(-1)!.rawCpuMs}) + PostgreSQL ${row.postgresCpuMsPerRequest}; ` +
          `at ${t.rate} req/s p99 ${t.p99} ms, raw p99 ${t.rawP99} ms`,
      );
    }
  } finally {
    await raw.stop();
    fs.rmSync(scenariosFile, { force: true });
  }

  for (const s of scenarios.filter((x) => !reads.includes(x))) {
    await warm(base, s);
    const r = await measure(server, s);
    rows.push(r);
    console.log(
      `${s.name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.statementsPerRequest} SQL/req, CPU ${r.cpuMsPerRequest} + PostgreSQL ${r.postgresCpuMsPerRequest} ms/req, ${r.peakRssMb} MB${r.non2xx + r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
    );
  }

  // Under the load of the big database (the small one's runs below are not counted).
  const peakOverall = { ...highest };
  await server.stop();

  // The upload and recommended entities at 100 companies, against the small database.
  const small = await start(SERVER_JS, { ...serviceEnv, DATABASE_URL: smallUrl }, '/readyz', SERVICE_NODE_FLAGS);
  const smallRuns: Row[] = [];
  let smallRows: number, rssBefore: number, uploadPeak: number, uploadStatus: number;
  try {
    const tok = await signIn(`http://127.0.0.1:${small.port}`, 'olivia@demo.example', 'Demo-Passw0rd!');
    // Upload, on this fresh process so the heap growth of the load above does not blur it:
    // steady state first (one small upload), then the peak RSS while 25 MB stream in.
    if ((await upload(small.port, tok, 3 * MB)) !== 200) throw new Error('warm-up upload failed');
    await new Promise((r) => setTimeout(r, 1000));
    rssBefore = rssMb(small.child.pid!);
    resetPeakRss(small.child.pid!);
    uploadStatus = await upload(small.port, tok, 25 * MB);
    uploadPeak = peakRssMb(small.child.pid!);
    const s = { ...recommended, headers: userHeaders(tok) };
    smallRows = (
      (await (
        await fetch(`http://127.0.0.1:${small.port}${s.path}`, { method: 'POST', headers: s.headers, body: JSON.stringify(s.body) })
      ).json()) as unknown[]
    ).length;
    await warm(`http://127.0.0.1:${small.port}`, s);
    for (let k = 0; k < RUNS; k++) smallRuns.push(await measure(small, s, RUN_DURATION));
  } finally {
    await small.stop();
  }
  const uploadRise = Math.round((uploadPeak - rssBefore) * 10) / 10;
  const bigRec = rows.find((r) => r.scenario === recommended.name)!;
  const smallRec = medianRow(smallRuns);
  // Not a target any more (issue 18 bounds the CPU at 10,000 companies instead); kept to show how
  // the read grows with the companies it matches.
  const scaling = {
    p50At10000: bigRec.p50,
    p50At100: smallRec.p50,
    rpsAt10000: bigRec.rps,
    rpsAt100: smallRec.rps,
    cpuMsAt10000: bigRec.cpuMsPerRequest,
    cpuMsAt100: smallRec.cpuMsPerRequest,
    rowsAt10000: recommendedRows,
    rowsAt100: smallRows,
  };

  // The table in the scenarios' order (reads were measured first).
  rows.sort((a, b) => scenarios.findIndex((s) => s.name === a.scenario) - scenarios.findIndex((s) => s.name === b.scenario));
  const row = (name: string) => {
    const r = rows.find((x) => x.scenario === name);
    if (!r) throw new Error(`no row ${name}`);
    return r;
  };
  const cpu = (name: string, goal: number) => ({
    target: `${name}: service CPU ms/req <= ${goal}`,
    value: fmt(row(name).cpuMsPerRequest, 3),
    met: row(name).cpuMsPerRequest <= goal,
  });
  // Judged to one decimal: the counter also holds the statements of requests still in flight when
  // the run ends, which are not in the response count (0.01-0.09 a request here). The exact counts
  // are pinned by the statement-count tests.
  const statements = (name: string, goal: number) => ({
    target: `${name}: SQL statements/req <= ${goal}`,
    value: fmt(row(name).statementsPerRequest, 2),
    met: Math.round(row(name).statementsPerRequest * 10) / 10 <= goal,
  });
  const addressReads = new Set([scenarios.byName.userAddresses.name, scenarios.byName.contactAddresses.name]);
  const targets = [
    { target: 'reads compared with a raw baseline >= 6', value: String(comparisons.length), met: comparisons.length >= 6 },
    ...comparisons.map((c) => {
      const goal = addressReads.has(c.scenario) ? GOAL.addressRestOverRaw : GOAL.restOverRaw;
      const what = c.graphqlRps === null ? 'service' : 'REST';
      return {
        target: `${c.scenario}: ${what} / raw Koa+pg req/s >= ${goal}`,
        value: `${fmt(c.serviceOverRaw, 2)} (${c.serviceRps} / ${c.rawRps})`,
        met: c.serviceOverRaw >= goal,
      };
    }),
    cpu('events page 1', GOAL.listCpuMs),
    cpu('sent notifications', GOAL.listCpuMs),
    statements('library page (GraphQL)', GOAL.libraryStatements),
    cpu('library page (GraphQL)', GOAL.libraryCpuMs),
    statements('createSmartEntry (URL)', GOAL.createEntryStatements),
    cpu('createSmartEntry (URL)', GOAL.createEntryCpuMs),
    {
      target: `recommended entities at 10,000 companies: PostgreSQL CPU ms/req <= ${GOAL.recommendedPostgresCpuMs}`,
      value: `${fmt(bigRec.postgresCpuMsPerRequest, 3)} (${recommendedRows} companies returned)`,
      met: bigRec.postgresCpuMsPerRequest <= GOAL.recommendedPostgresCpuMs,
    },
    {
      ...cpu(recommended.name, GOAL.recommendedCpuMs),
      target: `recommended entities at 10,000 companies: service CPU ms/req <= ${GOAL.recommendedCpuMs}`,
    },
    statements('updateUserProfile', GOAL.profileStatements),
    ...tail.map((t) => ({
      target: `${t.scenario}: p99 at 70% of peak (${t.rate} req/s) / raw handler's p99 at that rate <= ${GOAL.p99OverRawP99}`,
      value: `${fmt(t.ratio, 2)} (${t.p99} / ${t.rawP99} ms; p50 ${t.p50} / ${t.rawP50} ms; service event loop delay p99 ${t.loopDelayP99Ms} ms, max ${t.loopDelayMaxMs} ms; GC ${t.gcMsPerSecond} ms/s)`,
      met: t.ratio <= GOAL.p99OverRawP99,
    })),
    {
      target: `25 MB upload raises RSS by <= ${GOAL.uploadRiseMb} MB`,
      value: `${fmt(uploadRise)} MB (status ${uploadStatus}, ${fmt(rssBefore)} -> ${fmt(uploadPeak)} MB)`,
      met: uploadStatus === 200 && uploadRise <= GOAL.uploadRiseMb,
    },
    {
      target: `peak RSS under the bench <= ${GOAL.peakRssMb} MB`,
      value: `${fmt(peakOverall.peakRssMb)} MB (${peakOverall.scenario}; ${fmt(rssAtStart)} MB after start-up and sign-in)`,
      met: peakOverall.peakRssMb <= GOAL.peakRssMb,
    },
  ];

  const machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    postgres: await serverVersion(bigUrl),
  };
  const settings = {
    duration: DURATION,
    runDuration: RUN_DURATION,
    runs: RUNS,
    connections: CONNECTIONS,
    warmup: WARMUP,
    tailTurns: TAIL_TURNS,
    tailLoad: TAIL_LOAD,
    service: serviceEnv,
  };
  const opt = (n: number | null, d: number) => (n === null ? '-' : fmt(n, d));
  const md = [
    table(rows),
    '',
    `| read (median of ${RUNS} interleaved runs) | SQL statements (service / raw) | service req/s | GraphQL POST req/s | raw req/s | service/raw | ` +
      'REST/GraphQL | service CPU ms/req | GraphQL CPU ms/req | raw CPU ms/req | PostgreSQL CPU ms/req (service / raw) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...comparisons.map(
      (c) =>
        `| ${c.scenario} | ${fmt(c.serviceStatements, 2)} / ${c.statements} | ${c.serviceRps} | ${c.graphqlRps ?? '-'} | ${c.rawRps} | ` +
        `${fmt(c.serviceOverRaw, 2)} | ${opt(c.serviceOverGraphql, 2)} | ${fmt(c.serviceCpuMs, 3)} | ${opt(c.graphqlCpuMs, 3)} | ` +
        `${fmt(c.rawCpuMs, 3)} | ${fmt(c.postgresCpuMs, 3)} / ${fmt(c.rawPostgresCpuMs, 3)} |`,
    ),
    '',
    `recommended entities, 10,000 / 100 companies: p50 ${scaling.p50At10000} / ${scaling.p50At100} ms, ` +
      `service CPU ${fmt(scaling.cpuMsAt10000, 3)} / ${fmt(scaling.cpuMsAt100, 3)} ms/req, ${recommendedRows} / ${smallRows} companies returned`,
    '',
    '| target (issue 18) | measured | met |',
    '|---|---|---|',
    ...targets.map((t) => `| ${t.target} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`),
  ].join('\n');
  console.log(`\n${md}\n`);
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  fs.writeFileSync(
    path.join(dir, `${stamp}.json`),
    JSON.stringify(
      {
        machine,
        settings,
        rows,
        comparisons,
        tail,
        scaling,
        rssAtStart,
        upload: { rssBefore, uploadPeak, uploadRise, uploadStatus },
        targets,
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(dir, `${stamp}.md`), md + '\n');
  console.log(
    `machine: ${JSON.stringify(machine)}\nwritten bench/results/${stamp}.json and .md in ${Math.round((Date.now() - started) / 1000)} s`,
  );
}

async function serverVersion(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('show server_version')).rows[0].server_version;
  } finally {
    await client.end();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
