// The instances of the cluster: the compiled service (dist/src/server.js, run as `npm start` runs
// it, like test/kit/spawn.ts, but keeping stderr too: a start that fails says why there) in
// production mode, each on a loopback port of its own that it keeps across restarts (the
// balancer's configuration names the ports), all with the same keys and secrets. Every log line of
// every run of an instance is kept, for the checks that count what happened across them.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { exportJWK, generateKeyPair } from 'jose';
import { restartablePort } from '../kit';
import { vapidSettings } from '../kit/production';
import { SERVER_ENTRY } from '../kit/spawn';
import { tempDir } from '../kit/processes';

const NODE_FLAGS: string[] = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).config.nodeFlags.split(' ');

export const LOGIN_CLIENT = { id: 'cluster-app', secret: crypto.randomBytes(30).toString('base64url') };

/** What production requires (test/kit/production.ts), shared by every instance: one signing key, one VAPID pair. */
export async function productionEnv(): Promise<Record<string, string>> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PUBLIC_BASE_URL: 'https://pronet.example',
    AUTH_BASE_URL: 'https://pronet.example',
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ ...(await exportJWK(privateKey)), kid: 'cluster-1' }] }),
    LOGIN_CLIENT_ID: LOGIN_CLIENT.id,
    LOGIN_CLIENT_SECRET: LOGIN_CLIENT.secret,
    LOGIN_CLIENT_REDIRECT_URIS: 'com.example.cluster:/oauth/ssosignedin',
    METRICS_TOKEN: crypto.randomBytes(24).toString('hex'),
    ...vapidSettings(),
  };
}

export interface Instance {
  name: string;
  port: number;
  baseUrl: string;
  /** The process of the current run; null before the first start. */
  child: ChildProcess | null;
  /** Every log line of every run, in order (JSON parsed; other text as { text }). */
  lines: any[];
}

export interface Instances {
  list: Instance[];
  /** Starts instance `i` and resolves once its /readyz answers 200, with the milliseconds that took. */
  start(i: number): Promise<number>;
  /** SIGTERM; resolves with the exit code once the process has exited. */
  stop(i: number): Promise<number | null>;
  /** SIGKILL; resolves once the process is gone. */
  kill(i: number): Promise<void>;
  /** Log lines of every instance (every run) with this message. */
  logged(msg: string): { instance: string; line: any }[];
  /** Kills whatever still runs and removes the data directories. */
  close(): Promise<void>;
}

const alive = (child: ChildProcess | null): boolean => !!child && child.exitCode === null && child.signalCode === null;

function exited(child: ChildProcess): Promise<number | null> {
  if (!alive(child)) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The last log lines of an instance's runs but its request lines, for an error that says why it is down. */
function lastWords(instance: Instance, count = 8): string {
  return instance.lines
    .filter((l) => l.msg !== 'request')
    .slice(-count)
    .map((l) => l.text ?? `${l.msg}${l.err?.message ? `: ${l.err.message}` : ''}${l.code ? ` (${l.code})` : ''}`)
    .join(' | ');
}

async function waitReady(instance: Instance, child: ChildProcess, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (!alive(child)) throw new Error(`${instance.name} exited with ${child.exitCode} before it was ready: ${lastWords(instance)}`);
    const ok = await fetch(`${instance.baseUrl}/readyz`, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${instance.name}: /readyz did not answer 200 within ${ms} ms`);
    await sleep(25);
  }
}

export async function createInstances(count: number, env: Record<string, string>): Promise<Instances> {
  const list: Instance[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < count; i++) {
    // Kept across restarts (the balancer names it): below the ephemeral range, so that no
    // connection made while the instance is down takes it.
    const port = await restartablePort();
    list.push({ name: `s${i + 1}`, port, baseUrl: `http://127.0.0.1:${port}`, child: null, lines: [] });
    dirs.push(tempDir('pronet-cluster-'));
  }
  const running = (i: number): ChildProcess => {
    const child = list[i].child;
    if (!child) throw new Error(`${list[i].name} was never started`);
    if (!alive(child))
      throw new Error(
        `${list[i].name} is not running: it exited (code ${child.exitCode}, signal ${child.signalCode}): ${lastWords(list[i])}`,
      );
    return child;
  };
  return {
    list,
    async start(i) {
      const at = Date.now();
      const instance = list[i];
      if (alive(instance.child)) throw new Error(`${instance.name} is running already`);
      const child = spawn(process.execPath, [...NODE_FLAGS, SERVER_ENTRY], {
        env: { PATH: process.env.PATH, HOST: '127.0.0.1', ...env, PORT: String(instance.port), DATA_DIR: dirs[i] },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      instance.child = child;
      for (const stream of [child.stdout, child.stderr]) {
        readline.createInterface({ input: stream }).on('line', (text) => {
          let line: any;
          try {
            line = JSON.parse(text);
          } catch {
            line = { text };
          }
          instance.lines.push(line);
        });
      }
      await waitReady(instance, child, 30_000);
      return Date.now() - at;
    },
    async stop(i) {
      const child = running(i);
      child.kill('SIGTERM');
      return exited(child);
    },
    async kill(i) {
      const child = running(i);
      child.kill('SIGKILL');
      await exited(child);
    },
    logged: (msg) =>
      list.flatMap((instance) => instance.lines.filter((l) => l.msg === msg).map((line) => ({ instance: instance.name, line }))),
    async close() {
      for (const instance of list) {
        const child = instance.child;
        if (child && alive(child)) {
          child.kill('SIGKILL');
          await exited(child);
        }
      }
      for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
