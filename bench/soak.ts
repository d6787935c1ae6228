// npm run bench -- --soak <minutes> [--soak-window <seconds>]: does the service hold for hours, not
// seconds (issue 57)? Starts the compiled service as the full run does, on the scale-1 bench
// database (`pronet_bench`, or the one DATABASE_URL names when its name starts with pronet_bench),
// opens live subscribers, finds the saturation of a mixed load (closed loop, concurrency doubled
// until throughput grows by less than 5%), then drives the same mix open-loop at 70% of it for the
// given minutes. Per window (5 minutes; --soak-window to shorten a check) it reports RSS and the V8
// heap used after a full collection, the event loop's delay (p99 and longest), the waits for a
// pooled database connection (db_pool_acquire_seconds), p99 per read, failures, and the service's
// CPU beside the bench's own and the machine's load average (a window that ends seconds behind its
// schedule did not get the rate: its latencies are queueing). Then it judges the last window
// against the second (the first warms up). Writes bench/results/<timestamp>-soak.json (`soak`
// beside `machine` and `settings`) and .md.
//
// The collection is forced through the V8 inspector, which the service is started with on a
// loopback port (a bench-only switch: the service has no endpoint that collects): one full
// collection at each window's end, after the window's figures are read, in the second or so the
// load pauses between windows, so that its pause falls on no measured request.
//
// The mix: each read of scenarios.ts in turn, and BENCH_SOAK_WRITE_SHARE (0.04) of the requests
// writes, in equal parts: createSmartEntry (URL), updateUserProfile, an address created (and then
// deleted, a second request, so that Pat stays under the 50 addresses a user keeps) and a
// BENCH_SOAK_UPLOAD_KB (16) file upload. The entries stay (library page's totalCount grows with
// them; the next bench run's seeding removes them). Live: BENCH_SOAK_SUBSCRIBERS (200) subscribers
// of notificationReceived, half graphql-ws and half SSE, signed in as the demo team's two members
// (at most 8 a token, under LIVE_MAX_CONNECTIONS_PER_TOKEN), and every BENCH_SOAK_NOTIFY seconds
// (30) Cara sends the team a notification, which must reach every subscriber within 10 s. The
// ramp's steps last BENCH_SOAK_RAMP seconds (10); BENCH_SOAK_LOAD (0.7) is the share of saturation.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { DEMO_COMPANIES, DEMO_TEAM_ID } from '../src/db/demo';
import { NOTIFICATION_RECEIVED_SUBSCRIPTION } from '../src/graphql/examples';
import { benchDatabase } from '../scripts/seed-bench';
import {
  cpuMs,
  metricsText,
  openLoop,
  peakRssMb,
  resetPeakRss,
  rssMb,
  send,
  spawnServer,
  sumOf,
  summarize,
  freePort,
  keepAliveAgent,
  SERVICE_NODE_FLAGS,
  type Outgoing,
} from './harness';
import { benchScenarios, benchServiceEnv, loadSpec, signIn, userHeaders, type Scenario } from './scenarios';
import { uploadBody, uploadParts } from './upload-rss';

const LOAD = Number(process.env.BENCH_SOAK_LOAD ?? 0.7);
const WRITE_SHARE = Number(process.env.BENCH_SOAK_WRITE_SHARE ?? 0.04);
const SUBSCRIBERS = Number(process.env.BENCH_SOAK_SUBSCRIBERS ?? 200);
const NOTIFY_SECONDS = Number(process.env.BENCH_SOAK_NOTIFY ?? 30);
const RAMP_SECONDS = Number(process.env.BENCH_SOAK_RAMP ?? 10);
const UPLOAD_BYTES = Number(process.env.BENCH_SOAK_UPLOAD_KB ?? 16) * 1024;
/** Live connections a token holds here (the service's LIVE_MAX_CONNECTIONS_PER_TOKEN is 10). */
const PER_TOKEN = 8;
/** How long a notification may take to reach every subscriber before the missing count as lost. */
const DELIVERY_MS = 10_000;
/** The targets (issue 57): the last window over the second. */
const GOAL = { memoryGrowth: 1.05, p99Growth: 1.2, poolWaitMs: 100 };
const ROOT = path.resolve(__dirname, '..', '..');
const SERVER_JS = path.join(ROOT, 'dist', 'src', 'server.js');
const MB = 1024 * 1024;
const DEMO_PASSWORD = 'Demo-Passw0rd!';

