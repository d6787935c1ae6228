// npm run dev: the service restarted about 2 s after a saved change, with no full build first.
//
// TypeScript's watch program (tsconfig.build.json, incremental, held in memory) writes into dist/
// only what a change touched. When it wrote the service's code (dist/src/), the service is stopped
// with SIGTERM, as a deployment stops it, and the next one is told to run: a process started after
// the last restart that waits with the packages the service loads already required
// (scripts/dev.standby.mts: 0.6 s of a 2.3 s start here). Once the service answers /healthz, the
// type check runs and prints its errors, never fatal (`npm test` and CI type-check). The explorer
// bundle is built before the first start when missing or made from other inputs; a change to its
// page waits for the next start or `npm run build`.
//
// Not `tsc --watch` beside `node --watch` (3 s a restart here, 8 s after a changed export): tsc
// waits 250 ms after a change, then type-checks every file that imports a changed export before it
// writes anything, and node --watch waits 200 ms more and starts the service cold. Here the
// compiler starts 50 ms after a change and writes first. Node runs this file and the standby as
// they are (type stripping: neither needs the decorator metadata tsc emits for the service).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import ts from 'typescript';

const root = path.dirname(import.meta.dirname);
const serviceDir = path.join(root, 'dist/src') + path.sep;
/** How long the compiler waits after a change for more (an editor's "save all"); tsc's own is 250 ms. */
const SETTLE_MS = 50;

let stopping = false;
let service: ChildProcess | undefined;
/** The next service process, its packages loaded, waiting to be told to run (scripts/dev.standby.mts). */
let standby: ChildProcess | undefined;
let explorer: ChildProcess | undefined;

const env = { MALLOC_ARENA_MAX: '2', ...process.env };
const running = (child: ChildProcess | undefined): child is ChildProcess => child?.exitCode === null && child.signalCode === null;

/** A service process on standby, requiring these packages (files under node_modules) first. */
function spawnService(preload: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--enable-source-maps', '--import', './scripts/dev.standby.mts', 'dist/src/server.js'], {
    cwd: root,
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env,
  });
  child.send({ preload });
  return child;
}

function startService(): void {
  const child = running(standby) ? standby : spawnService([]);
  standby = undefined;
  child.send('go');
  child.on('exit', (code, signal) => {
    if (child === service && !stopping)
      console.error(`dev: the service stopped (${signal ?? `exit code ${code}`}); the next change starts it again`);
  });
  service = child;
}

/** Once the service answers: the next one on standby, with the packages this one has loaded. */
async function prepareStandby(): Promise<void> {
  const live = service;
  if (!running(live) || running(standby) || stopping) return;
  const reply = once(live, 'message') as Promise<[string[]]>;
  live.send('modules');
  const none = (): [string[]] => [[]];
  const [packages] = await Promise.race([reply, once(live, 'exit').then(none), delay(5000).then(none)]);
  if (!stopping) standby = spawnService(packages);
}

async function stopService(): Promise<void> {
  const old = service;
  service = undefined;
  if (!running(old)) return;
  const exited = once(old, 'exit');
  old.kill('SIGTERM');
  await exited;
}

/** The explorer's bundle when it is missing or stale (a no-op otherwise), then the service. */
async function firstStart(): Promise<void> {
  explorer = spawn(process.execPath, ['dist/scripts/build-explorer.js'], { cwd: root, stdio: 'inherit' });
  const [code] = (await once(explorer, 'exit')) as [number | null];
  explorer = undefined;
  if (code !== 0) console.error('dev: no explorer bundle, /graphiql answers 404 (npm run build says why)');
  if (!stopping) startService();
}

/** Ends once the new service is started; the next compilation waits for it. */
let starting: Promise<void> = Promise.resolve();
let compilations = 0;

