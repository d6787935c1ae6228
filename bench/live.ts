// npm run bench -- --live [--subscribers N] [--setups one,redis,notify] [--transport ws|sse]
// [--heap-mb MB] [--heap-snapshots DIR] [--cpu-profile DIR]: live delivery to many (issue 57). N subscribers (10,000 unless
// --subscribers says otherwise; half graphql-ws on /graphql, half graphql-sse on /graphql/stream,
// each a distinct user of the demo company Northwind with a token of its own) are opened from a
// load process of their own (bench/live-load.ts) over loopback to one instance of the compiled
// service, then to three instances sharing Redis pub/sub, then to three sharing PostgreSQL
// LISTEN/NOTIFY (the bus the service picks without REDIS_URL); --setups measures only those it
// names, and --transport opens every subscriber (and the floor's) on the one it names, for a kind's
// own figures. Company admin Cara then sends one company-wide notification (POST
// /rest/notification/send, JN: every team member of the company) through the first instance. Reported per setup: RSS and
// heap per idle subscription (the service processes before the subscribers and after all
// subscribed, each time after full collections forced through the inspector), the time from the
// send until the first, the median, the 99th-percentile and the last subscriber has the item,
// service CPU per delivered message, and the subscribers that never had it within DELIVERY_WAIT_MS
// (lost). Then Node's floor: the same connections held by a bare HTTP and ws server
// (bench/live-floor.ts), weighed the same way: what no code of the service could save.
//
// The users are the bench data set's (pronet_bench, or BENCH_LIVE_DATABASE): one team of
// Northwind's holds them (a JN notification reaches every team member of the company) and a
// service auth token each is inserted as loginUser stores it (SHA-256 of the token), in one
// statement, so that no password hash is computed. The team, its tokens and the notifications
// sent are removed at the start and at the end of a run (a run cut short is cleaned by the next).
// The service runs as `npm start` runs it but for LIVE_MAX_CONNECTIONS (raised past N: the default
// 2,000 would refuse most), SHUTDOWN_DRAIN_MS=0, --inspect on a loopback port (the forced
// collections) and its heap: its own 128 MB holds some 3,500 idle subscriptions, so an instance
// that holds more gets room for them (heapLimit), or what --heap-mb says. The file-descriptor
// limits of the service and load processes are raised by prlimit(1), the machine's are left alone.
// --heap-snapshots writes the first instance's heap of each setup, before the subscribers and with
// them (<setup>-before.heapsnapshot, -after), and the floor's (floor-before, -after), for Chrome's
// memory tool or a script to compare. --cpu-profile writes the first instance's CPU profile from the
// send until the load process reports (<setup>.cpuprofile), for Chrome's performance tool.
// REDIS_URL (redis://127.0.0.1:6379 when unset) is the Redis of the Redis setup, under a key prefix
// of the run's own; the keys of every run are removed after.
import { fork, execFileSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { BASE } from '../scripts/seed-bench';
import { DEMO_PASSWORD } from '../src/db/demo';
import { hashToken, SERVICE_TOKEN_TTL_MS } from '../src/modules/identity/tokens';
import { benchServiceEnv, signIn } from './scenarios';
import {
  COMPANY,
  OPEN_CONCURRENCY,
  sendNotice,
  type Command,
  type Delivered,
  type Opened,
  type Subscriber,
  type Transport,
} from './live-load';
import { cpuMs, freePort, metricsText, percentile, rssMb, SERVICE_NODE_FLAGS, spawnServer, sumOf, type Spawned } from './harness';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVER_JS = path.join(ROOT, 'dist', 'src', 'server.js');
const FLOOR_JS = path.join(__dirname, 'live-floor.js');
const DEFAULT_SUBSCRIBERS = 10_000;
/** The team that holds the subscribers, by name (its id comes from the sequence). */
const TEAM_NAME = 'Live bench subscribers';
/** Every notification the bench sends starts so (and only those are removed). */
const MESSAGE_PREFIX = 'Live bench ';
/** The Redis keys of the bench's instances start so. */
const REDIS_PREFIX = 'pronet-bench-live-';
/** How long after the send a subscriber may take before it counts as lost. */
const DELIVERY_WAIT_MS = 30_000;
/** File descriptors a process needs beyond one a connection (the database pool, files, the inspector). */
const FD_MARGIN = 1024;

// --- The bench process ----------------------------------------------------------------------

/** The soft and hard limits of open files of a process (/proc/<pid>/limits). */
function fdLimit(pid: number | 'self'): { soft: number; hard: number } {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(fs.readFileSync(`/proc/${pid}/limits`, 'utf8'))!;
  const n = (v: string) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: n(line[1]), hard: n(line[2]) };
}

