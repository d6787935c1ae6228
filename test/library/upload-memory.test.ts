// A 25 MB upload streams into storage: the service never holds the file in memory. The client
// runs in a child process, so what this process gains is what the service kept. (Holding the
// whole file, checked by hand, shows here as 15+ MB.) Nor does it leave copies of the file to
// the collector: the request's buffers are released as they are written and, on the server
// driver, the chunks go to the database without being copied (before, 20-25 MB of such
// buffers waited for a full collection).
import crypto from 'node:crypto';
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { DatabaseError } from 'pg';
import { newPublisher, useTestApp, type Publisher } from '../kit';
import { collect, gc, MB } from '../kit/memory';
import { readBlob, stagedStream, stageStream, storeStream } from '../../src/modules/storage/blob-store';
import { insertChunkUncopied, zeroCopyPool } from '../../src/modules/storage/chunk-insert';

/** Streams a multipart body with one PDF part of `size` bytes from one reused 64 KiB block. */
const CLIENT = `
const http = require('http');
const [url, token, sizeArg] = process.argv.slice(1);
const size = Number(sizeArg);
const boundary = '----pronetmemorytest';
const head = Buffer.from('--' + boundary + '\\r\\nContent-Disposition: form-data; name="file"; filename="big.pdf"\\r\\nContent-Type: application/pdf\\r\\n\\r\\n%PDF-1.4\\n');
const tail = Buffer.from('\\r\\n--' + boundary + '--\\r\\n');
const block = Buffer.alloc(64 * 1024, 0x20);
const headers = { 'content-type': 'multipart/form-data; boundary=' + boundary, 'x-service-authtoken': token, 'content-length': head.length + size - 9 + tail.length };
const req = http.request(url, { method: 'POST', headers }, (res) => {
  let body = '';
  res.on('data', (d) => (body += d));
  res.on('end', () => process.stdout.write(JSON.stringify({ status: res.statusCode, body: JSON.parse(body) })));
});
req.write(head);
let left = size - 9;
(function pump() {
  while (left > 0) {
    const n = Math.min(block.length, left);
    left -= n;
    if (!req.write(block.subarray(0, n))) return req.once('drain', pump);
  }
  req.end(tail);
})();
`;

const t = useTestApp();
let p: Publisher;
beforeAll(async () => {
  p = await newPublisher(t);
});

async function upload(size: number): Promise<{ status: number; body: any }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-e', CLIENT, `${t.baseUrl}/rest/smartlib/upload/file`, await p.token(), String(size)],
    { env: {} },
  );
  return JSON.parse(stdout);
}

