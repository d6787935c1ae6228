// Benchmark plumbing: spawn a server process, drive it with autocannon, read its metrics
// (requests, SQL statements) and its memory.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';

export interface Spawned {
  child: ChildProcess;
  port: number;
  /** The application_name its PostgreSQL connections carry (PGAPPNAME), unique to this process. */
  applicationName: string;
  stop(): Promise<void>;
}

/** The V8 flags `npm start` runs the service with (package.json config.nodeFlags). */
export const SERVICE_NODE_FLAGS: string[] = JSON.parse(
  fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8'),
).config.nodeFlags.split(' ');

/** A loopback port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <entry>` on a free loopback port and resolves once `readyPath` answers 200.
 * Readiness is polled rather than read from the log: under LOG_LEVEL=warn the service does
 * not print its info-level "listening" line.
 */
/** Every child still running: killed if the bench itself exits early (a failed scenario). */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function spawnServer(entry: string, env: NodeJS.ProcessEnv, readyPath = '/readyz', nodeArgs: string[] = []): Promise<Spawned> {
  const port = await freePort();
  const applicationName = `pronet-bench-${process.pid}-${port}`;
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', PGAPPNAME: applicationName },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  // The service logs JSON to stdout; under LOG_LEVEL=warn only problems, which belong in the bench output.
  child.stdout.pipe(process.stderr);
  let exited: number | null | undefined;
  child.once('exit', (code, signal) => {
    exited = code;
    if (!stopping) console.error(`${entry} exited unexpectedly: code ${code}, signal ${signal}`);
  });
  let stopping = false;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`${entry} exited with ${exited} before it was ready`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${entry} was not ready within 60 s`);
    }
    try {
      if ((await fetch(`http://127.0.0.1:${port}${readyPath}`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    port,
    applicationName,
    stop: () =>
      new Promise<void>((done) => {
        stopping = true;
        if (exited !== undefined) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}

/** Resets the kernel's peak-RSS mark for pid (Linux: clear_refs 5). False when not possible. */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

function statusKb(pid: number, field: 'VmHWM' | 'VmRSS'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
export const peakRssMb = (pid: number) => mb(statusKb(pid, 'VmHWM'));
export const rssMb = (pid: number) => mb(statusKb(pid, 'VmRSS'));

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** CPU time (user + system) a process has used, in ms (Linux /proc). */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

/** CPU time used so far by each PostgreSQL process of this machine, in ms, by pid. */
export function postgresCpu(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.includes('(postgres)')) out.set(Number(entry), cpuMs(Number(entry)));
    } catch {
      /* the process ended meanwhile */
    }
  }
  return out;
}

/** CPU time used so far by every PostgreSQL process of this machine together, in ms. */
export function postgresCpuMs(): number {
  let total = 0;
  for (const ms of postgresCpu().values()) total += ms;
  return total;
}

/** Whose PostgreSQL backends a measurement counts: one process's connections to one database. */
export interface Backends {
  databaseUrl: string;
  /** Spawned.applicationName. */
  applicationName: string;
}

/** The server processes (backends) serving those connections now. */
async function backendsOf({ databaseUrl, applicationName }: Backends): Promise<Set<number>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and application_name = $1',
      [applicationName],
    );
    return new Set(rows.map((r) => r.pid));
  } finally {
    await client.end();
  }
}

/**
 * Runs `work` and returns its result with the CPU ms per request the process and PostgreSQL spent
 * on it. PostgreSQL's is what its processes alive at the end used since the start (one that ended
 * meanwhile would otherwise count negative); with `of`, only the backends of that process's
 * connections, so that other work on the same server (tests, other bench runs) is left out.
 */
export async function withCpu<T extends { requests: number }>(
  pid: number,
  work: () => Promise<T>,
  of?: Backends,
): Promise<T & { cpuMsPerRequest: number; postgresCpuMsPerRequest: number }> {
  const [c0, p0] = [cpuMs(pid), postgresCpu()];
  const r = await work();
  const [c1, p1] = [cpuMs(pid), postgresCpu()];
  const backends = of ? await backendsOf(of) : undefined;
  let postgres = 0;
  for (const [p, ms] of p1) if (!backends || backends.has(p)) postgres += ms - (p0.get(p) ?? 0);
  const per = (ms: number) => (r.requests ? Math.round((ms / r.requests) * 1000) / 1000 : 0);
  return { ...r, cpuMsPerRequest: per(c1 - c0), postgresCpuMsPerRequest: per(postgres) };
}

/** The URL of database `name` on the server `base` names (DATABASE_URL with another database). */
export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The bearer token the bench reads the service's /metrics with (production serves it only with one). */
export const BENCH_METRICS_TOKEN = 'bench-metrics';

/** The service's /metrics text. Reading it also starts a new event-loop delay window (prom-client resets it). */
export async function metricsText(port: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
}

/** Sum of every series of a metric in a /metrics text. */
export function sumOf(text: string, name: string): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(name) && (line[name.length] === ' ' || line[name.length] === '{')) total += Number(line.split(' ').pop());
  }
  return total;
}

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request (unique names for creating scenarios). */
  setupRequest?: (req: autocannon.Request) => autocannon.Request;
  connections: number;
  duration: number;
  /** Fixed, evenly paced request rate (for the latency-at-70%-of-peak check): see paced(). */
  overallRate?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Responses received (2xx and others). */
  requests: number;
  non2xx: number;
  errors: number;
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  if (spec.overallRate) return paced(spec, spec.overallRate);
  const r = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    requests: spec.setupRequest ? [{ setupRequest: spec.setupRequest }] : undefined,
    connections: spec.connections,
    duration: spec.duration,
    overallRate: spec.overallRate,
  });
  // Responses over the run's own length: autocannon's per-second average is off for runs of a
  // few seconds (it averages whole one-second samples).
  return {
    rps: r.duration ? Math.round((r['2xx'] + r.non2xx) / r.duration) : 0,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r['2xx'] + r.non2xx,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** The p-th percentile of sorted values (nearest rank), to 0.01. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] * 100) / 100;
}

