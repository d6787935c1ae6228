// Every `sh` block of docs/getting-started.md, run in order as one shell session against a
// freshly started service (compiled, as `npm start` runs it, on a fresh database).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDb, type TestDb } from '../kit/db';
import { spawnService } from '../kit/spawn';

const root = path.join(__dirname, '../..');

function shellBlocks(markdown: string): string {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  return blocks.join('\n');
}

it('runs every command of the getting-started page against a fresh npm start', async () => {
  const script = shellBlocks(fs.readFileSync(path.join(root, 'docs/getting-started.md'), 'utf8'));
  expect(script).toContain('/as/token.oauth2');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-docs-'));
  let db: TestDb | undefined;
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'development', DATA_DIR: dataDir, QUEUE_WORKERS: '0' };
  if (process.env.DATABASE_URL) {
    db = await createTestDb(); // a fresh, empty (migrated) database: the server seeds the demo tenant
    env.DATABASE_URL = db.databaseUrl!;
    await db.orm.close(true);
  }
  const service = await spawnService(env);
  try {
    // A plain shell: no start-up files (a system bashrc under `set -u` would fail on PS1).
    const shellEnv = { PATH: process.env.PATH, HOME: os.tmpdir(), LANG: 'C.UTF-8', BASE: service.baseUrl };
    const run = spawnSync('bash', ['--noprofile', '--norc', '-euo', 'pipefail', '-c', script], {
      env: shellEnv,
      cwd: os.tmpdir(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toContain('"entityId": "1007"');
    expect(run.stdout).toContain('"errorCode": "WSInvalidAuthTokenException"');
  } finally {
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (db) await db.close().catch(() => undefined);
  }
});
