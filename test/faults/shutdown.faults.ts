// Graceful shutdown of the compiled service (as `npm start` runs it) on the real PostgreSQL
// server (npm run test:faults; needs DATABASE_URL). SIGTERM while a load generator runs over
// keep-alive connections: every request the service accepted gets its whole 2xx answer, new
// connections are refused while in-flight requests finish, and the process exits 0 well before
// the shutdown timeout, idle keep-alive clients or not. An upload in progress either finishes
// and is stored, or, when it outlasts SHUTDOWN_TIMEOUT_MS, is cut and leaves no row behind.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OLIVIA, onePagePdf } from '../kit';
import { createTestDb, type TestDb } from '../kit/db';
import { passwordParams } from '../kit/oauth';
import { spawnService, type SpawnedService } from '../kit/spawn';

if (!process.env.DATABASE_URL) throw new Error('npm run test:faults needs DATABASE_URL (a real PostgreSQL server)');

let db: TestDb;
let dataDir: string;
const running: SpawnedService[] = [];

beforeAll(async () => {
  db = await createTestDb(); // migrated and empty: the first service seeds the demo tenant
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pronet-shutdown-'));
});
afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<SpawnedService> {
  const service = await spawnService({
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: db.databaseUrl!,
    DATA_DIR: dataDir,
    QUEUE_WORKERS: '0',
    ...env,
  });
  running.push(service);
  return service;
}

/** Olivia's service token, the way a client gets one: password grant, then loginUser. */
async function login(baseUrl: string): Promise<string> {
  const form = new URLSearchParams(passwordParams('olivia@demo.example'));
  const tokens: any = await (await fetch(`${baseUrl}/as/token.oauth2`, { method: 'POST', body: form })).json();
  const res = await fetch(`${baseUrl}/rest/user/login`, { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as any).authToken;
}

/** SIGTERM now; resolves with the exit code and the time the exit took. */
function terminate(service: SpawnedService): { at: number; exited: Promise<{ code: number | null; ms: number }> } {
  const at = Date.now();
  const exited = new Promise<{ code: number | null; ms: number }>((resolve) =>
    service.child.once('exit', (code) => resolve({ code, ms: Date.now() - at })),
  );
  service.child.kill('SIGTERM');
  return { at, exited };
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const logged = (service: SpawnedService, msg: string) => service.lines.some((l) => l?.msg === msg);

function connectError(port: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code));
  });
}

interface Outcome {
  id: string;
  start: number;
  end: number;
  status?: number;
  /** The connection's error, when no complete answer came. */
  error?: string;
  /** The request went out on a kept-alive connection that had served an earlier request. */
  reused: boolean;
  /** Status line and headers had arrived when the error struck. */
  hadResponse: boolean;
}

interface Call {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The answer is complete and what the route answers. */
  check: (body: any) => boolean;
}

/** One request; the body must be whole JSON (its Content-Length honoured) to count as answered. */
function send(baseUrl: string, agent: http.Agent, call: Call, id: string): Promise<Outcome> {
  const start = Date.now();
  return new Promise((resolve) => {
    let hadResponse = false;
    let done = false;
    const finish = (o: Omit<Outcome, 'id' | 'start' | 'end' | 'reused' | 'hadResponse'>) => {
      if (done) return;
      done = true;
      resolve({ id, start, end: Date.now(), reused: req.reusedSocket, hadResponse, ...o });
    };
    const headers: Record<string, string | number> = { 'x-request-id': id, ...call.headers };
    if (call.body) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(call.body) });
    const req = http.request(baseUrl + call.path, { method: call.method, agent, headers }, (res) => {
      hadResponse = true;
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.once('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
      res.once('end', () => {
        const text = Buffer.concat(parts).toString();
        let ok: boolean;
        try {
          ok = call.check(JSON.parse(text));
        } catch {
          ok = false;
        }
        finish(ok ? { status: res.statusCode } : { status: res.statusCode, error: `unexpected body: ${text.slice(0, 200)}` });
      });
    });
    req.once('error', (err: NodeJS.ErrnoException) => finish({ error: err.code ?? err.message }));
    req.end(call.body);
  });
}