/** Raises a running process's open-file limit to at least `needed` (soft and hard), never lowering it. */
function raiseFdLimit(pid: number, needed: number): number {
  const { soft, hard } = fdLimit(pid);
  if (soft >= needed) return soft;
  const to = Math.max(needed, hard);
  execFileSync('prlimit', ['--pid', String(pid), `--nofile=${to}:${to}`]);
  return to;
}

/** Asks a forked load process and waits for its answer of `type` (rejected if it exits first). */
function ask<T extends Opened | Delivered>(child: ChildProcess, cmd: Command, type: T['type']): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the load process exited (${code}) before it answered ${cmd.type}`));
    const onMessage = (raw: unknown) => {
      const msg = raw as Opened | Delivered;
      if (msg.type !== type) return;
      child.off('message', onMessage).off('exit', onExit);
      resolve(msg as T);
    };
    child.on('message', onMessage).once('exit', onExit);
    child.send(cmd);
  });
}

/** A session with a process's inspector: `call` resolves with a method's result; `onEvent` sees its events. */
async function inspectorSession(inspectPort: number) {
  const [target] = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  type Message = { id?: number; method?: string; params?: Record<string, unknown> };
  const listeners = new Set<(msg: Message) => void>();
  ws.on('message', (raw) => {
    const msg = JSON.parse((raw as Buffer).toString('utf8')) as Message;
    for (const listener of listeners) listener(msg);
  });
  let id = 0;
  return {
    call: (method: string, params?: Record<string, unknown>) =>
      new Promise<Record<string, unknown> | undefined>((resolve) => {
        const mine = ++id;
        const onAnswer = (msg: Message & { result?: Record<string, unknown> }) => {
          if (msg.id !== mine) return;
          listeners.delete(onAnswer);
          resolve(msg.result);
        };
        listeners.add(onAnswer);
        ws.send(JSON.stringify({ id: mine, method, params }));
      }),
    onEvent: (listener: (msg: Message) => void) => void listeners.add(listener),
    close: () => ws.close(),
  };
}

/** Full collections in a service process, through its inspector (HeapProfiler.collectGarbage), with turns of its event loop between. */
async function collectGarbage(inspectPort: number): Promise<void> {
  const session = await inspectorSession(inspectPort);
  for (let i = 0; i < 3; i++) {
    await session.call('HeapProfiler.collectGarbage');
    await new Promise((r) => setTimeout(r, 50));
  }
  session.close();
}

/** A heap snapshot of a process (after a full collection, as V8 takes them), written to `file`. */
async function writeHeapSnapshot(inspectPort: number, file: string): Promise<void> {
  const session = await inspectorSession(inspectPort);
  const out = fs.createWriteStream(file);
  session.onEvent((msg) => {
    if (msg.method === 'HeapProfiler.addHeapSnapshotChunk') out.write(msg.params!.chunk);
  });
  await session.call('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  await new Promise((resolve) => out.end(resolve));
  session.close();
}

/** Starts V8's CPU profiler in a process; the function returned stops it and writes the profile to `file`. */
async function startCpuProfile(inspectPort: number, file: string): Promise<() => Promise<void>> {
  const session = await inspectorSession(inspectPort);
  await session.call('Profiler.enable');
  await session.call('Profiler.setSamplingInterval', { interval: 100 });
  await session.call('Profiler.start');
  return async () => {
    const result = await session.call('Profiler.stop');
    fs.writeFileSync(file, JSON.stringify(result?.profile));
    session.close();
  };
}

/** A service instance of the bench (or the floor), with the port of its inspector. */
type Instance = Spawned & { base: string; inspectPort: number };

/** Starts `entry` as the bench weighs it: an inspector on a loopback port, its file descriptors raised for `held` connections. */
async function startInstance(entry: string, env: Record<string, string>, nodeFlags: string[], held: number): Promise<Instance> {
  const inspectPort = await freePort();
  // The inspector's address is not printed (only asked for over HTTP): collectGarbage() finds it.
  const flags = [...nodeFlags, `--inspect=127.0.0.1:${inspectPort}`, '--inspect-publish-uid=http'];
  const spawned = await spawnServer(entry, env, '/readyz', flags);
  raiseFdLimit(spawned.child.pid!, held + FD_MARGIN);
  return { ...spawned, base: `http://127.0.0.1:${spawned.port}`, inspectPort };
}

