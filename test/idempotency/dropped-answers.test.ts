// Issue 56's drill for Idempotency-Key: a proxy on loopback forwards every request to the service
// and, for every second mutation (the 1st, 3rd, ...), lets the service finish (the write commits) and then drops the
// answer (the client's connection is closed unanswered), as a flaky mobile network or a balancer
// that gives up does. The client retries each request until it sees an answer. With a key per
// intended write, the stored rows are exactly the intended writes; without, the retries write again
// (or are refused as duplicates of what the client was never told was stored).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CARA, DEMO, NORTHWIND, newPublisher, supportGroupForm, uniquePdf, useTestApp, type FormParts } from '../kit';
import { toForm } from '../kit/http';
import { HOLIDAY_ADDRESS } from './requests';

const t = useTestApp();

interface Answer {
  status: number;
  body: any;
}

/** The proxy: forwards each request whole; drops the answer of the 1st, 3rd, ... mutation after the service answered it. */
async function droppingProxy(target: string) {
  let mutations = 0;
  let dropped = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const drop = req.method !== 'GET' && ++mutations % 2 === 1;
      const upstream = http.request(
        target + req.url,
        { method: req.method, headers: { ...req.headers, host: new URL(target).host }, agent: false },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            if (drop) {
              dropped++;
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode!, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      upstream.on('error', () => req.socket.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropped: () => dropped,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

/** One request, sent again (the same bytes, the same key) while its answer does not arrive. */
async function withRetries(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<Answer & { tries: number }> {
  for (let tries = 1; tries <= 4; tries++) {
    const answer = await new Promise<Answer | null>((resolve) => {
      const req = http.request(url, { method, headers: { ...headers, 'content-length': String(body.length) }, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null });
        });
        res.on('error', () => resolve(null));
      });
      req.on('error', () => resolve(null));
      req.end(body);
    });
    if (answer) return { ...answer, tries };
  }
  throw new Error(`${method} ${url}: no answer after 4 tries`);
}

async function encodedForm(parts: FormParts): Promise<{ type: string; bytes: Buffer }> {
  const encoded = new Response(toForm(parts));
  return { type: encoded.headers.get('content-type')!, bytes: Buffer.from(await encoded.arrayBuffer()) };
}

/** The intended writes, each sent once through the proxy (with its retries); answers the rows they left. */
async function drill(keyed: boolean) {
  const proxy = await droppingProxy(t.baseUrl);
  try {
    const user = await t.newUser();
    const publisher = await newPublisher(t);
    const cara = await t.as(CARA).token();
    const run = `${keyed ? 'keyed' : 'bare'} ${crypto.randomUUID().slice(0, 8)}`;
    const headersOf = (credentials: Record<string, string>, type = 'application/json') => ({
      ...credentials,
      'content-type': type,
      ...(keyed ? { 'idempotency-key': crypto.randomUUID() } : {}),
    });
    const json = (path: string, credentials: Record<string, string>, body: unknown) =>
      withRetries(proxy.url + path, 'POST', headersOf(credentials), Buffer.from(JSON.stringify(body)));
    const form = async (path: string, credentials: Record<string, string>, parts: FormParts) => {
      const { type, bytes } = await encodedForm(parts);
      return withRetries(proxy.url + path, 'POST', headersOf(credentials, type), bytes);
    };
    const asUser = { 'x-service-authtoken': await user.token() };
    const asPublisher = { 'x-service-authtoken': await publisher.token() };
    const asCara = { 'x-service-authtoken': cara };

    const answers: Record<string, Answer & { tries: number }> = {};
    const count = async (text: string, params: unknown[]) => Number((await t.sql(text, params))[0].n);
    // Each write's first answer is dropped; its retry's goes through.
    answers.address = await json('/rest/user/addresses', asUser, HOLIDAY_ADDRESS);
    answers.upload = await form('/rest/smartlib/upload/file', asPublisher, { file: { content: uniquePdf(), filename: 'handbook.pdf' } });
    // Counted before the file entry uses the upload up.
    const uploads = await count('select count(*)::int n from smart_upload where user_id = ?', [publisher.uId]);
    answers.urlEntry = await json('/rest/smartlib/smartentry', asPublisher, {
      smartLibId: publisher.smartLibId,
      smartEntryType: 'URL',
      smartEntryName: `Portal ${run}`,
      smartEntryUrlLink: 'https://guidelines.example/portal',
    });
    answers.fileEntry = await json('/rest/smartlib/smartentry', asPublisher, {
      smartLibId: publisher.smartLibId,
      smartEntryType: 'PDF',
      smartEntryName: `Handbook ${run}`,
      smartFileInfo: { tempFilename: answers.upload.body?.tempFilename, originalFilename: 'handbook.pdf' },
    });
    answers.notification = await json('/rest/notification/send', asCara, {
      broadcastType: 'GT',
      companyId: NORTHWIND,
      valueIds: [String(DEMO.teamId)],
      message: `Ward meeting ${run}`,
    });
    answers.supportGroup = await form(
      '/rest/company/support-group',
      { ...asCara, 'x-service-company-api-key': DEMO.companyApiKey },
      supportGroupForm({ supportGroupName: `Support ${run}` }),
    );
    const rows = {
      address: await count('select count(*)::int n from user_address where user_id = ?', [user.uId]),
      upload: uploads,
      urlEntry: await count('select count(*)::int n from smart_entry where smart_entry_name = ?', [`Portal ${run}`]),
      fileEntry: await count('select count(*)::int n from smart_entry where smart_entry_name = ?', [`Handbook ${run}`]),
      notification: await count('select count(*)::int n from sent_notification where message = ?', [`Ward meeting ${run}`]),
      supportGroup: await count('select count(*)::int n from product where product_name like ?', [`% Support ${run}`]),
    };
    return { answers, rows, dropped: proxy.dropped() };
  } finally {
    await proxy.close();
  }
}

const ONE_EACH = { upload: 1, address: 1, urlEntry: 1, fileEntry: 1, notification: 1, supportGroup: 1 };
const statusesOf = (answers: Record<string, Answer>) => Object.fromEntries(Object.entries(answers).map(([k, a]) => [k, a.status]));

it('when every second answer is dropped and each write is retried with its Idempotency-Key, then each intended write is stored once and answered 200', async () => {
  const { answers, rows, dropped } = await drill(true);
  expect(dropped).toBe(6);
  expect(Object.values(answers).map((a) => a.tries)).toEqual([2, 2, 2, 2, 2, 2]);
  expect(statusesOf(answers)).toEqual({ upload: 200, address: 200, urlEntry: 200, fileEntry: 200, notification: 200, supportGroup: 200 });
  expect(rows).toEqual(ONE_EACH);
});

it('when the same writes are retried without the header, then the retries write again or are refused as duplicates of what was stored', async () => {
  const { answers, rows, dropped } = await drill(false);
  expect(dropped).toBe(6);
  expect(rows).not.toEqual(ONE_EACH);
  // Written twice: the client meant one address, one upload, one notification.
  expect(rows).toEqual({ ...ONE_EACH, address: 2, upload: 2, notification: 2 });
  // Stored once, but each retry was told it failed: the client cannot know the write happened.
  expect(statusesOf(answers)).toEqual({ address: 200, upload: 200, urlEntry: 409, fileEntry: 409, notification: 200, supportGroup: 400 });
  expect([answers.urlEntry, answers.fileEntry, answers.supportGroup].map((a) => a.body.errorCode)).toEqual([
    'WSDuplicateSmartEntryException',
    'WSDuplicateSmartEntryException',
    'WSInvalidParameterException',
  ]);
});
