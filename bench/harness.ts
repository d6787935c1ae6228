// Benchmark plumbing: spawn a server process, drive it with autocannon, read its metrics
// (requests, SQL statements) and its peak RSS.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import autocannon from 'autocannon';

export interface Spawned {
  child: ChildProcess;
  port: number;
  stop(): Promise<void>;
}

/** Starts `node <entry>` and resolves once it logs {"msg":"listening","port":N}. */
export function spawnServer(entry: string, env: NodeJS.ProcessEnv): Promise<Spawned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    const rl = readline.createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        const msg = JSON.parse(line);
        if (msg.msg === 'listening') {
          resolve({
            child,
            port: msg.port,
            stop: () =>
              new Promise<void>((done) => {
                child.once('exit', () => done());
                child.kill('SIGTERM');
              }),
          });
        }
      } catch {
        /* not a log line */
      }
    });
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code} before listening`)));
  });
}

/** Resets the kernel's peak-RSS mark for pid (Linux: clear_refs 5). */
export function resetPeakRss(pid: number): void {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not Linux, or not permitted: the peak then covers the whole run */
  }
}

export function peakRssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

export async function metricValue(port: number, name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
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
  connections: number;
  duration: number;
  /** Fixed request rate (for the latency-at-70%-of-peak check). */
  overallRate?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const r = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: spec.duration,
    overallRate: spec.overallRate,
  });
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