it('when a 25 MB file is uploaded, then the service never holds more than ~10 MB for it, during or after', async () => {
  // Every code path once first, so the measurement sees steady state rather than first use;
  // and the embedded database (which lives in this process) stores as much once, directly.
  await upload(3 * MB);
  const filler = Buffer.alloc(MB, 0x41);
  await storeStream(
    t.orm.em.fork(),
    Readable.from(
      (function* () {
        for (let i = 0; i < 25; i++) yield filler;
      })(),
    ),
    { maxBytes: 26 * MB, field: 'file' },
  );
  await gc();
  const before = process.memoryUsage().rss;
  let peak = before;
  // Frequent full collections keep garbage from standing in for memory the service holds.
  const sampler = setInterval(() => {
    collect();
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  let res;
  try {
    res = await upload(25 * MB);
  } finally {
    // Never leave the collector running into the next test file (it would starve it).
    clearInterval(sampler);
  }
  await gc();
  const after = process.memoryUsage().rss;
  expect(res).toEqual({
    status: 200,
    body: { originalFilename: 'big.pdf', tempFilename: expect.stringMatching(/\.pdf$/), bytes: 25 * MB, md5: expect.any(String) },
  });
  expect((peak - before) / MB).toBeLessThan(10);
  expect((after - before) / MB).toBeLessThan(10);
  // Each forced full collection walks the whole jest process's heap, which grows with every
  // file run before this one in the same process: the upload takes minutes late in a full run.
}, 400_000);

it('when a 25 MB file is uploaded, then no copy of it waits for the collector: external memory stays flat with no collection forced', async () => {
  await upload(3 * MB);
  await gc();
  const before = process.memoryUsage().arrayBuffers;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 10);
  let res;
  try {
    res = await upload(25 * MB);
  } finally {
    clearInterval(sampler);
  }
  expect(res.status).toBe(200);
  if (t.db.databaseUrl) {
    // What stays is the chunk being filled (1 MiB) and the multipart layer's small buffers (25 MB
    // before).
    expect((peak - before) / MB).toBeLessThan(4);
  } else {
    // The embedded database runs in this process, and its driver's garbage is counted too: each
    // 1 MiB chunk goes as 2 MiB of hex text into a protocol buffer that grows by doubling (60-100 MB
    // in all before a collection comes). What can be told apart here is what is kept: nothing, once
    // collected. The peak is measured on the server's driver (CI).
    await gc();
    expect((process.memoryUsage().arrayBuffers - before) / MB).toBeLessThan(4);
  }
}, 400_000);

async function readAll(source: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of source) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Three chunks that span their own buffers and one that shares its buffer with bytes before it. */
function parts() {
  const own = [0x41, 0x42, 0x43].map((fill) => Buffer.alloc(700 * 1024, fill));
  const backing = Buffer.alloc(300 * 1024, 0x44);
  const shared = backing.subarray(100 * 1024);
  const all = [own[0], shared, own[1], own[2]];
  const expected = Buffer.concat(all);
  return { own, backing, shared, all, expected, md5: crypto.createHash('md5').update(expected).digest('hex') };
}

it('when a part is staged, then each chunk that spans its own buffer is released once written, and a chunk sharing its buffer is left alone', async () => {
  const p = parts();
  const staged = await stageStream(t.orm.em.fork(), Readable.from(p.all), {
    maxBytes: 10 * MB,
    contentId: crypto.randomUUID(),
    field: 'file',
  });
  expect(p.own.map((b) => b.length)).toEqual([0, 0, 0]);
  expect(p.shared.length).toBe(200 * 1024);
  expect(p.backing.every((byte) => byte === 0x44)).toBe(true);
  expect({ bytes: staged.bytes, md5: staged.md5 }).toEqual({ bytes: p.expected.length, md5: p.md5 });
  expect((await readAll(stagedStream(t.orm.em.fork(), staged.contentId))).equals(p.expected)).toBe(true);
});

it('when a stream is stored, then its chunks are released only when its source hands them over (consume), the content whole either way', async () => {
  for (const consume of [true, false]) {
    const p = parts();
    const blob = await storeStream(t.orm.em.fork(), Readable.from(p.all), { maxBytes: 10 * MB, field: 'file', consume });
    expect(p.own.map((b) => b.length)).toEqual(consume ? [0, 0, 0] : p.own.map(() => 700 * 1024));
    expect(p.shared.length).toBe(200 * 1024);
    expect({ bytes: blob.bytes, md5: blob.md5 }).toEqual({ bytes: p.expected.length, md5: p.md5 });
    expect((await readBlob(t.orm.em.fork(), blob.sha256)).equals(p.expected)).toBe(true);
  }
});

it('when a chunk is written outside a transaction on the server driver, then its bytes go to the socket as they are, and a refused insert leaves the connection usable', async () => {
  const em = t.orm.em.fork();
  const connection = zeroCopyPool(em);
  // The embedded database has no socket: it takes the driver's own path (covered by every upload test).
  if (!t.db.databaseUrl) return expect(connection).toBeUndefined();
  await em.transactional(async (tx) => expect(zeroCopyPool(tx)).toBeUndefined());
  const contentId = crypto.randomUUID();
  const data = crypto.randomBytes(MB + 17);
  const write = jest.spyOn(net.Socket.prototype, 'write');
  try {
    await insertChunkUncopied(connection!, contentId, 0, data);
    expect(write.mock.calls.some(([chunk]) => chunk === data)).toBe(true);
  } finally {
    write.mockRestore();
  }
  const refused = await insertChunkUncopied(connection!, contentId, 0, data).catch((err: unknown) => err);
  expect(refused).toBeInstanceOf(DatabaseError);
  expect((refused as DatabaseError).code).toBe('23505');
  await insertChunkUncopied(connection!, contentId, 1, Buffer.from('after'));
  const rows: { seq: number; data: Buffer }[] = await em
    .getConnection()
    .execute('select seq, data from stored_blob_chunk where content_id = ? order by seq', [contentId]);
  expect(rows.map((r) => ({ seq: r.seq, same: r.data.equals(r.seq === 0 ? data : Buffer.from('after')) }))).toEqual([
    { seq: 0, same: true },
    { seq: 1, same: true },
  ]);
  // Every connection the pool lent was given back (a refused insert's too).
  const pool = await connection!.getNativeClient();
  expect(pool.totalCount - pool.idleCount).toBe(0);
});
