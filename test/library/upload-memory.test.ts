// A 25 MB upload streams into storage: the service never holds the file in memory. The client
// runs in a child process, so what this process gains is what the service kept. (Holding the
// whole file, checked by hand, shows here as 15+ MB.)
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { newPublisher, useTestApp, type Publisher } from '../kit';
import { collect, gc, MB } from '../kit/memory';
import { storeStream } from '../../src/modules/storage/blob-store';

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
