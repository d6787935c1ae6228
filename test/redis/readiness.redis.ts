// /readyz with REDIS_URL: 503 naming the cache while Redis does not answer (as authenticated calls
// are), 200 again once it does. Redis is reached through a TCP proxy the test stops and starts again
// on the same port. Without REDIS_URL: test/hostile/readiness.test.ts.
import net from 'node:net';
import { Redis } from 'ioredis';
import { freePort, OLIVIA, useTestApp } from '../kit';
import { REDIS_URL } from '../kit/redis';

/**
 * A TCP proxy from a loopback port to Redis, that can be stopped (every connection cut) and
 * started again, or frozen (connections held open, nothing passed on either way).
 */
class Proxy {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private frozen = false;

  constructor(
    readonly port: number,
    private readonly target = 6379,
  ) {}

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.target, '127.0.0.1');
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => undefined);
      }
      client.on('data', (d: Buffer) => this.frozen || upstream.write(d));
      upstream.on('data', (d: Buffer) => this.frozen || client.write(d));
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.server = server;
  }

  freeze(): void {
    this.frozen = true;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.frozen = false;
    for (const s of this.sockets) s.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

let proxy: Proxy;
beforeAll(async () => {
  proxy = new Proxy(await freePort());
  await proxy.start();
});
afterAll(() => proxy.stop());

describe('with REDIS_URL', () => {
  const prefix = () => `readiness-${proxy.port}:`;
  const t = useTestApp(() => ({ env: { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, REDIS_KEY_PREFIX: prefix() } }));
  const olivia = t.as(OLIVIA);

  afterAll(async () => {
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix()}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  /** /readyz, asked until it answers `status` (Redis reconnects within 2 s) or 10 s have passed. */
  async function readyz(status: number) {
    const until = Date.now() + 10_000;
    for (;;) {
      const res = await t.rest('GET', '/readyz');
      if (res.status === status || Date.now() > until) return res;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('when Redis answers, then /readyz is 200 and names the cache up', async () => {
    const res = await t.rest('GET', '/readyz');
    expect([res.status, res.body]).toEqual([200, { status: 'ready', database: 'up', cache: 'up' }]);
  });

  it('when Redis stops answering, then /readyz is 503 naming the cache, as authenticated calls are; when it is back, 200', async () => {
    await proxy.stop();
    try {
      const down = await readyz(503);
      expect([down.status, down.body]).toEqual([503, { status: 'unavailable', database: 'up', cache: 'down' }]);
      // What readiness stands for: an authenticated call answers 503 meanwhile.
      const call = await olivia.rest('GET', '/rest/user/session');
      expect([call.status, call.body]).toEqual([
        503,
        { errorCode: 'WSCacheServiceException', message: 'The cache service is unavailable.' },
      ]);
    } finally {
      await proxy.start();
    }
    const up = await readyz(200);
    expect([up.status, up.body]).toEqual([200, { status: 'ready', database: 'up', cache: 'up' }]);
    expect((await olivia.rest('GET', '/rest/user/session')).status).toBe(200);
  });

  it('when Redis holds the connection but does not answer, then /readyz is 503 within a second', async () => {
    proxy.freeze();
    try {
      const started = Date.now();
      const res = await t.rest('GET', '/readyz');
      expect([res.status, res.body, Date.now() - started < 1000]).toEqual([
        503,
        { status: 'unavailable', database: 'up', cache: 'down' },
        true,
      ]);
    } finally {
      // The commands it held are lost: a new connection starts clean.
      await proxy.stop();
      await proxy.start();
    }
    expect((await readyz(200)).status).toBe(200);
  });
});
