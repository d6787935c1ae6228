// Faults against the real PostgreSQL server (npm run test:faults; needs DATABASE_URL):
// the database goes away mid-run behind a TCP proxy we can cut, and backends are killed with
// pg_terminate_backend. Requests answer 503 with the module's service exception, never hang
// or crash the process, and the service recovers by itself when the database is back.
import net from 'node:net';
import { OLIVIA, useTestApp } from '../kit';
import { createTestDb, type TestDb } from '../kit/db';
import { createOrm, DemoSeeder } from '../kit/src';
import { ENTITIES } from '../../src/modules';

/** A TCP proxy to PostgreSQL that can be cut (every socket dropped, new ones refused) and restored. */
class CuttableProxy {
  private server?: net.Server;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async start(port = 0): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const [s, peer] of [
        [client, upstream],
        [upstream, client],
      ]) {
        this.sockets.add(s);
        // A connection closed or reset on one side is closed on the other, as without a proxy:
        // otherwise the service's client waits forever on a backend that is gone.
        s.on('close', () => {
          this.sockets.delete(s);
          peer.destroy();
        });
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => this.server!.listen(port, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

const base = process.env.DATABASE_URL;
if (!base) throw new Error('npm run test:faults needs DATABASE_URL (a real PostgreSQL server)');

let db: TestDb;
let proxy: CuttableProxy;

const t = useTestApp(async () => {
  const real = await createTestDb();
  await real.orm.em.fork().transactional((em) => new DemoSeeder().run(em));
  const url = new URL(real.databaseUrl!);
  proxy = new CuttableProxy({ host: url.hostname, port: Number(url.port || 5432) });
  await proxy.start();
  const viaProxy = new URL(real.databaseUrl!);
  viaProxy.port = String(proxy.port);
  // The app talks to the database only through the proxy.
  const orm = await createOrm({
    entities: ENTITIES,
    databaseUrl: viaProxy.toString(),
    embeddedDir: 'memory://',
    onQuery: (sql: string) => real.statements.push(sql),
  });
  db = {
    ...real,
    orm,
    close: async () => {
      await orm.close(true);
      await real.close();
    },
  };
  return { db, demo: false };
});
// After the app has stopped (afterAll hooks run in order): the database it shared, then the proxy.
afterAll(async () => {
  await db.close();
  await proxy.cut();
});
const olivia = t.as(OLIVIA); // its token is stored when the app starts, through the proxy

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - start };
}

it('when the database stops answering mid-run, then 503 with the module exception, fast; when it returns, the service recovers', async () => {
  expect((await olivia.rest('GET', '/rest/user/addresses')).status).toBe(200);
  expect((await t.rest('GET', '/readyz')).status).toBe(200);

  const port = proxy.port;
  await proxy.cut();
  const addresses = await timed(() => olivia.rest('GET', '/rest/user/addresses'));
  expect(addresses.value.status).toBe(503);
  expect(['WSAddressServiceException', 'WSCacheServiceException']).toContain(addresses.value.body.errorCode);
  expect(addresses.ms).toBeLessThan(15_000);
  const conditions = await t.rest('GET', '/rest/refdata/conditions');
  expect(conditions).toMatchObject({ status: 503, body: { errorCode: 'WSRefDataServiceException' } });
  expect((await t.rest('GET', '/readyz')).status).toBe(503);
  expect((await t.rest('GET', '/healthz')).status).toBe(200);

  await proxy.start(port);
  let recovered = false;
  for (let i = 0; i < 30 && !recovered; i++) {
    recovered = (await t.rest('GET', '/rest/refdata/conditions')).status === 200;
    if (!recovered) await new Promise((r) => setTimeout(r, 500));
  }
  expect(recovered).toBe(true);
  expect((await olivia.rest('GET', '/rest/user/addresses')).status).toBe(200);
  expect((await t.rest('GET', '/readyz')).status).toBe(200);
});

it('when every backend of the service is killed with pg_terminate_backend, then the process survives and the next requests succeed', async () => {
  const admin = await createTestDb(); // a separate connection to the same server, for the kill
  try {
    const dbName = new URL(db.databaseUrl!).pathname.slice(1);
    const inFlight = Promise.all(Array.from({ length: 5 }, () => olivia.rest('GET', '/rest/user/addresses')));
    await admin.orm.em
      .fork()
      .getConnection()
      .execute(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${dbName}' and pid <> pg_backend_pid()`);
    const answers = await inFlight;
    for (const a of answers) expect([200, 503]).toContain(a.status);
    let ok = 0;
    for (let i = 0; i < 10; i++) if ((await olivia.rest('GET', '/rest/user/addresses')).status === 200) ok++;
    expect(ok).toBeGreaterThanOrEqual(9);
  } finally {
    await admin.close();
  }
});
