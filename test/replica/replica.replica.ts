// Reads on a streaming replica (issue 56): the compiled service on a primary and a replica of its
// own (test/kit/postgres-pair.ts), the replica applying each commit 500 ms late. When a user writes
// and reads straight after, then every read sees the write; when a user who has not written reads,
// then the replica answers (a row written on the primary a moment ago is not there yet); under
// steady reads at least 80% of the reads run on the replica (the service's own db_reads_total);
// when the replica stops, or hangs (its processes stopped: connections accepted, never answered),
// in the middle of steady reads, then no read fails or takes over 2 s
// (DATABASE_REPLICA_TIMEOUT_MS bounds a read on a hung replica), /readyz stays 200, and reads are
// back on the replica within 5 s of its return; with two instances sharing Redis, a write on one
// is seen by the writer's read on the other; with DATABASE_REPLICA_MAX_LAG_MS below the delay,
// steady writes take the replica out and it takes reads again once they stop. Without Redis the
// writes' positions are kept in the primary's replica_read_floor table; with it, in Redis.
// `npm run test:replica` (builds dist/ first). Loopback only; the machine's cluster is not used.
import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { Client } from 'pg';
import { createUser, createUserAddress, tokenFor } from '../kit';
import { readsByTarget, readsSince as since } from '../kit/db-reads';
import { startPair, type Pair } from '../kit/postgres-pair';
import { createOrm } from '../kit/src';
import { productionEnv } from '../kit/production';
import { spawnService, type SpawnedService } from '../kit/spawn';
import { ENTITIES } from '../../src/modules';

const APPLY_DELAY_MS = 500;
const DATABASE = 'pronet_replica';
const METRICS_TOKEN = crypto.randomBytes(24).toString('hex');

let pair: Pair;
let service: SpawnedService;
let orm: MikroORM;
let writer: { uId: number; token: string };
let readers: { uId: number; token: string }[];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  pair = await startPair(APPLY_DELAY_MS);
  const admin = new Client({ connectionString: pair.primary.url('postgres') });
  await admin.connect();
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  service = await spawnService({
    ...productionEnv(),
    LOG_LEVEL: 'info',
    DATABASE_URL: pair.primary.url(DATABASE),
    DATABASE_REPLICA_URLS: pair.replica.url(DATABASE),
    METRICS_TOKEN,
  });
  orm = await createOrm({ entities: ENTITIES, databaseUrl: pair.primary.url(DATABASE), embeddedDir: 'memory://' });
  const user = async () => {
    const u = await createUser(orm);
    return { uId: u.uId, token: await tokenFor(orm, u.uId) };
  };
  writer = await user();
  readers = await Promise.all(Array.from({ length: 4 }, () => user()));
  // The replica has the users before the reads start.
  await sleep(APPLY_DELAY_MS + 500);
}, 120_000);

afterAll(async () => {
  await orm?.close(true).catch(() => undefined);
  await service?.stop();
  await pair?.close();
});

const auth = (token: string) => ({ 'x-service-authtoken': token });

