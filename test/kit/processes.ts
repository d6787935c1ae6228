// What the helper processes of the proxy and cluster tests (nginx, HAProxy, PgBouncer) share: a
// binary from Debian's packages, run in the foreground from a temporary directory, waited for
// until it listens, and stopped (SIGTERM, then SIGKILL) by the test that started it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The binary `name` from /usr/sbin or the PATH; throws saying which package to install. */
export function binary(name: string, pkg: string): string {
  const dirs = ['/usr/sbin', '/usr/local/sbin', '/usr/bin', ...(process.env.PATH ?? '').split(path.delimiter)];
  const found = dirs.map((dir) => path.join(dir, name)).find((file) => fs.existsSync(file));
  if (!found) throw new Error(`${name} is not installed: \`apt-get install -y ${pkg}\` (.ci/run installs it)`);
  return found;
}

/** A fresh temporary directory every user may read (a helper that drops privileges must read its files). */
export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  return dir;
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export interface Helper {
  child: ChildProcess;
  /** What it wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

/** Runs `file args` in the foreground and resolves once it listens on `port`; removes `dir` when stopped. */
export async function startHelper(name: string, file: string, args: string[], port: number, dir: string): Promise<Helper> {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (d: Buffer) => (output += d.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    if (!(await exited(child, 5000))) {
      child.kill('SIGKILL');
      await exited(child, 5000);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not start (exit ${child.exitCode}): ${output}`);
    }
    await sleep(50);
  }
  return { child, output: () => output, stop };
}