/** The load process (bench/live-load.ts), through prlimit(1) with room for `n` connections. */
function forkLoad(n: number): ChildProcess {
  const to = Math.max(n + FD_MARGIN, fdLimit('self').hard);
  return fork(path.join(__dirname, 'live-load.js'), [], {
    execPath: 'prlimit',
    execArgv: [`--nofile=${to}:${to}`, process.execPath],
    stdio: 'inherit',
  });
}

/** Tells the load process to close its subscribers and waits until it has exited. */
async function stopLoad(load: ChildProcess | undefined): Promise<void> {
  if (!load || load.exitCode !== null || load.signalCode !== null) return;
  const gone = new Promise((r) => load.once('exit', r));
  if (load.connected) load.send({ type: 'close' } satisfies Command);
  else load.kill();
  await gone;
}

/** The instances' node flags: the service's own, but for the heap. */
const nodeFlagsFor = (heapLimitMb: number) => [
  ...SERVICE_NODE_FLAGS.filter((f) => !f.startsWith('--max-old-space-size=')),
  `--max-old-space-size=${heapLimitMb}`,
];

/** Node's own cost of the bench's connections (bench/live-floor.ts), weighed as an instance is. */
export interface Floor {
  connections: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  rssPerConnectionKb: number;
  heapPerConnectionKb: number;
  /** What the second half of the connections added, each (openInHalves). */
  rssSecondHalfKb: number;
  heapSecondHalfKb: number;
}

type Weighed = { rssMb: number; heapMb: number };

/** The growth from one weighing to another, KB for each of `count` connections: RSS and heap. */
function perConnection(from: Weighed[], to: Weighed[], count: number): { rssKb: number; heapKb: number } {
  const grew = (pick: keyof Weighed) => to.reduce((t, m, k) => t + m[pick] - from[k][pick], 0);
  return { rssKb: round((grew('rssMb') * 1024) / count), heapKb: round((grew('heapMb') * 1024) / count) };
}

/**
 * Opens the subscribers in two halves, weighing the instances between. The second half's growth
 * is what an idle subscription holds. The growth over the first weighing also holds what the first
 * subscriptions cost each process once (the code the subscribe path compiles, the allocator's
 * arenas): spread over fewer subscribers it weighs more (docs/performance.md, the live row).
 */
async function openInHalves(
  load: ChildProcess,
  instances: Instance[],
  subscribers: Subscriber[],
): Promise<{ opened: Opened; middle: Weighed[]; secondHalf: number }> {
  const half = Math.floor(subscribers.length / 2);
  const first = await ask<Opened>(load, { type: 'open', subscribers: subscribers.slice(0, half) }, 'opened');
  const middle = await memory(instances);
  const second = await ask<Opened>(load, { type: 'open', subscribers: subscribers.slice(half), offset: half }, 'opened');
  return {
    opened: {
      type: 'opened',
      seconds: first.seconds + second.seconds,
      failed: first.failed + second.failed,
      failures: [...first.failures, ...second.failures].slice(0, 5),
    },
    middle,
    secondHalf: subscribers.length - half,
  };
}

/** The floor: the same subscribers (of the same transports) held by a bare Node server with the instances' flags. */
async function measureFloor(
  n: number,
  serviceEnv: Record<string, string>,
  nodeFlags: string[],
  { transports, snapshots }: Pick<LiveContext, 'transports' | 'snapshots'>,
): Promise<Floor> {
  const floor = await startInstance(FLOOR_JS, serviceEnv, nodeFlags, n);
  let load: ChildProcess | undefined;
  try {
    const [before] = await memory([floor]);
    const snapshot = (when: string) =>
      snapshots ? writeHeapSnapshot(floor.inspectPort, path.join(snapshots, `floor-${when}.heapsnapshot`)) : undefined;
    await snapshot('before');
    load = forkLoad(n);
    const subscribers: Subscriber[] = Array.from({ length: n }, (_, k) => ({
      token: 'floor',
      transport: transports[k % transports.length],
      base: floor.base,
    }));
    const { opened, middle, secondHalf } = await openInHalves(load, [floor], subscribers);
    if (opened.failed)
      throw new Error(`${opened.failed} connections to the floor failed to open; the first: ${opened.failures.join('; ')}`);
    const [after] = await memory([floor]);
    await snapshot('after');
    const whole = perConnection([before], [after], n);
    const second = perConnection(middle, [after], secondHalf);
    return {
      connections: n,
      rssBeforeMb: before.rssMb,
      rssAfterMb: after.rssMb,
      rssPerConnectionKb: whole.rssKb,
      heapPerConnectionKb: whole.heapKb,
      rssSecondHalfKb: second.rssKb,
      heapSecondHalfKb: second.heapKb,
    };
  } finally {
    await stopLoad(load);
    await floor.stop();
  }
}