describe('SIGTERM while a load generator runs over keep-alive connections', () => {
  it('every accepted request gets its whole 2xx answer, later connections are refused, and the process exits 0 long before the shutdown timeout', async () => {
    const service = await start({ SHUTDOWN_TIMEOUT_MS: '10000' });
    const baseUrl = service.baseUrl;
    const auth = { 'x-service-authtoken': await login(baseUrl) };
    const calls: Call[] = [
      {
        method: 'GET',
        path: '/rest/refdata/timezones?countryCode=au',
        check: (b) => b.some((z: any) => z.timezoneId === 'Australia/Sydney'),
      },
      {
        method: 'GET',
        path: '/rest/user/addresses',
        headers: auth,
        check: (b) => Array.isArray(b) && b.length > 0 && typeof b[0].uuid === 'string',
      },
      { method: 'GET', path: '/rest/user/profile', headers: auth, check: (b) => b.uId === OLIVIA },
      {
        method: 'POST',
        path: '/graphql',
        headers: auth,
        body: JSON.stringify({ query: '{ userAddresses { uuid city } }' }),
        check: (b) => !b.errors && b.data.userAddresses.length > 0,
      },
    ];

    // A client that made one request and keeps its connection open, idle.
    const idleAgent = new http.Agent({ keepAlive: true });
    const idle = await send(baseUrl, idleAgent, { method: 'GET', path: '/healthz', check: (b) => b.status === 'ok' }, 'idle-1');
    expect({ status: idle.status, error: idle.error }).toEqual({ status: 200, error: undefined });
    const idleSocket = (idleAgent.freeSockets as Record<string, net.Socket[]>)[Object.keys(idleAgent.freeSockets)[0]][0];
    let idleClosedAt = 0;
    idleSocket.once('close', () => (idleClosedAt = Date.now()));

    // The load: 12 workers, each sending one request after another on kept-alive connections,
    // until a new connection is refused.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 12 });
    const outcomes: Outcome[] = [];
    let n = 0;
    const giveUpAt = Date.now() + 40_000;
    const worker = async (w: number) => {
      for (let i = w; Date.now() < giveUpAt; i++) {
        const o = await send(baseUrl, agent, calls[i % calls.length], `load-${n++}`);
        outcomes.push(o);
        if (o.error === 'ECONNREFUSED') return;
      }
    };
    const workers = Promise.all(Array.from({ length: 12 }, (_, w) => worker(w)));

    await until('warm-up load', () => outcomes.filter((o) => o.status === 200).length >= 200, 30_000);
    const sigterm = terminate(service);
    await workers;
    const exit = await sigterm.exited;
    agent.destroy();
    idleAgent.destroy();

    const answered = outcomes.filter((o) => !o.error);
    const failed = outcomes.filter((o) => o.error);
    const inFlightAtSigterm = answered.filter((o) => o.start < sigterm.at && o.end > sigterm.at);
    const sentAfterSigterm = answered.filter((o) => o.start > sigterm.at);
    console.log(
      `shutdown under load: ${answered.length} answered 2xx (${inFlightAtSigterm.length} in flight at SIGTERM, ${sentAfterSigterm.length} sent after it), ` +
        `${failed.filter((o) => o.error === 'ECONNREFUSED').length} refused at connect, ${failed.filter((o) => o.error !== 'ECONNREFUSED').length} reset before being read; exit ${exit.code} after ${exit.ms} ms`,
    );

    // The process drained and exited by itself: no forced close, no waiting out the idle client.
    expect(exit.code).toBe(0);
    expect(logged(service, 'stopped')).toBe(true);
    expect(logged(service, 'shutdown timeout: closing remaining connections')).toBe(false);
    expect(exit.ms).toBeLessThan(5_000); // the keep-alive timeout; the shutdown timeout is 10 s
    expect(idleClosedAt).toBeGreaterThan(0);
    expect(idleClosedAt - sigterm.at).toBeLessThan(2_000);

    // Every answer received is a whole 2xx body; the SIGTERM landed while requests were in flight.
    expect(answered.every((o) => o.status === 200)).toBe(true);
    expect(inFlightAtSigterm.length).toBeGreaterThan(0);
    // Every request the service accepted (its access log names each by request id) was answered
    // in full; what failed never reached it: refused at connect, or reset before the service read
    // it: on a kept-alive connection closed as it went idle, or on a new connection the kernel
    // still held in the listen backlog when the listener closed (the client may retry both).
    const accepted = new Map(
      service.lines
        .filter((l) => l?.msg === 'request' && /^load-/.test(l.requestId))
        .map((l) => [l.requestId as string, l.status as number]),
    );
    expect(accepted.size).toBe(answered.length);
    expect(answered.filter((o) => accepted.get(o.id) !== 200)).toEqual([]);
    expect(failed.filter((o) => accepted.has(o.id))).toEqual([]);
    for (const o of failed) {
      expect(o.end).toBeGreaterThanOrEqual(sigterm.at);
      expect(o.hadResponse).toBe(false);
      expect(['ECONNREFUSED', 'ECONNRESET']).toContain(o.error);
    }
    // Each worker stopped on a refused connection: the service no longer accepted any.
    expect(failed.filter((o) => o.error === 'ECONNREFUSED').length).toBe(12);
  }, 60_000);
});

