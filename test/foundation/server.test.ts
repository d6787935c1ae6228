// The compiled service as `npm start` runs it: migrates, seeds the demo tenant, serves,
// and stops cleanly on SIGTERM.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SERVER_ENTRY, spawnService } from '../helpers/spawn';

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
