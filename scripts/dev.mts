// npm run dev: the service restarted within seconds of a saved change, with no full build first.
//
// TypeScript's watch program (tsconfig.build.json, incremental, held in memory) writes into dist/
// only what a change touched. When it wrote the service's code (dist/src/), the service is stopped
// with SIGTERM, as a deployment stops it, and started again; once it answers /healthz, the type
// check runs and prints its errors, never fatal (`npm test` and CI type-check). The explorer
// bundle is built before the first start when missing or made from other inputs; a change to its
// page waits for the next start or `npm run build`.
//
// Not `tsc --watch` beside `node --watch`: tsc waits 250 ms after a change, then type-checks every
// file that imports a changed export (5-6 s here) before it writes anything, and node --watch
// waits 200 ms more and has the service report every module it loads. Here the compiler starts
// 50 ms after a change and writes first. Node runs this file as it is (type stripping: nothing
// here needs the decorator metadata tsc emits for the service), so nothing is built beforehand.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import ts from 'typescript';

const root = path.dirname(import.meta.dirname);
const serviceDir = path.join(root, 'dist/src') + path.sep;
/** How long the compiler waits after a change for more (an editor's "save all"); tsc's own is 250 ms. */
const SETTLE_MS = 50;

let stopping = false;
let service: ChildProcess | undefined;
let explorer: ChildProcess | undefined;

function node(args: string[]): ChildProcess {
  return spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { MALLOC_ARENA_MAX: '2', ...process.env } });
}

function startService(): void {
  const child = node(['--enable-source-maps', 'dist/src/server.js']);
  child.on('exit', (code, signal) => {
    if (child === service && !stopping)
      console.error(`dev: the service stopped (${signal ?? `exit code ${code}`}); the next change starts it again`);
  });
  service = child;
}

async function stopService(): Promise<void> {
  const old = service;
  service = undefined;
  if (!old || old.exitCode !== null || old.signalCode !== null) return;
  const exited = once(old, 'exit');
  old.kill('SIGTERM');
  await exited;
}

/** The explorer's bundle when it is missing or stale (a no-op otherwise), then the service. */
async function firstStart(): Promise<void> {
  explorer = node(['dist/scripts/build-explorer.js']);
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
  void starting.then(answering).then(() => check(program, compilation, emitted.diagnostics));
};

/**
 * Type-checks what the compilation affected a file at a time, letting a new change in between (it
 * takes over the files left: a change to an export has every importer checked again, seconds of
 * CPU), then reports and has the builder write its state again with the files it checked.
 */
async function check(
  program: ts.EmitAndSemanticDiagnosticsBuilderProgram,
  compilation: number,
  emitted: readonly ts.Diagnostic[],
): Promise<void> {
  const current = () => compilation === compilations && !stopping;
  while (current() && program.getSemanticDiagnosticsOfNextAffectedFile()) await new Promise((resolve) => setImmediate(resolve));
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
  for (const until = Date.now() + 10_000; Date.now() < until && service?.exitCode === null;) {
    if (await answers(url)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
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
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    watch.close();
    explorer?.kill(signal);
    service?.kill(signal);
  });
