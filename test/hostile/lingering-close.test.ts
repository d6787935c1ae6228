// A request refused before its body was read (an upload with a part the route does not declare, a
// body over its limit) is answered at once and its connection closed, and the close lingers
// (src/http/linger.ts): the client that writes its whole body before it reads (as most HTTP clients
// do) still reads the answer. Without the linger, the bytes it sent after the close drew a reset and
// the client's write failed before it read anything. The linger is bounded: a client that never
// stops sending is cut off LINGER_MS after the answer.
import net from 'node:net';
import { LINGER_MS } from '../../src/http/linger';
import { formParts, newPublisher, onePagePdf, useTestApp, type Publisher } from '../kit';

const MB = 1024 * 1024;
const BOUNDARY = 'linger-9PQ2ZxkTrZu0gW';
const t = useTestApp({ env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000', RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '1000' } });

interface Exchange {
  status: number;
  body: unknown;
  /** The error of a write, if one failed (the connection was reset under the client). */
  writeError: string | null;
}

/**
 * Writes the request head and its whole body without reading, as a client that reads the answer
 * only once it has sent everything, then reads until the service closes the connection.
 */
function sendAllThenRead(path: string, headers: Record<string, string>, body: Buffer): Promise<Exchange> {
  const { port } = new URL(t.baseUrl);
  const head = Object.entries({ host: '127.0.0.1', ...headers, 'content-length': String(body.length) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
    socket.pause();
    const received: Buffer[] = [];
    let writeError: string | null = null;
    socket.on('error', (err: NodeJS.ErrnoException) => (writeError ??= err.code ?? err.message));
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('close', () => {
      const bytes = Buffer.concat(received);
      const split = bytes.indexOf('\r\n\r\n');
      if (split < 0) return resolve({ status: 0, body: null, writeError });
      const headText = bytes.subarray(0, split).toString();
      resolve({ status: Number(headText.split(' ')[1]), body: JSON.parse(bytes.subarray(split + 4).toString()), writeError });
    });
    socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
    // In 64 KB pieces, each after the last was taken: the body goes out as fast as the service reads it.
    void (async () => {
      for (let at = 0; at < body.length && !socket.destroyed; at += 64 * 1024) {
        const written = await new Promise<Error | null | undefined>((done) => socket.write(body.subarray(at, at + 64 * 1024), done));
        if (written) return;
      }
      socket.resume();
    })().catch(reject);
  });
}

const { text: textPart, file: filePart, end } = formParts(BOUNDARY);
const multipart = (parts: Buffer[]) => Buffer.concat([...parts, end]);

let publisher: Publisher;
let token: string;
beforeAll(async () => {
  publisher = await newPublisher(t);
  token = await publisher.token();
});

describe('a refusal before the body was read, to a client that writes everything first', () => {
  it('when an upload of 8 MB starts with a part the route does not declare, then every byte is taken and the client reads the 400', async () => {
    const before = await t.countRows('smart_upload', { user_id: publisher.uId });
    // A PDF padded to 8 MB: its bytes follow the refused part and are still on the way when the answer is sent.
    const pdf = Buffer.concat([onePagePdf('lingering'), Buffer.alloc(8 * MB, 0x20)]);
    const body = multipart([textPart('description', 'mine'), filePart('file', 'doc.pdf', pdf)]);
    const res = await sendAllThenRead(
      '/rest/smartlib/upload/tile',
      { 'x-service-authtoken': token, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, connection: 'close' },
      body,
    );
    expect(res).toEqual({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: 'The form has no part named description.', field: 'description' },
      writeError: null,
    });
    expect(await t.countRows('smart_upload', { user_id: publisher.uId })).toBe(before);
  });

  it('when a JSON body of 8 MB is over the route limit, then every byte is taken and the client reads the 413', async () => {
    const body = Buffer.from(JSON.stringify({ typeCode: 'W', name: 'x'.repeat(8 * MB) }));
    const res = await sendAllThenRead('/rest/user/addresses', { 'x-service-authtoken': token, 'content-type': 'application/json' }, body);
    expect(res).toEqual({
      status: 413,
      body: { errorCode: 'WSLimitExceededException', message: 'The request body is too large.' },
      writeError: null,
    });
    expect(await t.countRows('user_address', { user_id: publisher.uId })).toBe(0);
  });
});

describe('the linger is bounded', () => {
  it('when a client goes on sending after the 413 and never ends, then the service closes the connection LINGER_MS after the answer', async () => {
    const { port } = new URL(t.baseUrl);
    // Half-open: the service's end of the connection does not end the client's, which goes on sending.
    const socket = net.connect({ host: '127.0.0.1', port: Number(port), allowHalfOpen: true });
    socket.on('error', () => undefined);
    socket.write(
      `POST /rest/user/addresses HTTP/1.1\r\nhost: 127.0.0.1\r\nx-service-authtoken: ${token}\r\n` +
        `content-type: application/json\r\ncontent-length: ${64 * MB}\r\n\r\n{"name":"`,
    );
    const answeredAt = await new Promise<number>((resolve) => socket.once('data', () => resolve(Date.now())));
    const trickle = setInterval(() => socket.write(Buffer.alloc(1024, 0x61)), 50);
    const closedAt = await new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    clearInterval(trickle);
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(LINGER_MS - 100);
    expect(closedAt - answeredAt).toBeLessThan(LINGER_MS + 3_000);
  });
});
