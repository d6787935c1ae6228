// npm run bench: seeds (once) two bench databases on the PostgreSQL server of DATABASE_URL,
// starts the compiled service against them as a child process (LOG_LEVEL=warn, scheduler off)
// and drives it with autocannon over loopback. Prints the results table and the targets, and
// writes bench/results/<timestamp>.json and .md.
//
// Environment: DATABASE_URL (required, any database on the server: the bench databases are
// created next to it), BENCH_DURATION (seconds a measurement, 5), BENCH_RUNS (runs of each
// ratio measurement, median taken, 3), BENCH_CONNECTIONS (10), BENCH_WARMUP (seconds, 1).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ROUTES } from '../src/rest/routes';
import { compileRoutes, requestVariables, type CompiledRoute } from '../src/rest/executor';
import { createSchema } from '../src/graphql/schema';
import { benchScenarios, benchServiceEnv, DIRECTORY, signIn, userHeaders, type Scenario } from './scenarios';
import { captureStatements, type CaptureRequest } from './capture';
import {
  load,
  median,
  metricsText,
  peakRssMb,
  sumOf,
  resetPeakRss,
  rssMb,
  spawnServer,
  SERVICE_NODE_FLAGS,
  withCpu,
  type LoadResult,
  type LoadSpec,
  type Spawned,
} from './harness';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const ROOT = path.resolve(__dirname, '..', '..');
const SERVER_JS = path.join(ROOT, 'dist', 'src', 'server.js');
const RAW_JS = path.join(ROOT, 'dist', 'bench', 'raw-server.js');
const SEED_JS = path.join(ROOT, 'dist', 'scripts', 'seed-bench.js');
const MB = 1024 * 1024;

function databaseUrl(base: string, name: string): string {
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

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
  /** CPU time of every PostgreSQL process per response. */
  postgresCpuMsPerRequest: number;
  loopDelayMaxMs: number;
  loopDelayP99Ms: number;
  gcMsPerSecond: number;
}

function specOf(base: string, s: Scenario, extra: Partial<LoadSpec> = {}): LoadSpec {
  const body = s.form ? new URLSearchParams(s.form).toString() : s.body === undefined ? undefined : JSON.stringify(s.body);
  const headers = s.form ? { 'content-type': 'application/x-www-form-urlencoded' } : s.headers;
  return {
    url: base + s.path,
    method: s.method,
    headers,
    body,
    setupRequest: s.setupRequest,
    connections: CONNECTIONS,
    duration: DURATION,
    ...extra,
  };
}

/** One measured run: statements per request from db_statements_total, peak RSS since reset. */
async function measure(server: Spawned, s: Scenario, extra: Partial<LoadSpec> = {}): Promise<Row & LoadResult> {
  const base = `http://127.0.0.1:${server.port}`;
  if (WARMUP > 0 && !extra.overallRate) await load(specOf(base, s, { duration: WARMUP }));
  resetPeakRss(server.child.pid!);
  const before = await metricsText(server.port);
  const started = Date.now();
  const r = await withCpu(server.child.pid!, () => load(specOf(base, s, extra)));
  const after = await metricsText(server.port);
  const seconds = (Date.now() - started) / 1000;
  const delta = (name: string) => sumOf(after, name) - sumOf(before, name);
  return {
    scenario: s.name,
    ...r,
    statementsPerRequest: r.requests ? Math.round((delta('db_statements_total') / r.requests) * 100) / 100 : 0,
    peakRssMb: peakRssMb(server.child.pid!),
    // Over the run: the event loop's longest and 99th-percentile delay (prom-client samples it
    // every 20 ms) and the time spent in garbage collection.
    loopDelayMaxMs: Math.round(sumOf(after, 'nodejs_eventloop_lag_max_seconds') * 1000),
    loopDelayP99Ms: Math.round(sumOf(after, 'nodejs_eventloop_lag_p99_seconds') * 1000),
    gcMsPerSecond: Math.round((delta('nodejs_gc_duration_seconds_sum') * 1000) / seconds),
  };
}

/** GraphQL POST of a REST route's own document with the variables the route would build. */
let compiledRoutes: CompiledRoute[] = [];

function graphqlTwin(s: Scenario, operation: string, params: Record<string, string>, query: Record<string, string>): Scenario {
  const route = compiledRoutes.find((r) => r.def.operation === operation);
  if (!route) throw new Error(`no route ${operation}`);
  const variables = requestVariables(route, { params, query, body: s.body });
  return {
    ...s,
    name: `${s.name} (GraphQL)`,
    method: 'POST',
    path: '/graphql',
    body: { query: route.def.document, variables, operationName: operation },
  };
}