/**
 * Open-loop load at a fixed rate: request i is due at start + i/rate, sent on a keep-alive pool
 * of `connections` sockets, and its latency runs from when it was due (so waiting for a free
 * socket counts, no coordinated omission). autocannon's overallRate is not used here: it sends
 * each second's quota back to back and then idles, which measures bursts at full load.
 * Latencies are in ms with 0.01 ms resolution.
 */
export async function paced(spec: LoadSpec, rate: number): Promise<LoadResult> {
  return summarize([await pacedSamples(spec, rate)]);
}

/** What one paced run saw: each response's latency (ms, unsorted), the run's length and its failures. */
export interface PacedSamples {
  latencies: number[];
  seconds: number;
  non2xx: number;
  errors: number;
}

/** One result from several paced runs at the same rate (chunks of one measurement, interleaved with another's). */
export function summarize(runs: PacedSamples[]): LoadResult {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const seconds = runs.reduce((t, r) => t + r.seconds, 0);
  return {
    rps: seconds ? Math.round(latencies.length / seconds) : 0,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: latencies.length,
    non2xx: runs.reduce((t, r) => t + r.non2xx, 0),
    errors: runs.reduce((t, r) => t + r.errors, 0),
  };
}

/** One request as the open- and closed-loop drivers send it. */
export interface Outgoing {
  url: URL;
  method: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

/**
 * A keep-alive agent for the drivers, that closes an idle connection before the service does.
 * The service announces `Keep-Alive: timeout=5` and closes a connection idle for 6 s; Node's agent
 * applies that hint only to lower a `timeout` of its own, so an agent made with `keepAlive` alone
 * keeps idle sockets forever, and a request written on one as the service closes it meets
 * ECONNRESET (the soak's errors; 124 of 600 requests in a bare-Node test that idles each socket
 * for the server's timeout). `timeout` is Node's global agent's (5 s); the hint makes it 4 s.
 */
export function keepAliveAgent(maxSockets?: number): http.Agent {
  return new http.Agent({ keepAlive: true, timeout: 5_000, ...(maxSockets && { maxSockets }) });
}

/** Sends `o` on `agent`: its status (0 when the socket failed) and its body's text, when asked or not 2xx (else ''). */
export function send(agent: http.Agent, o: Outgoing, keepBody = false): Promise<{ status: number; body: string }> {
  return new Promise((done) => {
    const req = http.request(
      {
        agent,
        host: o.url.hostname,
        port: o.url.port,
        path: o.url.pathname + o.url.search,
        method: o.method,
        headers: { ...o.headers, ...(o.body && { 'content-length': Buffer.byteLength(o.body) }) },
      },
      (res) => {
        let body = '';
        if (keepBody || res.statusCode! < 200 || res.statusCode! > 299)
          res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        else res.resume();
        res.on('end', () => done({ status: res.statusCode!, body }));
      },
    );
    // Status 0: no answer. The body says why, and whether the request went out on a kept-alive
    // connection the service may have been closing as it was written (a client may retry those).
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ status: 0, body: `${err.code ?? err.message}${req.reusedSocket ? ' on a reused connection' : ''}` }),
    );
    req.end(o.body);
  });
}

/**
 * The open-loop schedule: call i is due at start + i/rate, for `duration` seconds; `fire(i, from)`
 * sends it, `from` being when it was due, or when it was sent if that was earlier (the loop sends
 * up to 1 ms ahead rather than sleep for less than a timer's resolution). Answers the seconds
 * until the last call settled.
 */
export async function openLoop(rate: number, duration: number, fire: (i: number, from: number) => Promise<void>): Promise<number> {
  const total = Math.max(1, Math.round(rate * duration));
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    pending.push(fire(i, Math.min(due, performance.now())));
  }
  await Promise.all(pending);
  return (performance.now() - start) / 1000;
}

/** The open-loop run of paced(), answering its samples rather than their percentiles. */
export async function pacedSamples(spec: LoadSpec, rate: number): Promise<PacedSamples> {
  const agent = keepAliveAgent(spec.connections);
  const out: Outgoing = { url: new URL(spec.url), method: spec.method ?? 'GET', headers: spec.headers, body: spec.body };
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const seconds = await openLoop(rate, spec.duration, async (_, from) => {
    const { status } = await send(agent, out);
    if (!status) return void (errors += 1);
    latencies.push(performance.now() - from);
    if (status < 200 || status > 299) non2xx += 1;
  });
  agent.destroy();
  return { latencies, seconds, non2xx, errors };
}

/**
 * The median of each run's ratio, top[k] / bottom[k], where run k of each was measured seconds
 * apart: a drift of the machine's speed within a read moves it less than a ratio of medians, which
 * stands in when the run counts differ (a side restarted). Null when either side has no runs.
 */
export function medianRatio(top: number[], bottom: number[]): number | null {
  if (!top.length || !bottom.length) return null;
  return top.length === bottom.length ? median(top.map((t, k) => t / bottom[k])) : median(top) / median(bottom);
}

/** The median: of an even count, the mean of the two middle values (of two runs, not the larger). */
export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