/** A multipart upload of `content` to uploadSmartFile, written in pieces at a steady pace. */
function slowUpload(baseUrl: string, token: string, content: Buffer, pace: { pieceBytes: number; everyMs: number }) {
  const boundary = `----shutdown${crypto.randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="slow.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const state = { sent: 0, broken: false };
  const req = http.request(`${baseUrl}/rest/smartlib/upload/file`, {
    method: 'POST',
    agent: false,
    headers: {
      'x-service-authtoken': token,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + content.length + tail.length,
    },
  });
  const done = new Promise<{ status?: number; body?: any; error?: string }>((resolve) => {
    req.once('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.once('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(parts).toString()) }));
      res.once('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    });
    req.once('error', (err: NodeJS.ErrnoException) => {
      state.broken = true;
      resolve({ error: err.code ?? err.message });
    });
  });
  void (async () => {
    req.write(head);
    for (let offset = 0; offset < content.length && !state.broken; offset += pace.pieceBytes) {
      const piece = content.subarray(offset, offset + pace.pieceBytes);
      req.write(piece);
      state.sent += piece.length;
      await new Promise((r) => setTimeout(r, pace.everyMs));
    }
    if (!state.broken) req.end(tail);
  })();
  return { state, done };
}

/** A PDF of about `bytes`, unique to this call. */
function bigPdf(bytes: number): Buffer {
  const pdf = onePagePdf(`Shutdown ${crypto.randomBytes(6).toString('hex')}`);
  return Buffer.concat([pdf, crypto.randomBytes(bytes - pdf.length)]);
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer) => crypto.createHash('md5').update(b).digest('hex');

async function sql<T = any>(text: string, params: unknown[] = []): Promise<T[]> {
  return db.orm.em.fork().getConnection().execute(text, params);
}

/** Chunks written by a blob write that never finished (no stored_blob names their content). */
const strayChunks = async () =>
  (
    await sql(
      `select count(*)::int as n from stored_blob_chunk c where not exists (select 1 from stored_blob b where b.content_id = c.content_id)`,
    )
  )[0].n as number;
const uploadsOf = async (userId: number) =>
  (await sql(`select count(*)::int as n from smart_upload where user_id = ?`, [userId]))[0].n as number;

describe('an upload in progress at SIGTERM', () => {
  it('finishes and is stored while new connections are refused and an idle keep-alive connection is closed; then the process exits 0', async () => {
    const service = await start({ SHUTDOWN_TIMEOUT_MS: '10000' });
    const port = Number(new URL(service.baseUrl).port);
    const token = await login(service.baseUrl);
    const content = bigPdf(3 * 1024 * 1024 + 5000); // four 1 MiB chunks
    const before = await uploadsOf(OLIVIA);

    const upload = slowUpload(service.baseUrl, token, content, { pieceBytes: 64 * 1024, everyMs: 40 });
    await until('a third of the upload sent', () => upload.state.sent > content.length / 3);
    const sigterm = terminate(service);
    await until('the service to start shutting down', () => logged(service, 'shutting down: finishing in-flight requests'));

    // Draining: the upload is still streaming and the process still running, yet nothing new gets in.
    expect(await connectError(port)).toBe('ECONNREFUSED');
    const refused = await fetch(`${service.baseUrl}/healthz`).then(
      () => 'answered',
      (err) => err.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');
    expect(upload.state.sent).toBeLessThan(content.length);
    expect(service.child.exitCode).toBeNull();

    const answer = await upload.done;
    const answeredAt = Date.now();
    expect(answer).toEqual({
      status: 200,
      body: { originalFilename: 'slow.pdf', tempFilename: expect.stringMatching(/\.pdf$/), bytes: content.length, md5: md5(content) },
    });
    const exit = await sigterm.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - answeredAt).toBeLessThan(3_000);
    expect(logged(service, 'shutdown timeout: closing remaining connections')).toBe(false);

    // Stored whole: its upload row, its blob, every chunk.
    const rows = await sql(`select user_id, bytes, md5, blob_sha256 from smart_upload where temp_name = ?`, [answer.body.tempFilename]);
    expect(rows).toEqual([{ user_id: OLIVIA, bytes: content.length, md5: md5(content), blob_sha256: sha256(content) }]);
    const chunks = await sql(
      `select count(*)::int as n, sum(length(c.data))::int as bytes from stored_blob_chunk c join stored_blob b on b.content_id = c.content_id where b.sha256 = ?`,
      [sha256(content)],
    );
    expect(chunks).toEqual([{ n: 4, bytes: content.length }]);
    expect(await uploadsOf(OLIVIA)).toBe(before + 1);
    expect(await strayChunks()).toBe(0);
  }, 60_000);

  it('when it outlasts SHUTDOWN_TIMEOUT_MS, then its connection is cut, nothing of it stays stored, and the process exits 0 soon after the timeout', async () => {
    const service = await start({ SHUTDOWN_TIMEOUT_MS: '1500' });
    const token = await login(service.baseUrl);
    const content = bigPdf(8 * 1024 * 1024);
    const before = await uploadsOf(OLIVIA);
    expect(await strayChunks()).toBe(0);

    const upload = slowUpload(service.baseUrl, token, content, { pieceBytes: 64 * 1024, everyMs: 40 });
    // Part of it is already in the database when the SIGTERM comes.
    await until('two chunks stored', async () => (await strayChunks()) >= 2);
    const sigterm = terminate(service);

    const answer = await upload.done;
    expect(answer.status).toBeUndefined();
    expect(['ECONNRESET', 'EPIPE']).toContain(answer.error);
    expect(upload.state.sent).toBeLessThan(content.length);
    const exit = await sigterm.exited;
    expect(exit.code).toBe(0);
    expect(exit.ms).toBeGreaterThanOrEqual(1_500);
    expect(exit.ms).toBeLessThan(1_500 + 3_000);
    expect(logged(service, 'shutdown timeout: closing remaining connections')).toBe(true);

    expect(await uploadsOf(OLIVIA)).toBe(before);
    expect(await sql(`select sha256 from stored_blob where sha256 = ?`, [sha256(content)])).toEqual([]);
    expect(await strayChunks()).toBe(0);
  }, 60_000);
});