export interface SoakOptions {
  minutes: number;
  windowSeconds: number;
}

/** `--soak <minutes> [--soak-window <seconds>]`, or undefined without --soak. */
export function soakArgs(argv: string[]): SoakOptions | undefined {
  const at = argv.indexOf('--soak');
  if (at < 0) return undefined;
  const w = argv.indexOf('--soak-window');
  const options = { minutes: Number(argv[at + 1]), windowSeconds: w < 0 ? 300 : Number(argv[w + 1]) };
  if (!(options.minutes > 0) || !(options.windowSeconds > 0)) throw new Error('--soak needs minutes, and --soak-window seconds');
  return options;
}

/** The database the soak runs on: the one DATABASE_URL names if it is a bench database, else scale 1's. */
export function soakDatabase(serverUrl: string): string {
  const name = new URL(serverUrl).pathname.slice(1);
  return name.startsWith('pronet_bench') ? name : benchDatabase(1);
}

/** One request of the mix, named as its scenario; `then` makes a second from the first's answer. */
interface MixItem {
  name: string;
  read: boolean;
  out: () => Outgoing;
  then?: (body: string) => MixItem;
}

/** Latencies by request name, and failures (non-2xx or a socket error). */
class Tally {
  readonly latencies = new Map<string, number[]>();
  failures = 0;
  readonly examples: string[] = [];

  record(name: string, ms: number, status: number, body: string): void {
    if (status) {
      const list = this.latencies.get(name) ?? [];
      list.push(ms);
      this.latencies.set(name, list);
    }
    if (status >= 200 && status < 300) return;
    this.failures += 1;
    if (this.examples.length < 5) this.examples.push(`${name}: ${status || 'socket error'} ${body.slice(0, 200)}`);
  }

  get requests(): number {
    let n = 0;
    for (const list of this.latencies.values()) n += list.length;
    return n;
  }
}

/** Sends `item` (and its follow-up), timing each from `from`. */
async function fire(agent: http.Agent, item: MixItem, from: number, tally: Tally): Promise<void> {
  const r = await send(agent, item.out(), !!item.then);
  tally.record(item.name, performance.now() - from, r.status, r.body);
  if (item.then && r.status >= 200 && r.status < 300) await fire(agent, item.then(r.body), performance.now(), tally);
}

/** The requests of the mix, in the order they are sent, over and over: rounds of every read with the writes spread among them. */
function mixCycle(base: string, scenarios: Scenario[], pat: string, olivia: string, run: string): MixItem[] {
  const item = (s: Scenario): MixItem => {
    const spec = loadSpec(base, s, 1, 1);
    const url = new URL(spec.url);
    const body = () => (s.setupRequest ? (s.setupRequest({}).body as string) : spec.body);
    return { name: s.name, read: s.read, out: () => ({ url, method: spec.method!, headers: spec.headers, body: body() }) };
  };
  const reads = scenarios.filter((s) => s.read).map(item);
  const write = (name: string) => item(scenarios.find((s) => s.name === name)!);
  let n = 0;
  const addresses = new URL('/rest/user/addresses', base);
  const upload = uploadParts(olivia);
  const uploadBytes = uploadBody(upload, UPLOAD_BYTES);
  const writes: MixItem[] = [
    write('createSmartEntry (URL)'),
    write('updateUserProfile'),
    {
      name: 'address create',
      read: false,
      out: () => ({
        url: addresses,
        method: 'POST',
        headers: userHeaders(pat),
        body: JSON.stringify({ typeCode: 'O', name: `Soak ${run} ${++n}`, city: 'Sydney' }),
      }),
      then: (body) => ({
        name: 'address delete',
        read: false,
        out: () => ({
          url: new URL(`/rest/user/addresses/${(JSON.parse(body) as { uuid: string }).uuid}`, base),
          method: 'DELETE',
          headers: { 'x-service-authtoken': pat },
        }),
      }),
    },
    {
      name: `upload (${UPLOAD_BYTES / 1024} KB)`,
      read: false,
      out: () => ({ url: new URL(upload.path, base), method: 'POST', headers: upload.headers, body: uploadBytes }),
    },
  ];
  // Rounds of reads such that the writes are WRITE_SHARE of the cycle; write j after round j*rounds/writes.
  const rounds = Math.max(1, Math.round((writes.length / WRITE_SHARE - writes.length) / reads.length));
  const cycle: MixItem[] = [];
  for (let r = 0; r < rounds; r++) {
    cycle.push(...reads);
    cycle.push(...writes.filter((_, j) => Math.floor((j * rounds) / writes.length) === r));
  }
  return cycle;
}

