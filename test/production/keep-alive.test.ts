// Kept-alive connections, as the compiled service holds them: every answer announces how long an
// idle connection is kept (`Keep-Alive: timeout=5`), and the service keeps it a second longer than
// it says, so a client that reuses a connection within the announced time is never cut as it
// writes (Node's agent and undici expire theirs a second or two before the hint). A connection
// idle past that is closed, so idle clients do not hold the instance's sockets.
import fs from 'node:fs';
import net from 'node:net';
import { SERVER_ENTRY, type SpawnedService } from '../kit/spawn';
import { compiledService, type CompiledService } from '../kit/production';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A raw connection: writes requests, and answers each response head as it arrives. */
function connect(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {}); // the close that follows is what a request here is told
  let buffered = '';
  let waiting: ((head: string) => void) | null = null;
  const ended = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    // Each answer here is small and whole in one read: hand over its head, drop its body.
    const end = buffered.indexOf('\r\n\r\n');
    if (end < 0 || !waiting) return;
    const head = buffered.slice(0, end);
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
    buffered = buffered.slice(end + 4 + length);
    const hand = waiting;
    waiting = null;
    hand(head);
  });
  return {
    ended,
    get(pathname: string): Promise<string> {
      return new Promise((resolve, reject) => {
        const closed = () => reject(new Error(`the connection closed before answering ${pathname}`));
        if (socket.destroyed) return closed();
        socket.once('close', closed);
        waiting = (head) => {
          socket.off('close', closed);
          resolve(head);
        };
        socket.write(`GET ${pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
      });
    },
  };
}

describe('a kept-alive connection to the compiled service', () => {
  let started: CompiledService | undefined;
  let service: SpawnedService;

  beforeAll(async () => {
    expect(fs.existsSync(SERVER_ENTRY)).toBe(true); // npm test builds before running jest
    started = await compiledService({ NODE_ENV: 'development', SEED_DEMO: 'false' });
    service = started.service;
  }, 60_000);
  afterAll(() => started?.close());

  it('announces 5 s, still answers on it after 5.3 s idle, and closes it after 6 s idle', async () => {
    const connection = connect(Number(new URL(service.baseUrl).port));
    const first = await connection.get('/readyz');
    expect(first).toMatch(/^HTTP\/1\.1 200 /);
    expect(first).toMatch(/\r\nconnection: keep-alive(\r\n|$)/i);
    expect(first).toMatch(/\r\nkeep-alive: timeout=5(\r\n|$)/i);

    // Past the announced timeout: a client that honoured it exactly is still served.
    await sleep(5_300);
    const second = await connection.get('/readyz');
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    const answered = Date.now();

    // Left idle, the service closes it: after its 5 s and its one-second margin, not long after.
    const closedAfter = (await connection.ended) - answered;
    expect(closedAfter).toBeGreaterThanOrEqual(5_900);
    expect(closedAfter).toBeLessThan(7_500);
  }, 30_000);
});