const host = ts.createWatchCompilerHost(
  path.join(root, 'tsconfig.build.json'),
  undefined,
  {
    ...ts.sys,
    // The watch program names the timer that gathers changes before a compilation (an internal
    // name: were it to change, tsc's 250 ms would apply); other timers keep their delays.
    setTimeout: (callback, ms, ...args: unknown[]) => setTimeout(callback, args[0] === 'timerToUpdateProgram' ? SETTLE_MS : ms, ...args),
  },
  ts.createEmitAndSemanticDiagnosticsBuilderProgram,
  undefined,
  (diagnostic) => console.log(`${new Date().toLocaleTimeString()} - ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`),
);
host.afterProgramCreate = (program) => {
  const compilation = ++compilations;
  let serviceWritten = false;
  const emitted = program.emit(undefined, (file, data, writeByteOrderMark) => {
    if (file.startsWith(serviceDir) && file.endsWith('.js')) serviceWritten = true;
    ts.sys.writeFile(file, data, writeByteOrderMark);
  });
  // The first compilation starts the service, whatever its type errors; a later one restarts it
  // when it wrote the service's code (while the explorer builds, the first start is yet to read it).
  if (compilation === 1) starting = firstStart();
  else if (serviceWritten && !explorer) starting = starting.then(stopService).then(() => (stopping ? undefined : startService()));
  void starting
    .then(answering)
    .then(prepareStandby)
    .then(() => check(program, compilation, emitted.diagnostics));
};

/**
 * Type-checks a file at a time, letting a new change in between (it takes over what is left: a
 * changed export has every importer checked again, seconds of CPU), then reports and has the
 * builder write its state again with the files it checked.
 */
async function check(
  program: ts.EmitAndSemanticDiagnosticsBuilderProgram,
  compilation: number,
  emitted: readonly ts.Diagnostic[],
): Promise<void> {
  const current = () => compilation === compilations && !stopping;
  const yieldToChanges = () => new Promise((resolve) => setImmediate(resolve));
  while (current() && program.getSemanticDiagnosticsOfNextAffectedFile()) await yieldToChanges();
  for (const file of program.getSourceFiles()) {
    if (!current()) return;
    program.getSemanticDiagnostics(file); // kept by the builder: unchanged files cost nothing
    await yieldToChanges();
  }
  if (!current()) return;
  report([...emitted, ...typeErrors(program)]);
  program.emit();
}

/**
 * Resolves once the service answers /healthz on PORT (config.ts's default 4000), has stopped, or
 * 10 s have passed: the type check (seconds of CPU after a changed export) would slow its start.
 */
async function answering(): Promise<void> {
  const url = `http://127.0.0.1:${process.env.PORT || 4000}/healthz`;
  for (const until = Date.now() + 10_000; Date.now() < until && running(service);) {
    if (await answers(url)) return;
    await delay(100);
  }
}

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url);
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/** What tsc reports: the syntax errors, or when there are none, the type errors. */
function typeErrors(program: ts.BuilderProgram): ts.Diagnostic[] {
  const syntax = [...program.getConfigFileParsingDiagnostics(), ...program.getSyntacticDiagnostics()];
  if (syntax.length) return syntax;
  return [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSemanticDiagnostics()];
}

function report(diagnostics: ts.Diagnostic[]): void {
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  if (diagnostics.length)
    process.stdout.write(format(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  const errors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
  console.log(`${new Date().toLocaleTimeString()} - Found ${errors} error${errors === 1 ? '' : 's'}. Watching for file changes.`);
}

const watch = ts.createWatchProgram(host);

// A terminal's Ctrl-C reaches the whole process group; a signal sent to this process alone is
// passed on. The service's own graceful shutdown runs either way, then this process ends.
function shutdown(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  watch.close();
  for (const child of [explorer, standby, service]) child?.kill(signal);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => shutdown(signal));
// npm passes nothing on when it alone is killed: the loop ends with the process that started it.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && shutdown('SIGTERM'), 1000).unref();
