// REST multipart forms are bounded by their route (issue 52, row 2; docs/security.md, "Hostile
// input"): a text part the route does not declare is refused naming it before any of it is kept,
// a part over its own bound is refused naming it, and a form with more parts than the route
// declares is refused. Each refusal comes at once: the rest of the body is never read, so a
// publisher's 100 x 1 MB of text parts neither reaches memory nor holds the request.
import net from 'node:net';
import { CARA, DEMO, formParts, newPublisher, onePagePdf, SUPPORT_GROUP_PATH, supportGroupForm, useTestApp, type Publisher } from '../kit';

const MB = 1024 * 1024;
const BOUNDARY = 'bounds-7MA4YWxkTrZu0gW';
const t = useTestApp({ env: { RATE_LIMIT_UPLOADS_PER_MINUTE: '1000', RATE_LIMIT_UPLOADS_PER_ADDRESS_PER_MINUTE: '1000' } });

const { text: textPart, file: filePart, end } = formParts(BOUNDARY);

interface Answer {
  status: number;
  body: any;
  /** Bytes of the body written before the answer came. */
  sent: number;
  total: number;
}

/**
 * Sends the parts as the socket takes them, on a connection of its own, and stops writing as soon
 * as an answer arrives (the service answers a refusal before it reads the rest, then closes).
 */
