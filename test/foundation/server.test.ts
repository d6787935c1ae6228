// The compiled service as `npm start` runs it: migrates, seeds the demo tenant, serves,
// and stops cleanly on SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

const entry = path.join(__dirname, '../../dist/src/server.js');

function waitForLine(child: ChildProcess, predicate: (line: any) => boolean, lines: any[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.on('line', (text) => {
      let parsed: any = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* the start-up banner is plain text */
      }
      lines.push(parsed);
      if (predicate(parsed)) resolve(parsed);
    });
    child.once('exit', (code) => reject(new Error(`server exited early with ${code}`)));
  });
}

it('starts on an empty embedded database, serves demo data, and exits 0 on SIGTERM', async () => {
  expect(fs.existsSync(entry)).toBe(true); // npm test builds before running jest
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-'));
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: 'development', PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: any[] = [];
  try {
    const listening = await waitForLine(child, (l) => l?.msg === 'listening', lines);
    const base = `http://127.0.0.1:${listening.port}`;
    expect(lines.some((l) => l?.msg === 'demo tenant seeded')).toBe(true);
    const tz = await (await fetch(`${base}/rest/refdata/timezones?countryCode=au`)).json();
    expect(tz).toContainEqual(expect.objectContaining({ timezoneId: 'Australia/Sydney', offsetHours: 10, dstOffsetHours: 1 }));
    const conditions: any = await (await fetch(`${base}/rest/refdata/conditions`)).json();
    expect(conditions.length).toBeGreaterThan(0);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const drained = new Promise((resolve) => child.stdout!.once('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await drained;
    expect(lines.some((l) => l?.msg === 'stopped')).toBe(true);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
