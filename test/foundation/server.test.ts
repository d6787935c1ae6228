// The compiled service as `npm start` runs it: migrates, seeds the demo tenant, serves,
// and stops cleanly on SIGTERM.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ENTRY, spawnService } from '../kit/spawn';

it('starts on an empty embedded database, serves demo data, and exits 0 on SIGTERM', async () => {
  expect(fs.existsSync(SERVER_ENTRY)).toBe(true); // npm test builds before running jest
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-'));
  const service = await spawnService({ NODE_ENV: 'development', DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  try {
    const base = service.baseUrl;
    expect(service.lines.some((l) => l?.msg === 'demo tenant seeded')).toBe(true);
    const tz = await (await fetch(`${base}/rest/refdata/timezones?countryCode=au`)).json();
    expect(tz).toContainEqual(expect.objectContaining({ timezoneId: 'Australia/Sydney', offsetHours: 10, dstOffsetHours: 1 }));
    const conditions: any = await (await fetch(`${base}/rest/refdata/conditions`)).json();
    expect(conditions.length).toBeGreaterThan(0);
    expect(await service.stop()).toBe(0);
    expect(service.lines.some((l) => l?.msg === 'stopped')).toBe(true);
  } finally {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it('keeps no module it does not use: i18n-iso-countries with its English names only, graphql-jit without fast-json-stringify, no unconfigured client', async () => {
  // Every module loaded stays live heap that each full collection marks (docs/performance.md).
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-'));
  const preload = path.join(dataDir, 'loaded-modules.js');
  const report = path.join(dataDir, 'loaded-modules.json');
  fs.writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(Object.keys(require.cache))));`,
  );
  const service = await spawnService({ NODE_ENV: 'development', DATA_DIR: dataDir, NODE_OPTIONS: `--require ${preload}` });
  try {
    const countries: any = await (await fetch(`${service.baseUrl}/rest/refdata/countries`)).json();
    expect(countries).toContainEqual({ countryCode: 'DE', countryName: 'Germany' });
    expect(await service.stop()).toBe(0);
    const loaded: string[] = JSON.parse(fs.readFileSync(report, 'utf8'));
    const packages = new Set(loaded.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1]));
    expect(packages).toContain('i18n-iso-countries');
    // graphql-jit loads fast-json-stringify (and ajv) only for its customJSONSerializer option, unused here (patches/).
    expect(packages).toContain('graphql-jit');
    expect(['fast-json-stringify', 'ajv'].filter((name) => packages.has(name))).toEqual([]);
    // i18n-iso-countries: the English names only, not its 80 languages.
    expect(loaded.filter((file) => file.includes('i18n-iso-countries/langs/')).map((file) => path.basename(file))).toEqual(['en.json']);
    // Loaded on first use only: tracing without an OTLP endpoint, Redis without REDIS_URL, e-mail
    // before the first one, team QR codes before the first image, graphql-scalars (type-graphql
    // requires it whole for two scalars the schema does not use: patches/).
    const onFirstUse = ['@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-http', 'ioredis', 'nodemailer', 'qrcode'];
    expect([...onFirstUse, 'graphql-scalars'].filter((name) => packages.has(name))).toEqual([]);
    expect(packages).toContain('type-graphql');
  } finally {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

it('npm start runs node with the heap limits of package.json (config.nodeFlags) and two malloc arenas, and node accepts the flags', () => {
  const root = path.join(__dirname, '../..');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const flags: string = pkg.config.nodeFlags;
  expect(flags).toMatch(/--max-old-space-size=\d+/);
  expect(flags).toMatch(/--max-semi-space-size=\d+/);
  expect(pkg.scripts.start).toContain('MALLOC_ARENA_MAX=2 node $npm_package_config_nodeFlags ');
  // The image sets those Node admits in NODE_OPTIONS, the rest on its CMD: test/deploy/dockerfile.test.ts.
  // The heap limit is in force: V8 reports it (old space plus young generation) in bytes.
  const limitMb = Number(
    execFileSync(process.execPath, [...flags.split(' '), '-p', "Math.round(require('v8').getHeapStatistics().heap_size_limit / 1048576)"], {
      env: {},
    }).toString(),
  );
  const oldSpace = Number(/--max-old-space-size=(\d+)/.exec(flags)![1]);
  expect(limitMb).toBeGreaterThanOrEqual(oldSpace);
  expect(limitMb).toBeLessThan(oldSpace + 64);
});
