// Steady traffic through the balancer, as clients make it: a few workers, each sending one request
// after another over kept-alive connections, every answer checked whole (status and body), every
// failure kept with what it was, every latency recorded.
import http from 'node:http';

export interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** The answer is the one this request must get. */
  check(status: number, body: any): boolean;
}

export interface Outcome {
  call: string;
  ms: number;
  status?: number;
  body?: any;
  /** Why the answer is not the expected one (a socket error, a status, a body). */
  error?: string;
}

const TIMEOUT_MS = 15_000;

/** One request over `agent`; resolves with its outcome, never rejects. */
export function send(baseUrl: string, agent: http.Agent, call: Call): Promise<Outcome> {
  const start = performance.now();
  const name = `${call.method} ${call.path}`;
  const text = call.body === undefined ? undefined : JSON.stringify(call.body);
  return new Promise((resolve) => {
    let done = false;
    const finish = (o: Omit<Outcome, 'call' | 'ms'>) => {
      if (done) return;
      done = true;
      resolve({ call: name, ms: performance.now() - start, ...o });
    };
    const headers: Record<string, string | number> = { ...call.headers };
    if (text !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    const req = http.request(baseUrl + call.path, { method: call.method, agent, headers, timeout: TIMEOUT_MS }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.once('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
      res.once('end', () => {
        const raw = Buffer.concat(parts).toString();
        let body: any;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          body = raw;
        }
        const status = res.statusCode!;
        const ok = (() => {
          try {
            return call.check(status, body);
          } catch {
            return false;
          }
        })();
        finish(ok ? { status, body } : { status, body, error: `unexpected answer ${status}: ${raw.slice(0, 200)}` });
      });
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
    req.end(text);
  });
}

export interface LoadReport {
  requests: number;
  errors: Outcome[];
  latencies: number[];
}

export interface Load {
  /** Outcomes so far. */
  readonly outcomes: Outcome[];
  /** Stops the workers after their current request. */
  stop(): Promise<LoadReport>;
}

/** `workers` loops sending `next(worker, n)` (null: that worker is done) through `baseUrl` until stopped. */
export function runLoad(baseUrl: string, workers: number, next: (worker: number, n: number) => Call | null): Load {
  const agent = new http.Agent({ keepAlive: true, maxSockets: workers });
  const outcomes: Outcome[] = [];
  let stopping = false;
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let n = 0; !stopping; n++) {
      const call = next(w, n);
      if (!call) return;
      outcomes.push(await send(baseUrl, agent, call));
    }
  });
  return {
    outcomes,
    async stop() {
      stopping = true;
      await Promise.all(loops);
      agent.destroy();
      return { requests: outcomes.length, errors: outcomes.filter((o) => o.error), latencies: outcomes.map((o) => o.ms) };
    },
  };
}

/** Percentiles (ms, one decimal) of a list of latencies. */
export function percentiles(latencies: number[]): { p50: number; p95: number; p99: number; max: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => Math.round((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) * 10) / 10;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), max: at(1) };
}
