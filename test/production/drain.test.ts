// Rolling deploys lose nothing, the service's side (issue 38): on SIGTERM the compiled service
// answers /readyz 503 at once and goes on serving everything else for SHUTDOWN_DRAIN_MS, so a
// balancer's health checks take it out before it closes; every answer in that time closes its
// connection, so no idle keep-alive connection is left to be cut. Then new connections are
// refused, and it exits 0. (test/cluster runs a rolling restart through HAProxy.)
import fs from 'node:fs';
import http from 'node:http';
import { SERVER_ENTRY, type SpawnedService } from '../kit/spawn';
import { compiledService, type CompiledService } from '../kit/production';

const DRAIN_MS = 2000;

interface Answer {
  status: number;
  connection: string | undefined;
  body: any;
}

/** A GET on a connection of its own (or on `agent`'s kept-alive one); rejects with the socket error (ECONNREFUSED). */
function get(url: string, agent: http.Agent | false = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('when the instance gets SIGTERM with SHUTDOWN_DRAIN_MS set', () => {
  let started: CompiledService | undefined;
  let service: SpawnedService;

  beforeAll(async () => {
    expect(fs.existsSync(SERVER_ENTRY)).toBe(true); // npm test builds before running jest
    // PostgreSQL when the tests have one, else the embedded database.
    started = await compiledService({
      NODE_ENV: 'development',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: String(DRAIN_MS),
    });
    service = started.service;
  }, 60_000);
  afterAll(() => started?.close());

  it('then /readyz answers 503 at once while reads are served, keep-alive answers close their connection, then new connections are refused and it exits 0', async () => {
    const base = service.baseUrl;
    const timezones = `${base}/rest/refdata/timezones?countryCode=au`;
    // A balancer's kept-alive connection, opened before the signal.
    const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const before = await get(`${base}/readyz`, keptAlive);
    expect({ status: before.status, connection: before.connection }).toEqual({ status: 200, connection: 'keep-alive' });

    const exited = new Promise<number | null>((resolve) => service.child.once('exit', resolve));
    const signalled = Date.now();
    service.child.kill('SIGTERM');
    // At once: the first probe after the signal reaches the process already answers 503.
    let ready = await get(`${base}/readyz`);
    while (ready.status === 200 && Date.now() - signalled < 500) ready = await get(`${base}/readyz`);
    expect(ready).toEqual({ status: 503, connection: 'close', body: { status: 'draining' } });
    expect(Date.now() - signalled).toBeLessThan(500);

    // Everything else is served, on new connections and on the kept-alive one (which then closes).
    const read = await get(timezones);
    expect(read.status).toBe(200);
    expect(read.body).toContainEqual(expect.objectContaining({ timezoneId: 'Australia/Sydney' }));
    const onKeptAlive = await get(`${base}/healthz`, keptAlive);
    expect(onKeptAlive).toEqual({ status: 200, connection: 'close', body: { status: 'ok' } });
    await sleep(DRAIN_MS / 2 - (Date.now() - signalled));
    expect((await get(timezones)).status).toBe(200);

    // After the drain the listening socket is closed. A connection the kernel queued just before the
    // close is reset (ECONNRESET) as the socket closes: the next one is refused.
    let refused: string | null = null;
    while (refused !== 'ECONNREFUSED' && Date.now() - signalled < DRAIN_MS + 5000) {
      refused = await get(`${base}/healthz`).then(
        () => null,
        (err: NodeJS.ErrnoException) => err.code ?? String(err),
      );
      if (refused !== 'ECONNREFUSED') await sleep(50);
    }
    const refusedAfter = Date.now() - signalled;
    expect(refused).toBe('ECONNREFUSED');
    expect(refusedAfter).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(await exited).toBe(0);
    keptAlive.destroy();
    expect(
      service.lines.map((l) => l?.msg).filter((m) => ['draining: /readyz answers 503, requests still served', 'stopped'].includes(m)),
    ).toEqual(['draining: /readyz answers 503, requests still served', 'stopped']);
    expect(service.lines.filter((l) => l?.level >= 50)).toEqual([]);
  }, 30_000);
});
