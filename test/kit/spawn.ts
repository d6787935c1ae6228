// The compiled service as `npm start` runs it, in a child process: resolves once it logs
// {"msg":"listening"}, keeps every stdout line (parsed when JSON) and stops with SIGTERM. And a
// compiled script (or a start-up that is to be refused) run to its exit.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

/** The build `npm test` makes; TEST_SERVER_ENTRY names another (a private build's dist/src/server.js). */
export const SERVER_ENTRY = process.env.TEST_SERVER_ENTRY
  ? path.resolve(process.env.TEST_SERVER_ENTRY)
  : path.join(__dirname, '../../dist/src/server.js');
/** The compiled `npm run migrate` job of the same build. */
export const MIGRATE_ENTRY = path.join(path.dirname(SERVER_ENTRY), '../scripts/migrate.js');
/** The V8 flags `npm start` runs the service with (package.json config.nodeFlags). */
const NODE_FLAGS: string[] = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).config.nodeFlags.split(' ');

export interface SpawnedService {
  child: ChildProcess;
  baseUrl: string;
  /** Every stdout line so far: parsed log objects, or text for the start-up banner. */
  lines: any[];
  /** What it wrote to stderr so far. */
  stderr(): string;
  /** SIGTERM, then the exit code once stdout has been drained. */
  stop(): Promise<number | null>;
}

/**
 * The compiled `entry` in a child process with `env` (port 0 on loopback unless it says otherwise),
 * each stdout line handed to `onLine` (parsed when JSON; the start-up banner is plain text).
 */
function run(entry: string, env: NodeJS.ProcessEnv, onLine: (line: any) => void) {
  const child = spawn(process.execPath, [...NODE_FLAGS, entry], {
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  readline.createInterface({ input: child.stdout }).on('line', (text) => {
    let parsed: any = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* plain text */
    }
    onLine(parsed);
  });
  /** Resolves once stdout is closed (every line read). */
  const drained = new Promise((resolve) => child.stdout.once('close', resolve));
  return { child, stderr: () => stderr, drained };
}

export function spawnService(env: NodeJS.ProcessEnv): Promise<SpawnedService> {
  const lines: any[] = [];
  let listening: (port: number) => void = () => undefined;
  const { child, stderr, drained } = run(SERVER_ENTRY, env, (line) => {
    lines.push(line);
    if (line?.msg === 'listening') listening(line.port);
  });
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const code = await exited;
    await drained;
    return code;
  };
  return new Promise((resolve, reject) => {
    listening = (port) => resolve({ child, baseUrl: `http://127.0.0.1:${port}`, lines, stderr, stop });
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before listening: ${stderr()}`)));
  });
}

export interface Exited {
  code: number | null;
  /** Every stdout line, parsed when JSON. */
  lines: any[];
  stderr: string;
}

/** Runs a compiled entry (a script, or the server whose start is to be refused) with `env` until it exits. */
export function runToExit(entry: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Exited> {
  const lines: any[] = [];
  const { child, stderr, drained } = run(entry, env, (line) => lines.push(line));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      void drained.then(() => resolve({ code, lines, stderr: stderr() }));
    }),
  );
}