/** Waits (up to 60 s) until every instance uses under 10% of a core: the work the subscribers started is done. */
async function idle(instances: Instance[]): Promise<void> {
  for (let t = 0; t < 240; t++) {
    const before = instances.map((i) => cpuMs(i.child.pid!));
    await new Promise((r) => setTimeout(r, 250));
    if (instances.every((i, k) => cpuMs(i.child.pid!) - before[k] < 25)) return;
  }
}

/** RSS and used heap of each instance after full collections (MB). */
async function memory(instances: Instance[]): Promise<Weighed[]> {
  await idle(instances);
  const out: Weighed[] = [];
  for (const i of instances) {
    await collectGarbage(i.inspectPort);
    const heap = sumOf(await metricsText(i.port), 'nodejs_heap_size_used_bytes') / 1024 / 1024;
    out.push({ rssMb: rssMb(i.child.pid!), heapMb: Math.round(heap * 10) / 10 });
  }
  return out;
}

interface Audience {
  tokens: string[];
  userIds: number[];
}

const cleanupSql = [
  `delete from service_auth_token where user_id in
     (select m.user_id from team_member m join team t on t.team_id = m.team_id where t.company_id = $1 and t.team_name = $2)`,
  'delete from team where company_id = $1 and team_name = $2',
];

/** Removes what a run of the bench added: the team (its members), their tokens, the notifications it sent (their inbox rows). */
async function cleanup(db: Client): Promise<void> {
  for (const sql of cleanupSql) await db.query(sql, [COMPANY, TEAM_NAME]);
  await db.query(`delete from sent_notification where company_id = $1 and message like $2`, [COMPANY, `${MESSAGE_PREFIX}%`]);
}

/**
 * The tables a run wrote, vacuumed and analysed once it has cleaned up: each run adds and removes
 * some 10,000 inbox rows and tokens in the scale-1 database the full bench reads, and their dead
 * rows (left to autovacuum, which counts them but may not run before the next bench) were seen to
 * make the inbox page's statements five times as costly in a full run that followed twenty runs.
 */
const WRITTEN_TABLES = ['notification_inbox', 'sent_notification', 'service_auth_token', 'team_member', 'team'];

/** N bench users made members of one team of Northwind's, each with a fresh service auth token (stored as loginUser stores it). */
async function makeAudience(db: Client, n: number): Promise<Audience> {
  const userIds = Array.from({ length: n }, (_, k) => BASE + 1 + k);
  const { rows } = await db.query<{ n: number }>('select count(*)::int as n from app_user where u_id = any($1) and active', [userIds]);
  if (rows[0].n !== n) throw new Error(`the bench database holds ${rows[0].n} active bench users of the ${n} asked for`);
  const tokens = userIds.map(() => crypto.randomBytes(32).toString('base64url'));
  await db.query('begin');
  try {
    const team = await db.query<{ team_id: number }>('insert into team (company_id, team_name) values ($1, $2) returning team_id', [
      COMPANY,
      TEAM_NAME,
    ]);
    await db.query('insert into team_member (team_id, user_id) select $1, u from unnest($2::int[]) u', [team.rows[0].team_id, userIds]);
    await db.query(
      'insert into service_auth_token (token_hash, user_id, expires_at) select h, u, $3 from unnest($1::text[], $2::int[]) as t(h, u)',
      [tokens.map(hashToken), userIds, new Date(Date.now() + SERVICE_TOKEN_TTL_MS)],
    );
    await db.query('commit');
  } catch (err) {
    await db.query('rollback');
    throw err;
  }
  return { tokens, userIds };
}

/** A setup measured: its instances and bus. */
interface Setup {
  key: 'oneInstance' | 'threeRedis' | 'threeListenNotify';
  /** Its name for --setups. */
  name: 'one' | 'redis' | 'notify';
  label: string;
  instances: number;
  env: Record<string, string>;
}