/** One live subscriber: the messages of the notifications it received. */
interface Subscriber {
  received: Set<string>;
  close(): void;
}

/** A graphql-ws subscriber (the graphql-transport-ws protocol, spoken directly); resolves once subscribed. */
function socketSubscriber(base: string, token: string, onDrop: (why: string) => void): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const received = new Set<string>();
    let closing = false;
    const close = () => {
      closing = true;
      ws.close();
    };
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-service-authtoken': token } })));
    ws.on('message', (raw) => {
      const msg = JSON.parse((raw as Buffer).toString('utf8'));
      if (msg.type === 'ping') ws.send(JSON.stringify({ type: 'pong' }));
      if (msg.type === 'connection_ack') {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: NOTIFICATION_RECEIVED_SUBSCRIPTION } }));
        resolve({ received, close });
      }
      if (msg.type === 'next') received.add(msg.payload.data?.notificationReceived?.message);
      if (msg.type === 'error') onDrop(`graphql-ws error: ${JSON.stringify(msg.payload)}`);
    });
    ws.on('error', reject);
    ws.on('close', (code, reason) => {
      if (!closing) onDrop(`graphql-ws closed: ${code} ${reason.toString()}`);
      reject(new Error(`graphql-ws closed before it was acknowledged: ${code}`));
    });
  });
}

/** A graphql-sse subscriber (distinct connections mode); resolves once its stream is open. */
function streamSubscriber(base: string, token: string, onDrop: (why: string) => void): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const received = new Set<string>();
    let closing = false;
    const req = http.request(`${base}/graphql/stream`, {
      method: 'POST',
      agent: false,
      headers: { accept: 'text/event-stream', ...userHeaders(token) },
    });
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`event stream: ${res.statusCode}`));
      resolve({
        received,
        close: () => {
          closing = true;
          req.destroy();
        },
      });
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (/^event: next$/m.test(block) && data) received.add(JSON.parse(data).data?.notificationReceived?.message);
        }
      });
      res.on('close', () => {
        if (!closing) onDrop('event stream ended');
      });
    });
    req.on('error', (err) => {
      if (!closing) reject(err);
    });
    req.end(JSON.stringify({ query: NOTIFICATION_RECEIVED_SUBSCRIPTION }));
  });
}