async function get(path: string, token: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${service.baseUrl}${path}`, { headers: auth(token), signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.json().catch(() => undefined) };
}

async function graphql(query: string, token: string): Promise<any> {
  const res = await fetch(`${service.baseUrl}/graphql`, {
    method: 'POST',
    headers: { ...auth(token), 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return res.json();
}

/** db_reads_total by target, from the service's /metrics. */
const reads = () => readsByTarget(service.baseUrl, METRICS_TOKEN);

it('when a user writes and reads straight after, 100 times, then every read sees the write', async () => {
  // A user keeps at most 50 addresses: each one written is deleted again, and the read after the
  // deletion must not show it either.
  let seen = 0;
  let gone = 0;
  const before = await reads();
  for (let i = 0; i < 100; i++) {
    const name = `Written ${i} ${crypto.randomBytes(3).toString('hex')}`;
    const res = await fetch(`${service.baseUrl}/rest/user/addresses`, {
      method: 'POST',
      headers: { ...auth(writer.token), 'content-type': 'application/json' },
      body: JSON.stringify({ typeCode: 'W', name }),
    });
    expect(res.status).toBe(200);
    const { uuid } = (await res.json()) as { uuid: string };
    const list = await get('/rest/user/addresses', writer.token);
    expect(list.status).toBe(200);
    if (list.body.some((a: any) => a.uuid === uuid)) seen++;
    const deleted = await fetch(`${service.baseUrl}/rest/user/addresses/${uuid}`, { method: 'DELETE', headers: auth(writer.token) });
    expect(deleted.status).toBe(204);
    const after = await get('/rest/user/addresses', writer.token);
    if (!after.body.some((a: any) => a.uuid === uuid)) gone++;
  }
  expect({ seen, gone }).toEqual({ seen: 100, gone: 100 });
  // The same over GraphQL: a mutation, then a query.
  let seenViaGraphql = 0;
  for (let i = 0; i < 20; i++) {
    const created = await graphql(`mutation { createUserAddress(input: { typeCode: "P", name: "GraphQL ${i}" }) { uuid } }`, writer.token);
    const { uuid } = created.data.createUserAddress;
    const list = await graphql('{ userAddresses { uuid } }', writer.token);
    if (list.data.userAddresses.some((a: any) => a.uuid === uuid)) seenViaGraphql++;
    await graphql(`mutation { deleteUserAddress(addressUUID: "${uuid}") }`, writer.token);
  }
  expect(seenViaGraphql).toBe(20);
  // Its reads ran on the primary: the replica had not replayed the writes.
  expect(since(before, await reads(), 'primary')).toBeGreaterThanOrEqual(200);
});

it('when a user who has not written reads, then the replica answers: a row written on the primary a moment ago shows only after the delay', async () => {
  const [reader] = readers;
  const before = await reads();
  const address = await createUserAddress(orm, reader.uId, { name: `Direct ${crypto.randomBytes(3).toString('hex')}` });
  const at = Date.now();
  const [first, viaGraphql] = await Promise.all([
    get('/rest/user/addresses', reader.token),
    graphql('{ userAddresses { uuid } }', reader.token),
  ]);
  expect(first.status).toBe(200);
  expect(viaGraphql.data.userAddresses).toEqual(expect.any(Array));
  expect(Date.now() - at).toBeLessThan(APPLY_DELAY_MS - 100);
  expect(first.body.map((a: any) => a.uuid)).not.toContain(address.uuid);
  expect(viaGraphql.data.userAddresses.map((a: any) => a.uuid)).not.toContain(address.uuid);
  // A rate-limited read (its counters in the primary's unlogged table, which a standby cannot read).
  const recommended = await fetch(`${service.baseUrl}/rest/user/recommended/entities`, {
    method: 'POST',
    headers: { ...auth(reader.token), 'content-type': 'application/json' },
    body: JSON.stringify({ version: 2, entityType: ['company'] }),
  });
  expect({ status: recommended.status, ratelimit: recommended.headers.has('ratelimit') }).toEqual({ status: 200, ratelimit: true });
  let shown = false;
  for (const deadline = Date.now() + 5000; !shown && Date.now() < deadline; await sleep(50))
    shown = (await get('/rest/user/addresses', reader.token)).body.some((a: any) => a.uuid === address.uuid);
  expect(shown).toBe(true);
  const after = await reads();
  expect(since(before, after, 'replica1')).toBeGreaterThan(0);
});

/** Each reader reading in a loop until `stop` says so; failures (status not 200) counted, and the slowest answer. */
async function steadyReads(until: () => boolean): Promise<{ requests: number; failures: string[]; slowestMs: number }> {
  const failures: string[] = [];
  let requests = 0;
  let slowestMs = 0;
  await Promise.all(
    readers.map(async (reader, i) => {
      while (!until()) {
        const path = i % 2 ? '/rest/user/addresses' : '/rest/user/profile';
        const at = Date.now();
        const res = await get(path, reader.token).catch((err: Error) => ({ status: 0, body: err.message }));
        slowestMs = Math.max(slowestMs, Date.now() - at);
        requests++;
        if (res.status !== 200) failures.push(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }),
  );
  return { requests, failures, slowestMs };
}

/** The replica back (started, or resumed) under steady reads: the milliseconds until a read runs on it again, or -1 within 10 s. */
async function backOnTheReplica(): Promise<number> {
  const back = Date.now();
  const at = await reads();
  while (Date.now() - back < 10_000) {
    if (since(at, await reads(), 'replica1') > 0) return Date.now() - back;
    await sleep(100);
  }
  return -1;
}

it('when readers read steadily beside a writer, then at least 80% of the reads run on the replica', async () => {
  const before = await reads();
  const started = Date.now();
  const writes = (async () => {
    while (Date.now() - started < 3000) {
      await fetch(`${service.baseUrl}/rest/user/addresses`, {
        method: 'POST',
        headers: { ...auth(writer.token), 'content-type': 'application/json' },
        body: JSON.stringify({ typeCode: 'P', name: 'Steady' }),
      });
      await get('/rest/user/addresses', writer.token);
      await sleep(100);
    }
  })();
  const { requests, failures } = await steadyReads(() => Date.now() - started > 3000);
  await writes;
  const after = await reads();
  const replica = since(before, after, 'replica1');
  const primary = since(before, after, 'primary');
  process.stdout.write(`steady reads: ${requests} requests; reads on replica1 ${replica}, on the primary ${primary}\n`);
  expect(failures).toEqual([]);
  expect(replica / (replica + primary)).toBeGreaterThanOrEqual(0.8);
});

/** Two ways a replica goes away under steady reads, and how each comes back. */
const FAULTS = [
  { fault: 'stops (pg_ctl stop)', away: () => pair.replica.stop(), back: () => pair.replica.start() },
  {
    fault: 'hangs (its processes stopped: connections accepted, never answered)',
    away: () => pair.replica.hang(),
    back: async () => pair.replica.resume(),
  },
];

it.each(FAULTS)(
  'when the replica $fault in the middle of steady reads, then no read fails or takes over 2 s, /readyz stays 200, and reads are back on it within 5 s of its return',
  async ({ fault, away, back }) => {
    let done = false;
    const probes: number[] = [];
    const probing = (async () => {
      while (!done) {
        probes.push((await fetch(`${service.baseUrl}/readyz`).catch(() => ({ status: 0 }))).status);
        await sleep(100);
      }
    })();
    const load = steadyReads(() => done);
    let returnedMs: number;
    try {
      await sleep(1000);
      await away();
      await sleep(2500);
      const out = await reads();
      await sleep(500);
      // Out: nothing more on it while it is away.
      expect(since(out, await reads(), 'replica1')).toBe(0);
      await back();
      returnedMs = await backOnTheReplica();
    } finally {
      // A hung replica answers again, whatever failed above.
      pair.replica.resume();
      done = true;
    }
    const { requests, failures, slowestMs } = await load;
    await probing;
    process.stdout.write(
      `replica ${fault}: ${requests} reads, ${failures.length} failed, slowest ${slowestMs} ms; reads on it ${returnedMs} ms after its return\n`,
    );
    expect(failures).toEqual([]);
    expect(slowestMs).toBeLessThan(2000);
    expect(probes.filter((s) => s !== 200)).toEqual([]);
    expect(returnedMs).toBeGreaterThanOrEqual(0);
    expect(returnedMs).toBeLessThan(5000);
  },
);

describe('two instances sharing Redis (REDIS_URL: the writes kept there)', () => {
  const prefix = `replica-${crypto.randomBytes(4).toString('hex')}:`;
  const env = () => ({
    ...productionEnv(),
    LOG_LEVEL: 'info',
    DATABASE_URL: pair.primary.url(DATABASE),
    DATABASE_REPLICA_URLS: pair.replica.url(DATABASE),
    REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
    REDIS_KEY_PREFIX: prefix,
  });
  let a: SpawnedService;
  let b: SpawnedService;
  beforeAll(async () => {
    [a, b] = await Promise.all([spawnService(env()), spawnService(env())]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('when a user writes on one instance and reads on the other straight after, 50 times, then every read sees the write', async () => {
    let seen = 0;
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${a.baseUrl}/rest/user/addresses`, {
        method: 'POST',
        headers: { ...auth(writer.token), 'content-type': 'application/json' },
        body: JSON.stringify({ typeCode: 'W', name: `Across ${i}` }),
      });
      expect(res.status).toBe(200);
      const { uuid } = (await res.json()) as { uuid: string };
      const list = await fetch(`${b.baseUrl}/rest/user/addresses`, { headers: auth(writer.token) });
      if (((await list.json()) as { uuid: string }[]).some((x) => x.uuid === uuid)) seen++;
      expect((await fetch(`${a.baseUrl}/rest/user/addresses/${uuid}`, { method: 'DELETE', headers: auth(writer.token) })).status).toBe(204);
    }
    expect(seen).toBe(50);
  });
});