interface Latencies {
  delivered: number;
  firstMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface LiveRun {
  setup: string;
  instances: number;
  subscribers: number;
  websockets: number;
  streams: number;
  /** Seconds the load process took to open every subscriber. */
  subscribeSeconds: number;
  /** Sums over the instances, after full collections: before the subscribers, and with all of them subscribed and idle. */
  rssBeforeMb: number;
  rssAfterMb: number;
  heapBeforeMb: number;
  heapAfterMb: number;
  rssPerSubscriptionKb: number;
  heapPerSubscriptionKb: number;
  /** What the second half of the subscribers added, each (openInHalves): an idle subscription's own. */
  rssSecondHalfKb: number;
  heapSecondHalfKb: number;
  /** Each instance's --max-old-space-size, MB. */
  heapLimitMb: number;
  /** The send request's answer time (its inbox rows written and committed). */
  sendMs: number;
  /** From the start of the send. */
  firstMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  byTransport: { ws: Latencies; sse: Latencies };
  delivered: number;
  lost: number;
  /** CPU of the service processes from the send until the last delivery, over the messages delivered. */
  serviceCpuMs: number;
  cpuMsPerMessage: number;
  loadRssMb: number;
  /** The load process's CPU from the send until it had every item (or gave up): near the time taken, it timed its own backlog. */
  loadCpuMs: number;
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

function latencies(values: number[]): Latencies {
  const s = [...values].sort((a, b) => a - b);
  return {
    delivered: s.length,
    firstMs: round(s[0] ?? NaN),
    p50Ms: percentile(s, 50),
    p99Ms: percentile(s, 99),
    maxMs: round(s.at(-1) ?? NaN),
  };
}

/** What every setup of a run shares. */
interface LiveContext {
  n: number;
  audience: Audience;
  serviceEnv: Record<string, string>;
  /** --heap-mb's size of the instances' heap (null: heapLimit() sizes it). */
  heapMb: number | null;
  runId: string;
  /** --heap-snapshots' folder: the first instance's heap, before the subscribers and with them (null: none taken). */
  snapshots: string | null;
  /** --cpu-profile's folder: the first instance's CPU profile of the delivery (null: none taken). */
  profiles: string | null;
  /** The subscribers' transports, taken in turn (--transport: one of them alone). */
  transports: Transport[];
}

async function measure(setup: Setup, context: LiveContext): Promise<LiveRun> {
  const { n, audience, serviceEnv, heapMb, runId, snapshots, profiles, transports } = context;
  const heapLimitMb = heapMb ?? heapLimit(Math.ceil(n / setup.instances));
  const nodeFlags = nodeFlagsFor(heapLimitMb);
  const say = (line: string) => console.log(`[live ${setup.label}] ${line}`);
  const instances: Instance[] = [];
  let load: ChildProcess | undefined;
  try {
    const start = () => startInstance(SERVER_JS, { ...serviceEnv, ...setup.env }, nodeFlags, Math.ceil(n / setup.instances));
    const started = await Promise.allSettled(Array.from({ length: setup.instances }, start));
    for (const s of started) if (s.status === 'fulfilled') instances.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const [first] = instances;
    const cara = await signIn(first.base, 'cara@demo.example', DEMO_PASSWORD);
    // One send before the subscribers (none listens): the send path's statements prepared and its code warm.
    const warm = await sendNotice(first.base, cara, `${MESSAGE_PREFIX}${runId} warm-up`);
    if (warm.status !== 200) throw new Error(`the warm-up send answered ${warm.status}: ${(await warm.text()).slice(0, 300)}`);
    const before = await memory(instances);
    const snapshot = (when: string) =>
      snapshots ? writeHeapSnapshot(first.inspectPort, path.join(snapshots, `${setup.name}-${when}.heapsnapshot`)) : undefined;
    await snapshot('before');

    load = forkLoad(n);
    const subscribers: Subscriber[] = audience.tokens.map((token, k) => ({
      token,
      // Alternate transports, and each pair to the next instance: every instance holds both kinds alike.
      transport: transports[k % transports.length],
      base: instances[Math.floor(k / 2) % instances.length].base,
    }));
    const { opened, middle, secondHalf } = await openInHalves(load, instances, subscribers);
    const died = instances.find((i) => i.child.exitCode !== null || i.child.signalCode !== null);
    if (died)
      throw new Error(
        `an instance died with ${Math.ceil(n / instances.length)} subscribers (${died.child.signalCode ?? died.child.exitCode}; ` +
          `the heap limit of ${nodeFlags.join(' ')}? --heap-mb raises it)`,
      );
    if (opened.failed) throw new Error(`${opened.failed} subscribers failed to open; the first: ${opened.failures.join('; ')}`);
    say(`${n} subscribed in ${round(opened.seconds)} s`);
    // A WebSocket's subscribe has no answer: the instances going idle (memory() waits for it) says they took every one.
    const after = await memory(instances);
    await snapshot('after');
    const whole = perConnection(before, after, n);
    const second = perConnection(middle, after, secondHalf);

    const profiled = profiles ? await startCpuProfile(first.inspectPort, path.join(profiles, `${setup.name}.cpuprofile`)) : null;
    const cpu0 = instances.map((i) => cpuMs(i.child.pid!));
    const message = `${MESSAGE_PREFIX}${runId} to ${setup.label}`;
    const got = await ask<Delivered>(load, { type: 'send', base: first.base, token: cara, message, waitMs: DELIVERY_WAIT_MS }, 'delivered');
    await profiled?.();
    const serviceCpuMs = instances.reduce((t, i, k) => t + cpuMs(i.child.pid!) - cpu0[k], 0);
    if (got.status !== 200) throw new Error(`the send answered ${got.status}: ${got.answer}`);
    const all = latencies([...got.ws, ...got.sse]);
    const sum = (list: { rssMb: number; heapMb: number }[], pick: 'rssMb' | 'heapMb') => round(list.reduce((t, m) => t + m[pick], 0));
    const run: LiveRun = {
      setup: setup.label,
      instances: setup.instances,
      subscribers: n,
      websockets: subscribers.filter((s) => s.transport === 'ws').length,
      streams: subscribers.filter((s) => s.transport === 'sse').length,
      subscribeSeconds: round(opened.seconds),
      rssBeforeMb: sum(before, 'rssMb'),
      rssAfterMb: sum(after, 'rssMb'),
      heapBeforeMb: sum(before, 'heapMb'),
      heapAfterMb: sum(after, 'heapMb'),
      rssPerSubscriptionKb: whole.rssKb,
      heapPerSubscriptionKb: whole.heapKb,
      rssSecondHalfKb: second.rssKb,
      heapSecondHalfKb: second.heapKb,
      heapLimitMb,
      sendMs: round(got.sendMs),
      firstMs: all.firstMs,
      p50Ms: all.p50Ms,
      p99Ms: all.p99Ms,
      maxMs: all.maxMs,
      byTransport: { ws: latencies(got.ws), sse: latencies(got.sse) },
      delivered: all.delivered,
      lost: got.missing,
      serviceCpuMs: round(serviceCpuMs),
      cpuMsPerMessage: all.delivered ? round(serviceCpuMs / all.delivered, 3) : NaN,
      loadRssMb: got.loadRssMb,
      loadCpuMs: got.loadCpuMs,
    };
    say(
      `RSS ${run.rssBeforeMb} -> ${run.rssAfterMb} MB (${run.rssPerSubscriptionKb} KB a subscription; the second half ` +
        `${run.rssSecondHalfKb} KB, heap ${run.heapSecondHalfKb} KB), heap ${run.heapBeforeMb} -> ${run.heapAfterMb} MB; send answered in ${run.sendMs} ms; first ${run.firstMs}, p50 ${run.p50Ms}, p99 ${run.p99Ms}, last ` +
        `${run.maxMs} ms; ${run.cpuMsPerMessage} ms CPU a message (the service's ${run.serviceCpuMs} ms, the load process's ` +
        `${run.loadCpuMs} ms); ${run.lost} lost`,
    );
    return run;
  } finally {
    await stopLoad(load);
    await Promise.all(instances.map((i) => i.stop()));
  }
}

function parseSubscribers(argv: string[]): number {
  const i = argv.indexOf('--subscribers');
  if (i < 0) return DEFAULT_SUBSCRIBERS;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 2) throw new Error('--subscribers needs a whole number of at least 2');
  return n;
}

/** The instances' --max-old-space-size as --heap-mb says (null without it). */
function parseHeapMb(argv: string[]): number | null {
  const i = argv.indexOf('--heap-mb');
  if (i < 0) return null;
  const mb = Number(argv[i + 1]);
  if (!Number.isInteger(mb) || mb < 16) throw new Error('--heap-mb needs a whole number of megabytes, at least 16');
  return mb;
}

/** The service's own --max-old-space-size (package.json's node flags), MB. */
const OWN_HEAP_MB = Number(/--max-old-space-size=(\d+)/.exec(SERVICE_NODE_FLAGS.join(' '))?.[1] ?? 0);

/**
 * The heap of an instance holding `held` subscriptions, without --heap-mb: the service's own, or
 * when that cannot hold them, 64 MB (its idle heap is some 55) and 64 KB a subscription (some 20
 * measured, with room for a delivery's burst), so that the bench measures rather than dies.
 */
const heapLimit = (held: number) => Math.max(OWN_HEAP_MB, 64 + Math.ceil((held * 64) / 1024));

/** The transports of --transport (ws or sse: that one alone), both in turn without it. */
function parseTransports(argv: string[]): Transport[] {
  const i = argv.indexOf('--transport');
  if (i < 0) return ['ws', 'sse'];
  const name = argv[i + 1];
  if (name !== 'ws' && name !== 'sse') throw new Error('--transport names ws or sse');
  return [name];
}

/** The setups --setups names (comma-separated: one, redis, notify), all of them without it. */
function parseSetups(argv: string[], all: Setup[]): Setup[] {
  const i = argv.indexOf('--setups');
  if (i < 0) return all;
  const names = (argv[i + 1] ?? '').split(',');
  const unknown = names.filter((name) => !all.some((s) => s.name === name));
  if (unknown.length || !names.length)
    throw new Error(`--setups names some of ${all.map((s) => s.name).join(', ')}, not ${unknown.join(', ')}`);
  return all.filter((s) => names.includes(s.name));
}

interface Target {
  target: string;
  value: string;
  met: boolean;
}

/** Issue 57's targets (stated for 10,000 subscribers). */
function targetsOf(live: Partial<Record<Setup['key'], LiveRun>>): Target[] {
  const one = live.oneInstance;
  return [
    ...(one
      ? [
          {
            target: `one instance, ${one.subscribers} subscribers: RSS per idle subscription <= 16 KB (the second half's)`,
            value: `${one.rssSecondHalfKb} KB (all of them over the baseline: ${one.rssPerSubscriptionKb} KB)`,
            met: one.rssSecondHalfKb <= 16,
          },
          { target: 'one instance: the last subscriber within 2,000 ms', value: `${one.maxMs} ms`, met: one.maxMs <= 2000 },
          { target: 'one instance: p99 within 1,000 ms', value: `${one.p99Ms} ms`, met: one.p99Ms <= 1000 },
        ]
      : []),
    ...[live.threeRedis, live.threeListenNotify].flatMap((r) =>
      r ? [{ target: `${r.setup}: the last subscriber within 2,500 ms`, value: `${r.maxMs} ms`, met: r.maxMs <= 2500 }] : [],
    ),
    ...Object.values(live).map((r) => ({ target: `${r.setup}: 0 lost`, value: String(r.lost), met: r.lost === 0 })),
  ];
}

function markdown(live: Partial<Record<Setup['key'], LiveRun>>, targets: Target[], note: string, floor: Floor): string {
  const rows = Object.values(live).map(
    (r) =>
      `| ${r.setup} | ${r.websockets} + ${r.streams} | ${r.subscribeSeconds} | ${r.rssBeforeMb} -> ${r.rssAfterMb} | ${r.rssPerSubscriptionKb} | ` +
      `${r.heapPerSubscriptionKb} | ${r.rssSecondHalfKb} | ${r.heapSecondHalfKb} | ${r.heapLimitMb} | ${r.sendMs} | ${r.firstMs} | ${r.p50Ms} | ${r.p99Ms} | ${r.maxMs} | ${r.cpuMsPerMessage} | ${r.lost} |`,
  );
  return [
    '## Live delivery',
    '',
    note,
    '',
    '| setup | subscribers (WS + SSE) | subscribed in s | service RSS MB | RSS KB/subscription | heap KB/subscription | ' +
      'second half: RSS KB/subscription | heap KB | heap limit MB | send answered ms | ' +
      'first ms | p50 ms | p99 ms | last ms | service CPU ms/message | lost |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    '| target | measured | met |',
    '|---|---|---|',
    ...targets.map((t) => `| ${t.target} | ${t.value} | ${t.met ? 'yes' : '**no**'} |`),
    '',
    `Node's floor (bench/live-floor.ts: a bare HTTP and ws server holding the same ${floor.connections} connections as the service, ` +
      `with the instances' flags): RSS ${floor.rssPerConnectionKb} KB and heap ${floor.heapPerConnectionKb} KB a connection; ` +
      `the second half: RSS ${floor.rssSecondHalfKb} KB and heap ${floor.heapSecondHalfKb} KB a connection.`,
  ].join('\n');
}

/** The folder an argument names (made if missing), or null without the argument. */
function folderArgument(argv: string[], name: string): string | null {
  const at = argv.indexOf(name);
  if (at < 0) return null;
  const folder = path.resolve(argv[at + 1] ?? '');
  fs.mkdirSync(folder, { recursive: true });
  return folder;
}

/** The live bench on the bench database at `url`; writes bench/results/<timestamp>.json (its `live` object) and .md. */
export async function runLive(url: string, argv: string[]): Promise<void> {
  const n = parseSubscribers(argv);
  const transports = parseTransports(argv);
  const heapMb = parseHeapMb(argv);
  const snapshots = folderArgument(argv, '--heap-snapshots');
  const profiles = folderArgument(argv, '--cpu-profile');
  const started = Date.now();
  const runId = Date.now().toString(36);
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  // Every run's keys under a prefix of its own; the keys of all runs (one cut short left its own) are removed after.
  const redisPrefix = `${REDIS_PREFIX}${runId}:`;
  const setups = parseSetups(argv, [
    { key: 'oneInstance', name: 'one', label: 'one instance', instances: 1, env: {} },
    {
      key: 'threeRedis',
      name: 'redis',
      label: 'three instances, Redis',
      instances: 3,
      env: { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: redisPrefix },
    },
    { key: 'threeListenNotify', name: 'notify', label: 'three instances, LISTEN/NOTIFY', instances: 3, env: {} },
  ]);
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  if (setups.some((s) => s.name === 'redis'))
    await redis.connect().catch((err: Error) => {
      throw new Error(`the live bench's Redis setup needs Redis at ${redisUrl} (REDIS_URL): ${err.message}`);
    });
  const db = new Client({ connectionString: url });
  await db.connect();
  // Every instance may hold every subscriber; one subscription a connection (the default bound is 20)
  // and one connection a token (10).
  const maxConnections = n + 100;
  // No drain at SIGTERM (production waits 5 s for a balancer): nothing balances here.
  const serviceEnv = {
    ...(await benchServiceEnv()),
    DATABASE_URL: url,
    LIVE_MAX_CONNECTIONS: String(maxConnections),
    SHUTDOWN_DRAIN_MS: '0',
  };
  const note =
    `${n} subscribers (${transports.length > 1 ? 'half graphql-ws, half SSE' : transports[0] === 'ws' ? 'graphql-ws' : 'SSE'}), one a user, from one load process; the service as \`npm start\` runs it ` +
    `(${SERVICE_NODE_FLAGS.join(' ')}) but for its heap (the table's limit: ` +
    `${heapMb ? '--heap-mb' : `the service's own where it holds the instance's subscriptions, else 64 MB and 64 KB a subscription`}) and ` +
    `LIVE_MAX_CONNECTIONS=${maxConnections} (default 2,000) on each instance; one company-wide ` +
    `(JN) notification sent through the first instance; lost: not had within ${DELIVERY_WAIT_MS / 1000} s.`;
  console.log(note);
  const live: Partial<Record<Setup['key'], LiveRun>> = {};
  let floor: Floor | undefined;
  try {
    await cleanup(db);
    const audience = await makeAudience(db, n);
    const context: LiveContext = { n, audience, serviceEnv, heapMb, runId, snapshots, profiles, transports };
    for (const setup of setups) live[setup.key] = await measure(setup, context);
    floor = await measureFloor(n, serviceEnv, nodeFlagsFor(heapMb ?? heapLimit(n)), { transports, snapshots });
    console.log(
      `[live floor] Node alone: RSS ${floor.rssBeforeMb} -> ${floor.rssAfterMb} MB (${floor.rssPerConnectionKb} KB a connection; ` +
        `the second half ${floor.rssSecondHalfKb} KB), heap ${floor.heapPerConnectionKb} KB a connection (${floor.heapSecondHalfKb} KB)`,
    );
  } finally {
    await cleanup(db);
    await db.query(`vacuum (analyze) ${WRITTEN_TABLES.join(', ')}`);
    await db.end();
    if (redis.status === 'ready') {
      const keys = await redis.keys(`${REDIS_PREFIX}*`);
      if (keys.length) await redis.del(...keys);
    }
    redis.disconnect();
  }

  const targets = targetsOf(live);
  const text = markdown(live, targets, note, floor);
  console.log(`\n${text}\n`);
  const machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    loadAverage: os.loadavg().map((l) => round(l, 2)),
  };
  const settings = {
    subscribers: n,
    transports,
    setups: setups.map((s) => s.name),
    deliveryWaitMs: DELIVERY_WAIT_MS,
    openConcurrency: OPEN_CONCURRENCY,
    nodeFlags: SERVICE_NODE_FLAGS,
    heapMb,
    liveMaxConnections: maxConnections,
  };
  const dir = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const seconds = Math.round((Date.now() - started) / 1000);
  fs.writeFileSync(
    path.join(dir, `${stamp}.json`),
    JSON.stringify({ machine, settings, live, floor, targets, seconds: { total: seconds } }, null, 2),
  );
  fs.writeFileSync(path.join(dir, `${stamp}.md`), text + '\n');
  console.log(`written bench/results/${stamp}.json and .md; the live bench took ${seconds} s`);
}