function post(path: string, headers: Record<string, string>, parts: Iterable<Buffer>, total: number): Promise<Answer> {
  const { port } = new URL(t.baseUrl);
  const head = Object.entries({ ...headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(total) })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
    const received: Buffer[] = [];
    let sent = 0;
    let done = false;
    const answer = () => {
      const bytes = Buffer.concat(received);
      const split = bytes.indexOf('\r\n\r\n');
      if (split < 0) return null;
      const headText = bytes.subarray(0, split).toString();
      const length = Number(/content-length: *(\d+)/i.exec(headText)?.[1] ?? -1);
      const body = bytes.subarray(split + 4);
      if (length < 0 || body.length < length) return null;
      return { status: Number(headText.split(' ')[1]), body: JSON.parse(body.subarray(0, length).toString()) };
    };
    const finish = () => {
      const a = answer();
      if (done || !a) return;
      done = true;
      socket.destroy();
      resolve({ ...a, sent, total });
    };
    socket.on('data', (d: Buffer) => {
      received.push(d);
      finish();
    });
    // A reset once the answer is in is the service closing a refused request; before it, a failure.
    socket.on('error', (err) => {
      finish();
      if (!done) reject(err);
    });
    socket.on('close', () => {
      finish();
      if (!done) reject(new Error('closed without an answer'));
    });
    void (async () => {
      socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n${head}\r\n`);
      for (const part of parts) {
        if (received.length || socket.destroyed) return;
        sent += part.length;
        if (!socket.write(part)) await new Promise((r) => socket.once('drain', r));
      }
    })();
  });
}

const sizeOf = (parts: Buffer[]) => parts.reduce((n, p) => n + p.length, 0);

let publisher: Publisher;
let headers: Record<string, string>;
beforeAll(async () => {
  publisher = await newPublisher(t);
  headers = { 'x-service-authtoken': await publisher.token() };
});

const uploads = () => t.countRows('smart_upload', { user_id: publisher.uId });

describe('text parts a route does not declare', () => {
  it('when a publisher uploads a file with 100 text parts of 1 MB, then 400 names the first one at once and nothing is stored', async () => {
    const before = await uploads();
    const megabyte = Buffer.alloc(MB, 'a');
    const pdf = filePart('file', 'doc.pdf', onePagePdf('bounded'));
    const count = 100;
    const total = pdf.length + count * textPart('extra00', megabyte).length + end.length;
    function* body() {
      yield pdf;
      for (let i = 0; i < count; i++) yield textPart(`extra${String(i).padStart(2, '0')}`, megabyte);
      yield end;
    }
    const res = await post('/rest/smartlib/upload/file', headers, body(), total);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      errorCode: 'WSInvalidParameterException',
      message: 'The form has no part named extra00.',
      field: 'extra00',
    });
    // Answered at the first part's end: what was written past it sat in socket buffers, never read.
    expect(res.sent).toBeLessThan(total / 4);
    expect(await uploads()).toBe(before);
  });

  it('when an upload carries one small text part besides its file, then 400 names it and nothing is stored', async () => {
    const before = await uploads();
    const parts = [textPart('description', 'mine'), filePart('file', 'doc.pdf', onePagePdf('described')), end];
    const res = await post('/rest/smartlib/upload/tile', headers, parts, sizeOf(parts));
    expect(res.body).toEqual({
      errorCode: 'WSInvalidParameterException',
      message: 'The form has no part named description.',
      field: 'description',
    });
    expect(res.status).toBe(400);
    expect(await uploads()).toBe(before);
  });

  it('when the file part comes as text (no filename), then 400 says it must be a file', async () => {
    const parts = [textPart('file', '%PDF-1.4\n%%EOF\n'), end];
    const res = await post('/rest/smartlib/upload/file', headers, parts, sizeOf(parts));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { errorCode: 'WSInvalidParameterException', message: 'The part file must be a file (a part with a filename).', field: 'file' },
    });
  });
});

describe('more parts than the route declares', () => {
  it('when an upload holds its file and 150 parts without a name, then 400 WSLimitExceededException names body', async () => {
    const nameless = Buffer.from(`--${BOUNDARY}\r\ncontent-type: text/plain\r\n\r\nx\r\n`);
    const parts = [filePart('file', 'doc.pdf', onePagePdf('crowded')), ...Array.from({ length: 150 }, () => nameless), end];
    const before = await uploads();
    const res = await post('/rest/smartlib/upload/file', headers, parts, sizeOf(parts));
    expect({ status: res.status, body: res.body }).toEqual({
      status: 400,
      body: { errorCode: 'WSLimitExceededException', message: 'The form holds more than 1 parts.', field: 'body' },
    });
    expect(await uploads()).toBe(before);
  });
});

describe('a declared text part over its own bound', () => {
  /** The support group form with `text` over its defaults, each field a part, then `extra` and the end. */
  const formParts = (text: Record<string, string>, ...extra: Buffer[]) => [
    ...Object.entries(supportGroupForm(text)).map(([name, value]) => textPart(name, value as string)),
    ...extra,
    end,
  ];
  const tooLong = (field: string, bytes: number) => ({
    status: 400,
    body: { errorCode: 'WSFieldLengthException', message: `The part ${field} is longer than the ${bytes} bytes it may hold.`, field },
  });

  it('when supportGroupName (150 characters) comes as 1 MB, then 400 WSFieldLengthException names it before the rest is read', async () => {
    const parts = formParts({ supportGroupName: 'n'.repeat(MB) }, textPart('assetDescription1', 'd'.repeat(MB)));
    const res = await post(SUPPORT_GROUP_PATH, await adminHeaders(), parts, sizeOf(parts));
    expect({ status: res.status, body: res.body }).toEqual(tooLong('supportGroupName', 1624));
  });

  it('when a part no rule bounds (directoryConsents) is over 1 MB, then 400 names it rather than cutting it short', async () => {
    const consents = JSON.stringify([{ consentType: 'DS', name: 'Listing', desc: 'x'.repeat(MB), required: true }]);
    const parts = formParts({ directoryConsents: consents });
    const res = await post(SUPPORT_GROUP_PATH, await adminHeaders(), parts, sizeOf(parts));
    expect({ status: res.status, body: res.body }).toEqual(tooLong('directoryConsents', MB));
  });
});

/** Cara (administrator of Northwind) with Northwind's active API key. */
async function adminHeaders(): Promise<Record<string, string>> {
  return { 'x-service-authtoken': await t.as(CARA).token(), 'x-service-company-api-key': DEMO.companyApiKey };
}