describe('DATABASE_REPLICA_MAX_LAG_MS below the replica delay', () => {
  let lagging: SpawnedService;
  beforeAll(async () => {
    lagging = await spawnService({
      ...productionEnv(),
      LOG_LEVEL: 'info',
      DATABASE_URL: pair.primary.url(DATABASE),
      DATABASE_REPLICA_URLS: pair.replica.url(DATABASE),
      DATABASE_REPLICA_MAX_LAG_MS: '200',
      METRICS_TOKEN,
    });
  }, 60_000);
  afterAll(() => lagging?.stop());

  const metricsOf = async () => {
    const res = await fetch(`${lagging.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    const read = (target: string) => Number(new RegExp(`^db_reads_total\\{target="${target}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    const lag = Number(/^db_replica_lag_seconds\{replica="replica1"\} (\S+)/m.exec(text)?.[1]);
    return { replica: read('replica1'), primary: read('primary'), lag };
  };

  it('when writes keep the replica 500 ms behind, then it takes no reads within 1 s, and it takes them again within 1 s of the writes stopping', async () => {
    const [reader] = readers;
    let writing = true;
    // A write every 50 ms on a timer, up to four in flight: one stalled write (a loaded machine)
    // does not let the replica catch up, which would put it back within the bound for a moment.
    const inFlight = new Set<Promise<unknown>>();
    const timer = setInterval(() => {
      if (inFlight.size >= 4) return;
      const write: Promise<unknown> = createUserAddress(orm, writer.uId, { name: 'Lagging' }).finally(() => inFlight.delete(write));
      inFlight.add(write);
    }, 50);
    const writes = (async () => {
      while (writing) await sleep(20);
      clearInterval(timer);
      await Promise.all([...inFlight]);
    })();
    let reading = true;
    const reads = (async () => {
      while (reading) {
        expect((await fetch(`${lagging.baseUrl}/rest/user/profile`, { headers: auth(reader.token) })).status).toBe(200);
        await sleep(20);
      }
    })();
    try {
      await sleep(1000);
      const during = await metricsOf();
      await sleep(1000);
      const later = await metricsOf();
      expect(later.replica - during.replica).toBe(0);
      expect(later.primary - during.primary).toBeGreaterThan(0);
      expect(later.lag).toBeGreaterThan(0.2);
      writing = false;
      await writes;
      const stopped = Date.now();
      let backMs = -1;
      while (Date.now() - stopped < 3000) {
        if ((await metricsOf()).replica > later.replica) {
          backMs = Date.now() - stopped;
          break;
        }
        await sleep(50);
      }
      process.stdout.write(`lagging replica: back ${backMs} ms after the writes stopped (apply delay ${APPLY_DELAY_MS} ms)\n`);
      expect(backMs).toBeGreaterThanOrEqual(0);
      expect(backMs).toBeLessThan(APPLY_DELAY_MS + 1000);
    } finally {
      writing = false;
      reading = false;
      await writes;
      await reads;
    }
  });
});