/** A session of the service's V8 inspector: a full collection, then the heap used. */
async function inspector(port: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const waiting = new Map<number, (m: { result?: unknown; error?: { message: string } }) => void>();
  ws.on('message', (raw) => {
    const m = JSON.parse((raw as Buffer).toString('utf8'));
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  let id = 0;
  const call = <T>(method: string) =>
    new Promise<T>((resolve, reject) => {
      waiting.set(++id, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result as T)));
      ws.send(JSON.stringify({ id, method }));
    });
  return {
    async heapAfterGcMb(): Promise<number> {
      await call('HeapProfiler.collectGarbage');
      return round((await call<{ usedSize: number }>('Runtime.getHeapUsage')).usedSize / MB, 1);
    },
    close: () => ws.close(),
  };
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** Per bucket bound (seconds), the count of a label-less histogram in a /metrics text. */
function buckets(text: string, name: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const m of text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"\\} (\\S+)$`, 'gm')))
    out.set(m[1] === '+Inf' ? Infinity : Number(m[1]), Number(m[2]));
  return out;
}

/** Pool waits between two /metrics texts: how many, how many over the goal, their mean, and a bound on the longest (its bucket's). */
function poolWaits(before: string, after: string) {
  const name = 'db_pool_acquire_seconds';
  const [a, b] = [buckets(before, name), buckets(after, name)];
  const grew = [...b].map(([le, n]) => ({ le, n: n - (a.get(le) ?? 0) })).sort((x, y) => x.le - y.le);
  const count = grew.at(-1)?.n ?? 0;
  const within = (ms: number) => grew.find((g) => Math.round(g.le * 1000) === ms)?.n ?? 0;
  const seconds = sumOf(after, `${name}_sum`) - sumOf(before, `${name}_sum`);
  const longest = grew.find((g) => g.n === count)?.le ?? 0;
  return {
    count,
    overGoal: count - within(GOAL.poolWaitMs),
    meanMs: count ? round((seconds * 1000) / count, 3) : 0,
    longestMsAtMost: count ? (Number.isFinite(longest) ? Math.round(longest * 1000) : null) : 0,
  };
}

interface Live {
  notifications: number;
  lost: number;
  /** Longest time from a send until its last subscriber had it, ms (checked every 20 ms). */
  deliveryMaxMs: number;
  drops: number;
}

interface SoakWindow {
  window: number;
  /** Minutes since the soak's load began, at the window's end. */
  atMinute: number;
  rate: number;
  requests: number;
  /**
   * Seconds the window's last answer came after its schedule ended: more than a few, and the
   * service did not keep up with the rate (its latencies are then mostly queueing).
   */
  behindSeconds: number;
  rssMb: number;
  peakRssMb: number;
  heapAfterGcMb: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  serviceCpuPercent: number;
  /** The load generator's own CPU (this process: mix, subscribers) and the machine's 1-minute load average: a soak shares the machine. */
  benchCpuPercent: number;
  loadAverage: number;
  poolWaits: ReturnType<typeof poolWaits>;
  requestsByName: { name: string; read: boolean; requests: number; p50: number; p99: number }[];
  live: Live;
  errors: number;
  errorExamples: string[];
}

/** Live subscribers of the demo team's members and the notifications Cara sends it. */
async function liveAudience(base: string, cara: string, run: string) {
  const tokens: string[] = [];
  for (let i = 0; i < Math.ceil(SUBSCRIBERS / PER_TOKEN); i++)
    tokens.push(await signIn(base, i % 2 ? 'cara@demo.example' : 'olivia@demo.example', DEMO_PASSWORD));
  const drops: string[] = [];
  const onDrop = (why: string) => drops.push(why);
  const subscribers: Subscriber[] = [];
  for (let i = 0; i < SUBSCRIBERS; i++) {
    const token = tokens[Math.floor(i / PER_TOKEN)];
    subscribers.push(await (i % 2 ? streamSubscriber(base, token, onDrop) : socketSubscriber(base, token, onDrop)));
  }
  const agent = keepAliveAgent();
  const url = new URL('/rest/notification/send', base);
  let sent = 0;
  /** Sends one notification; answers how long until every subscriber had it, and how many never did. */
  const notify = async (tally: Tally): Promise<{ ms: number; lost: number }> => {
    const message = `Soak ${run} #${++sent}`;
    const started = performance.now();
    const body = JSON.stringify({ companyId: DEMO_COMPANIES.northwind, broadcastType: 'GT', valueIds: [String(DEMO_TEAM_ID)], message });
    const r = await send(agent, { url, method: 'POST', headers: userHeaders(cara), body }, true);
    tally.record('notification send', performance.now() - started, r.status, r.body);
    const missing = () => subscribers.filter((s) => !s.received.has(message)).length;
    while (missing() && performance.now() - started < DELIVERY_MS) await new Promise((resolve) => setTimeout(resolve, 20));
    return { ms: performance.now() - started, lost: missing() };
  };
  return {
    notify,
    /** Subscribers that ended since the last call. */
    drops: () => drops.splice(0),
    close() {
      for (const s of subscribers) s.close();
      agent.destroy();
    },
  };
}

/** The mix's throughput at each concurrency, doubled until it grows by less than 5%: the highest, and at what concurrency. */
async function saturation(cycle: MixItem[], say: (line: string) => void) {
  let best = { rps: 0, concurrency: 0 };
  let next = 0;
  const steps: { concurrency: number; rps: number; failures: number }[] = [];
  for (let concurrency = 2; concurrency <= 256; concurrency *= 2) {
    const agent = keepAliveAgent(concurrency);
    const tally = new Tally();
    const started = performance.now();
    const end = started + RAMP_SECONDS * 1000;
    let done = 0;
    const worker = async () => {
      while (performance.now() < end) {
        await fire(agent, cycle[next++ % cycle.length], performance.now(), tally);
        done += 1;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    agent.destroy();
    const rps = round(done / ((performance.now() - started) / 1000), 1);
    steps.push({ concurrency, rps, failures: tally.failures });
    say(`ramp: ${concurrency} at once, ${rps} mix requests/s${tally.failures ? `, ${tally.failures} failed (${tally.examples[0]})` : ''}`);
    const grew = rps > best.rps * 1.05;
    if (rps > best.rps) best = { rps, concurrency };
    if (!grew) break;
  }
  return { ...best, steps };
}

/** The soak: start, saturation, windows, targets; writes its results file. */
export async function runSoak(options: SoakOptions, url: string, postgres: string): Promise<void> {
  const say = (line: string) => console.log(`[soak] ${line}`);
  const windows = Math.max(1, Math.round((options.minutes * 60) / options.windowSeconds));
  const inspectPort = await freePort();
  const serviceEnv = await benchServiceEnv();
  const server = await spawnServer(SERVER_JS, { ...serviceEnv, DATABASE_URL: url }, '/readyz', [
    ...SERVICE_NODE_FLAGS,
    `--inspect=127.0.0.1:${inspectPort}`,
  ]);
  const pid = server.child.pid!;
  const base = `http://127.0.0.1:${server.port}`;
  const run = Date.now().toString(36);
  let v8: Awaited<ReturnType<typeof inspector>> | undefined;
  let live: Awaited<ReturnType<typeof liveAudience>> | undefined;
  try {
    v8 = await inspector(inspectPort);
    const olivia = await signIn(base, 'olivia@demo.example', DEMO_PASSWORD);
    const cara = await signIn(base, 'cara@demo.example', DEMO_PASSWORD);
    const pat = await signIn(base, 'pat@demo.example', DEMO_PASSWORD);
    const cycle = mixCycle(base, benchScenarios({ olivia, cara, pat }, `soak${run}`), pat, olivia, run);
    // Each request of the mix answers once before any load.
    const check = new Tally();
    const once = keepAliveAgent();
    for (const item of new Set(cycle)) await fire(once, item, performance.now(), check);
    once.destroy();
    if (check.failures) throw new Error(`the mix does not answer: ${check.examples.join('; ')}`);
    live = await liveAudience(base, cara, run);
    const firstNote = await live.notify(check);
    if (firstNote.lost || check.failures)
      throw new Error(`live: ${firstNote.lost} subscribers missed the first notification; ${check.examples.join('; ')}`);
    say(`${SUBSCRIBERS} subscribers reached in ${Math.round(firstNote.ms)} ms; mix of ${cycle.length} requests a cycle`);

    const sat = await saturation(cycle, say);
    const rate = Math.max(1, Math.round(sat.rps * LOAD));
    const agent = keepAliveAgent(Math.max(16, 2 * sat.concurrency));
    say(
      `saturation ${sat.rps} mix requests/s at ${sat.concurrency} at once; soaking at ${rate}/s for ${windows} windows of ${options.windowSeconds} s`,
    );
    const results: SoakWindow[] = [];
    let next = 0;
    const began = performance.now();
    for (let w = 1; w <= windows; w++) {
      const tally = new Tally();
      const liveFigures: Live = { notifications: 0, lost: 0, deliveryMaxMs: 0, drops: 0 };
      resetPeakRss(pid);
      const before = await metricsText(server.port);
      const cpu0 = cpuMs(pid);
      const own0 = process.cpuUsage();
      const started = performance.now();
      const notifier = async () => {
        for (let at = NOTIFY_SECONDS / 2; at < options.windowSeconds; at += NOTIFY_SECONDS) {
          await new Promise((r) => setTimeout(r, started + at * 1000 - performance.now()));
          const n = await live!.notify(tally);
          liveFigures.notifications += 1;
          liveFigures.lost += n.lost;
          liveFigures.deliveryMaxMs = Math.max(liveFigures.deliveryMaxMs, Math.round(n.ms));
        }
      };
      const offset = next;
      next += Math.round(rate * options.windowSeconds);
      const load = openLoop(rate, options.windowSeconds, (i, from) => fire(agent, cycle[(offset + i) % cycle.length], from, tally));
      const [seconds] = await Promise.all([load, notifier()]);
      const after = await metricsText(server.port);
      const cpu = cpuMs(pid) - cpu0;
      const own = process.cpuUsage(own0);
      const peak = peakRssMb(pid);
      const heapAfterGcMb = await v8.heapAfterGcMb();
      const drops = live.drops();
      liveFigures.drops = drops.length;
      tally.examples.push(...drops.slice(0, 5 - tally.examples.length));
      const names = cycle.filter((item, k) => cycle.findIndex((x) => x.name === item.name) === k);
      const requestsByName = [...tally.latencies].map(([name, latencies]) => {
        const s = summarize([{ latencies, seconds, non2xx: 0, errors: 0 }]);
        return { name, read: !!names.find((x) => x.name === name)?.read, requests: s.requests, p50: s.p50, p99: s.p99 };
      });
      const result: SoakWindow = {
        window: w,
        atMinute: round((performance.now() - began) / 60_000, 1),
        rate,
        requests: tally.requests,
        behindSeconds: round(seconds - options.windowSeconds, 1),
        rssMb: rssMb(pid),
        peakRssMb: peak,
        heapAfterGcMb,
        loopDelayP99Ms: round(sumOf(after, 'nodejs_eventloop_lag_p99_seconds') * 1000, 1),
        loopDelayMaxMs: round(sumOf(after, 'nodejs_eventloop_lag_max_seconds') * 1000, 1),
        serviceCpuPercent: Math.round((cpu / (seconds * 1000)) * 100),
        benchCpuPercent: Math.round(((own.user + own.system) / 1000 / (seconds * 1000)) * 100),
        loadAverage: round(os.loadavg()[0]),
        poolWaits: poolWaits(before, after),
        requestsByName,
        live: liveFigures,
        errors: tally.failures + liveFigures.lost + liveFigures.drops,
        errorExamples: tally.examples,
      };
      results.push(result);
      say(
        `window ${w}/${windows} (${result.atMinute} min): ${result.requests} requests (last ${result.behindSeconds} s behind), RSS ${result.rssMb} MB (peak ${peak}), ` +
          `heap after GC ${heapAfterGcMb} MB, loop delay p99 ${result.loopDelayP99Ms} ms, pool waits ${result.poolWaits.count} ` +
          `(over ${GOAL.poolWaitMs} ms: ${result.poolWaits.overGoal}), CPU ${result.serviceCpuPercent}% (bench ${result.benchCpuPercent}%, ` +
          `load ${result.loadAverage}), ` +
          `${liveFigures.notifications} notifications (last subscriber within ${liveFigures.deliveryMaxMs} ms), ${result.errors} errors` +
          (result.errorExamples.length ? `: ${result.errorExamples.join('; ')}` : ''),
      );
    }
    agent.destroy();
    const settings = {
      minutes: options.minutes,
      windowSeconds: options.windowSeconds,
      load: LOAD,
      writeShare: WRITE_SHARE,
      subscribers: SUBSCRIBERS,
      notifySeconds: NOTIFY_SECONDS,
      rampSeconds: RAMP_SECONDS,
      uploadBytes: UPLOAD_BYTES,
      cycle: cycle.map((item) => item.name),
      service: serviceEnv,
    };
    writeResults({ saturation: sat, rate, windows: results, targets: judge(results) }, settings, postgres);
  } finally {
    live?.close();
    v8?.close();
    await server.stop();
  }
}

interface Target {
  target: string;
  value: string;
  met: boolean;
}

/** The targets of issue 57: the last window against the second (the first warms up; with one window, itself). */
function judge(windows: SoakWindow[]): Target[] {
  const second = windows[Math.min(1, windows.length - 1)];
  const last = windows.at(-1)!;
  const vs = `window ${last.window} / window ${second.window}`;
  const growth = (label: string, pick: (w: SoakWindow) => number, bound: number): Target => ({
    target: `${label}: ${vs} <= ${bound}`,
    value: `${round(pick(last) / pick(second), 3)} (${pick(last)} / ${pick(second)})`,
    met: pick(last) <= pick(second) * bound,
  });
  const p99 = (w: SoakWindow, name: string) => w.requestsByName.find((r) => r.name === name)?.p99 ?? NaN;
  const longestWait = Math.max(...windows.map((w) => w.poolWaits.longestMsAtMost ?? Infinity));
  const errors = windows.reduce((t, w) => t + w.errors, 0);
  return [
    growth('RSS MB (after the forced GC)', (w) => w.rssMb, GOAL.memoryGrowth),
    growth('V8 heap used after a full GC, MB', (w) => w.heapAfterGcMb, GOAL.memoryGrowth),
    ...second.requestsByName.filter((r) => r.read).map((r) => growth(`${r.name}: p99 ms`, (w) => p99(w, r.name), GOAL.p99Growth)),
    {
      target: 'errors (non-2xx, socket errors, notifications lost, subscribers dropped) = 0',
      value: `${errors}${
        errors
          ? ` (${windows
              .flatMap((w) => w.errorExamples)
              .slice(0, 3)
              .join('; ')})`
          : ''
      }`,
      met: errors === 0,
    },
    {
      target: `no wait for a pooled connection over ${GOAL.poolWaitMs} ms`,
      value: `${windows.reduce((t, w) => t + w.poolWaits.overGoal, 0)} over; longest at most ${longestWait} ms (db_pool_acquire_seconds bucket)`,
      met: windows.every((w) => w.poolWaits.overGoal === 0),
    },
  ];
}

type SoakResult = { saturation: Awaited<ReturnType<typeof saturation>>; rate: number; windows: SoakWindow[]; targets: Target[] };

/** The results file of a soak: bench/results/<timestamp>-soak.json (machine, settings, soak) and .md. */
function writeResults(soak: SoakResult, settings: { minutes: number } & Record<string, unknown>, postgres: string): void {
  const reads = soak.windows[0].requestsByName.filter((r) => r.read).map((r) => r.name);
  const md = [
    `## Soak: ${settings.minutes} min at ${soak.rate} mix requests/s (${LOAD} of saturation, ${soak.saturation.rps}/s)`,
    '',
    '| window | minute | requests (s behind) | RSS MB (peak) | heap after GC MB | loop delay p99 / max ms | pool waits (over 100 ms, longest <=) | ' +
      'service CPU % (bench %, load average) | notifications (lost, slowest ms) | errors |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...soak.windows.map(
      (w) =>
        `| ${w.window} | ${w.atMinute} | ${w.requests} (${w.behindSeconds}) | ${w.rssMb} (${w.peakRssMb}) | ${w.heapAfterGcMb} | ${w.loopDelayP99Ms} / ${w.loopDelayMaxMs} | ` +
        `${w.poolWaits.count} (${w.poolWaits.overGoal}, ${w.poolWaits.longestMsAtMost ?? '> 5000'}) | ${w.serviceCpuPercent} (${w.benchCpuPercent}, ${w.loadAverage}) | ` +
        `${w.live.notifications} (${w.live.lost}, ${w.live.deliveryMaxMs}) | ${w.errors} |`,
    ),
    '',
    `| read: p99 ms by window | ${soak.windows.map((w) => w.window).join(' | ')} |`,
    `|---|${soak.windows.map(() => '---:').join('|')}|`,
    ...reads.map(
      (name) => `| ${name} | ${soak.windows.map((w) => w.requestsByName.find((r) => r.name === name)?.p99 ?? '-').join(' | ')} |`,
    ),
    '',
    '| target | measured | met |',
    '|---|---|---|',
    ...soak.targets.map((t) => `| ${t.target} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`),
  ].join('\n');
  console.log(`\n${md}\n`);
  const machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    postgres,
    loadAverage: os.loadavg().map((l) => round(l)),
  };
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-soak`;
  fs.writeFileSync(path.join(dir, `${stamp}.json`), JSON.stringify({ machine, settings, soak }, null, 2));
  fs.writeFileSync(path.join(dir, `${stamp}.md`), md + '\n');
  console.log(`written bench/results/${stamp}.json and .md`);
}