/** Streams a multipart PDF-looking body of `size` bytes from one reused block. */
function upload(port: number, token: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const boundary = '----pronetbench';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const block = Buffer.alloc(64 * 1024, 0x20);
    const req = http.request(`http://127.0.0.1:${port}/rest/smartlib/upload/file`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'x-service-authtoken': token,
        'content-length': head.length + size - 9 + tail.length,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.write(head);
    let left = size - 9;
    const pump = () => {
      while (left > 0) {
        const n = Math.min(block.length, left);
        left -= n;
        if (!req.write(block.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end(tail);
    };
    pump();
  });
}

const fmt = (n: number, d = 1) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

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
  const server = await spawnServer(SERVER_JS, { ...serviceEnv, DATABASE_URL: bigUrl }, '/readyz', SERVICE_NODE_FLAGS);
  const base = `http://127.0.0.1:${server.port}`;
  const olivia = await signIn(base, 'olivia@demo.example', 'Demo-Passw0rd!');
  const cara = await signIn(base, 'cara@demo.example', 'Demo-Passw0rd!');
  const pat = await signIn(base, 'pat@demo.example', 'Demo-Passw0rd!');
  const rssAtStart = rssMb(server.child.pid!);
  const run = Date.now().toString(36);

  const scenarios = benchScenarios({ olivia, cara, pat }, run);
  const { recommended, userAddresses, contactAddresses } = scenarios.byName;
  // Sanity: every scenario answers 200 once before it is measured.
  for (const s of scenarios) {
    const spec = specOf(base, s);
    const body = s.setupRequest ? s.setupRequest({}).body : spec.body;
    const res = await fetch(spec.url, { method: spec.method, headers: spec.headers, body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${text.slice(0, 300)}`);
    if (text.includes('"errors"')) throw new Error(`${s.name}: ${text.slice(0, 300)}`);
  }
  const recommendedRows = (
    (await (
      await fetch(base + recommended.path, { method: 'POST', headers: recommended.headers, body: JSON.stringify(recommended.body) })
    ).json()) as unknown[]
  ).length;

  const rows: Row[] = [];
  const tail: {
    scenario: string;
    peakRps: number;
    rate: number;
    p50: number;
    p99: number;
    ratio: number;
    loopDelayMaxMs: number;
    loopDelayP99Ms: number;
    gcMsPerSecond: number;
  }[] = [];
  for (const s of scenarios) {
    const r = await measure(server, s);
    rows.push(r);
    console.log(
      `${s.name}: ${r.rps} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.statementsPerRequest} SQL/req, CPU ${r.cpuMsPerRequest} + PostgreSQL ${r.postgresCpuMsPerRequest} ms/req, ${r.peakRssMb} MB${r.non2xx + r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}`,
    );
    if (s.read) {
      const rate = Math.max(1, Math.round(r.rps * 0.7));
      const at70 = await measure(server, s, { overallRate: rate });
      tail.push({
        scenario: s.name,
        peakRps: r.rps,
        rate,
        p50: at70.p50,
        p99: at70.p99,
        ratio: at70.p99 / Math.max(at70.p50, 0.01),
        loopDelayMaxMs: at70.loopDelayMaxMs,
        loopDelayP99Ms: at70.loopDelayP99Ms,
        gcMsPerSecond: at70.gcMsPerSecond,
      });
    }
  }

  // Ratios: REST, the same operation as a GraphQL POST, and the raw Koa + pg replay of the
  // statements the service sends for it; interleaved, median of RUNS.
  compiledRoutes = compileRoutes(await createSchema(), ROUTES);
  const ratioPairs: [Scenario, string, Record<string, string>, Record<string, string>][] = [
    [userAddresses, 'getUserAddresses', {}, {}],
    [contactAddresses, 'getAddressesForDirectoryContact', { directoryUUID: DIRECTORY }, {}],
    [recommended, 'getRecommendedEntitiesForUser', {}, {}],
  ];
  const captureReqs: CaptureRequest[] = ratioPairs.map(([s], i) => ({
    name: `s${i}`,
    method: s.method,
    path: s.path,
    headers: s.headers ?? {},
    body: s.body === undefined ? undefined : JSON.stringify(s.body),
  }));
  const captured = await captureStatements(bigUrl, captureReqs, serviceEnv);
  const scenariosFile = path.join(os.tmpdir(), `pronet-bench-raw-${run}.json`);
  fs.writeFileSync(scenariosFile, JSON.stringify(captured));
  const raw = await spawnServer(RAW_JS, { DATABASE_URL: bigUrl, RAW_SCENARIOS: scenariosFile }, '/ready');
  const ratios = [];
  try {
    for (const [i, [s, operation, params, query]] of ratioPairs.entries()) {
      const gql = graphqlTwin(s, operation, params, query);
      const rawScenario: Scenario = { name: `${s.name} (raw)`, method: 'GET', path: `/s${i}`, read: true };
      const rest: number[] = [],
        g: number[] = [],
        rw: number[] = [],
        p50: number[] = [];
      const restCpu: number[] = [],
        rawCpu: number[] = [],
        pgCpu: number[] = [];
      for (let k = 0; k < RUNS; k++) {
        const a = await measure(server, s);
        const b = await measure(server, gql);
        const c = await withCpu(raw.child.pid!, () => load(specOf(`http://127.0.0.1:${raw.port}`, rawScenario)));
        if (a.non2xx + b.non2xx + c.non2xx) throw new Error(`${s.name}: non-2xx answers in the ratio runs`);
        rest.push(a.rps);
        g.push(b.rps);
        rw.push(c.rps);
        p50.push(a.p50);
        restCpu.push(a.cpuMsPerRequest);
        rawCpu.push(c.cpuMsPerRequest);
        pgCpu.push(a.postgresCpuMsPerRequest, c.postgresCpuMsPerRequest);
      }
      ratios.push({
        scenario: s.name,
        statements: captured[i].statements.length,
        restRps: median(rest),
        graphqlRps: median(g),
        rawRps: median(rw),
        restP50: median(p50),
        restOverRaw: median(rest) / median(rw),
        restOverGraphql: median(rest) / median(g),
        restCpuMs: median(restCpu),
        rawCpuMs: median(rawCpu),
        postgresCpuMs: median(pgCpu),
      });
      console.log(`${s.name}: REST ${median(rest)} req/s, GraphQL ${median(g)}, raw ${median(rw)}`);
    }
  } finally {
    await raw.stop();
    fs.rmSync(scenariosFile, { force: true });
  }

  const peakOverall = Math.max(...rows.map((r) => r.peakRssMb));
  await server.stop();

  // Recommended entities at 100 companies, against the small database.
  const small = await spawnServer(SERVER_JS, { ...serviceEnv, DATABASE_URL: smallUrl }, '/readyz', SERVICE_NODE_FLAGS);
  const smallP50: number[] = [],
    smallRps: number[] = [];
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
    for (let k = 0; k < RUNS; k++) {
      const r = await measure(small, s);
      smallP50.push(r.p50);
      smallRps.push(r.rps);
    }
  } finally {
    await small.stop();
  }
  const uploadRise = Math.round((uploadPeak - rssBefore) * 10) / 10;
  const bigRec = ratios.find((r) => r.scenario === recommended.name)!;
  const scaling = {
    p50At10000: bigRec.restP50,
    p50At100: median(smallP50),
    rpsAt10000: bigRec.restRps,
    rpsAt100: median(smallRps),
    rowsAt10000: recommendedRows,
    rowsAt100: smallRows,
  };
  const scalingRatio = scaling.p50At10000 / Math.max(scaling.p50At100, 1);

  const targets = [
    ...ratios.map((r) => ({ target: `${r.scenario}: REST / raw Koa+pg >= 0.6`, value: fmt(r.restOverRaw, 2), met: r.restOverRaw >= 0.6 })),
    ...ratios.map((r) => ({
      target: `${r.scenario}: REST / GraphQL POST >= 1.0`,
      value: fmt(r.restOverGraphql, 2),
      met: r.restOverGraphql >= 1.0,
    })),
    {
      target: 'recommended entities p50 at 10,000 / at 100 companies <= 2',
      value: `${fmt(scalingRatio, 2)} (${scaling.p50At10000} ms / ${scaling.p50At100} ms; ${recommendedRows} vs ${smallRows} companies returned)`,
      met: scalingRatio <= 2,
    },
    ...tail.map((t) => ({
      target: `${t.scenario}: p99 / p50 <= 3 at 70% of peak (${t.rate} req/s)`,
      value: `${fmt(t.ratio, 2)} (${t.p99} / ${t.p50} ms; event loop delay p99 ${t.loopDelayP99Ms} ms, max ${t.loopDelayMaxMs} ms; GC ${t.gcMsPerSecond} ms/s)`,
      met: t.ratio <= 3,
    })),
    {
      target: 'peak RSS under load < 300 MB',
      value: `${fmt(peakOverall)} MB (${rows.find((r) => r.peakRssMb === peakOverall)?.scenario}; ${fmt(rssAtStart)} MB after start-up and sign-in)`,
      met: peakOverall < 300,
    },
    {
      target: '25 MB upload raises RSS by <= 10 MB',
      value: `${fmt(uploadRise)} MB (status ${uploadStatus}, ${fmt(rssBefore)} -> ${fmt(uploadPeak)} MB)`,
      met: uploadStatus === 200 && uploadRise <= 10,
    },
  ];

  const machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    postgres: await serverVersion(bigUrl),
  };
  const settings = { duration: DURATION, runs: RUNS, connections: CONNECTIONS, warmup: WARMUP, service: serviceEnv };
  const md = [
    table(rows),
    '',
    '| read (REST, median of ' +
      RUNS +
      ') | SQL statements | REST req/s | GraphQL req/s | raw req/s | REST/raw | REST/GraphQL | REST CPU ms/req | raw CPU ms/req | PostgreSQL CPU ms/req |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...ratios.map(
      (r) =>
        `| ${r.scenario} | ${r.statements} | ${r.restRps} | ${r.graphqlRps} | ${r.rawRps} | ${fmt(r.restOverRaw, 2)} | ${fmt(r.restOverGraphql, 2)} | ${fmt(r.restCpuMs, 3)} | ${fmt(r.rawCpuMs, 3)} | ${fmt(r.postgresCpuMs, 3)} |`,
    ),
    '',
    '| target | measured | met |',
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
      { machine, settings, rows, tail, ratios, scaling, rssAtStart, upload: { rssBefore, uploadPeak, uploadRise, uploadStatus }, targets },
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
