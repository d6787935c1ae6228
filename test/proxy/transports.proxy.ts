// Every transport through the documented proxy (issue 38, item 7): real nginx (Debian's package)
// runs deploy/nginx/pronet.conf in front of the service, and a client on its own loopback address
// reaches the service only through it. A REST read and an authenticated REST call answer as they
// do directly; a GraphQL query answers as directly; a notification sent through nginx reaches a
// subscriber over WebSocket (graphql-ws on /graphql: the upgrade passes) and over Server-Sent
// Events (/graphql/stream) within WITHIN_MS of its send; a file of UPLOAD_MAX_BYTES (25 MiB)
// passes client_max_body_size and is stored intact. X-Forwarded-For in the access log and the
// login counters: proxy.proxy.ts.
//
// The stream's controls show the measurement sees buffering. Over the file's HTTP/1.1 the service
// sends the stream chunked, and nginx passes on each complete chunk even when it buffers; over
// HTTP/1.0 (nginx's default, the old docs' example) the body ends only with the connection, and a
// buffering nginx holds it, head and events, until its buffer fills or the stream ends: nothing in
// WITHIN_MS. A stream's head says `X-Accel-Buffering: no`, so such an nginx does not buffer it
// either; the control makes nginx ignore that header. The same HTTP/1.0 file with
// `proxy_buffering off` delivers in time.
// `npm run test:proxy` (nginx must be installed: .ci/run installs it).
import crypto from 'node:crypto';
import http from 'node:http';
import WebSocket from 'ws';
import {
  createCompany,
  createTeam,
  createUser,
  grantCompanyRole,
  md5,
  newPublisher,
  OLIVIA,
  sha256,
  suffix,
  tokenFor,
  uniquePdf,
  useTestApp,
  type Reply,
  type TestApp,
} from '../kit';
import { toForm } from '../kit/http';
import { takeEvents } from '../kit/live';
import { SmartUpload } from '../kit/src';
import { readBlob } from '../../src/modules/storage/blob-store';
import { replaceOne, requestFrom, useNginx, type Nginx, type ProxiedRequest } from './nginx';

/** The client's address, as nginx sees it (and, with TRUST_PROXY_HOPS=1, the service). */
const CLIENT = '127.0.0.2';
const SUBSCRIPTION =
  'subscription { notificationReceived { notificationId type companyId eventUUID brochureId message url read received } }';
/** A live notification arrives through nginx within this long of the start of its send. */
const WITHIN_MS = 2000;
/** How long a socket or stream may take to open through nginx. */
const OPEN_MS = 5000;

type Delivery = { at: number; data: any };

const HTTP_1_1 = /^\s*proxy_http_version 1\.1;\n/;
const UNBUFFERED = /^\s*proxy_buffering off;\n/;
/** The stream's location buffering (nginx's default) and deaf to the service's X-Accel-Buffering. */
const BUFFERING_ALWAYS = (site: string) => replaceOne(site, UNBUFFERED, '    proxy_ignore_headers X-Accel-Buffering;\n');
/** An edit of the site file that drops these lines (each must be there exactly once). */
const without =
  (...lines: RegExp[]) =>
  (site: string) =>
    lines.reduce((edited, line) => replaceOne(edited, line, ''), site);

/** Whatever a test opened (sockets, streams): closed by the test and, should it fail first, in afterAll. */
const opened = new Set<{ close(): void }>();
function track<T extends { close(): void }>(it: T): T {
  opened.add(it);
  return it;
}
function closeOpened(): void {
  for (const it of opened) it.close();
  opened.clear();
}

/** The deliveries of one subscription, taken one at a time; each wait bounded. */
function deliveries() {
  const queue: Delivery[] = [];
  let wake: () => void = () => undefined;
  return {
    push: (data: any) => {
      queue.push({ at: Date.now(), data });
      wake();
    },
    /** The next delivery, or null when none comes within `ms`. */
    next: (ms = WITHIN_MS + 1000): Promise<Delivery | null> => {
      if (queue.length) return Promise.resolve(queue.shift()!);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          wake = () => undefined;
          resolve(null);
        }, ms);
        wake = () => {
          clearTimeout(timer);
          wake = () => undefined;
          resolve(queue.shift()!);
        };
      });
    },
  };
}

/** A graphql-ws subscription (the graphql-transport-ws protocol, spoken directly) through nginx; resolves once it has started. */
async function subscribeOverSocket(nginx: Nginx, token: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${nginx.port}/graphql`, 'graphql-transport-ws', { localAddress: CLIENT });
  const socket = track({ close: () => ws.terminate() });
  const items = deliveries();
  const acked = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no started subscription through nginx within ${OPEN_MS} ms`)), OPEN_MS);
    ws.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    ws.on('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      reject(new Error(`the WebSocket upgrade through nginx was answered ${res.statusCode}`));
    });
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-service-authtoken': token } })));
    ws.on('message', (raw) => {
      const msg = JSON.parse((raw as Buffer).toString('utf8'));
      if (msg.type === 'connection_ack') {
        // A ping after the subscribe: its pong comes once the subscription has started (the service
        // handles a socket's messages in order around a subscribe).
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION } }));
        ws.send(JSON.stringify({ type: 'ping' }));
      } else if (msg.type === 'pong') {
        clearTimeout(timer);
        resolve(ws.protocol);
      } else items.push(msg);
    });
  });
  return { protocol: acked, next: items.next, close: socket.close };
}

/** What `promise` settles to within `ms`, or null. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A graphql-sse stream (distinct connections mode) through nginx, read as it comes. Its request
 * is sent at once; `head()` waits (bounded) for the response's status and headers, which a
 * buffering proxy holds back as well.
 */
function subscribeOverStream(nginx: Nginx, token: string) {
  const body = JSON.stringify({ query: SUBSCRIPTION });
  const items = deliveries();
  const req = http.request(`${nginx.baseUrl}/graphql/stream`, {
    method: 'POST',
    localAddress: CLIENT,
    agent: false,
    headers: {
      accept: 'text/event-stream',
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-service-authtoken': token,
    },
  });
  const stream = track({ close: () => req.destroy() });
  const head = new Promise<{ status: number; contentType: string | undefined }>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      resolve({ status: res.statusCode!, contentType: res.headers['content-type'] });
      let buffer = '';
      res.setEncoding('utf8');
      res.on('error', () => undefined);
      res.on('data', (chunk: string) => {
        buffer += chunk;
        buffer = takeEvents(buffer, (e) => items.push(e));
      });
    });
  });
  // Read by head(); an error after the test is done with the stream (its close) is no failure.
  head.catch(() => undefined);
  req.end(body);
  return { head: (ms = OPEN_MS) => within(head, ms), next: items.next, close: stream.close };
}

describe('every transport through nginx (TRUST_PROXY_HOPS=1)', () => {
  // Declared first, so it runs first: clients leave before the app and nginx stop.
  afterAll(closeOpened);
  const t = useTestApp({ env: { LOG_LEVEL: 'info', TRUST_PROXY_HOPS: '1' } });
  const nginx = useNginx(t);
  // Controls for the stream: the site file speaking HTTP/1.0 to the service (an EOF-delimited body,
  // which a buffering nginx holds until its buffer fills), with and without `proxy_buffering off`,
  // and buffering whatever the service's head says.
  const http10 = useNginx(t, { edit: without(HTTP_1_1) });
  const http10Buffering = useNginx(t, { edit: without(HTTP_1_1, UNBUFFERED) });
  const http10Buffered = useNginx(t, { edit: (site) => BUFFERING_ALWAYS(without(HTTP_1_1)(site)) });

  /** A request to the service through nginx from CLIENT. */
  const through = (nginxOf: () => Nginx, path: string, options?: ProxiedRequest) =>
    requestFrom(CLIENT, `${nginxOf().baseUrl}${path}`, options);

  /** The access log line of the request with this id. */
  function accessLine(requestId: string): any {
    const lines = t.logs.filter((l) => l.msg === 'request' && l.requestId === requestId);
    expect(lines).toHaveLength(1);
    return lines[0];
  }

  /** A company with a pusher, and one recipient in a team of it; `send` posts a notification to the team through nginx. */
  async function audience(app: TestApp) {
    const company = await createCompany(app.orm);
    const pusher = await app.newUser();
    await grantCompanyRole(app.orm, pusher.uId, company.companyId, 'PUSH_NOTIFICATION');
    const recipient = await createUser(app.orm);
    const team = await createTeam(app.orm, company.companyId, [recipient.uId]);
    const pusherToken = await pusher.token();
    /** Sends through nginx (the deployed file); answers the send's reply and when its request started. */
    const send = async (message: string): Promise<{ res: Reply; startedAt: number }> => {
      const startedAt = Date.now();
      const res = await through(nginx, '/rest/notification/send', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-authtoken': pusherToken },
        body: JSON.stringify({ companyId: company.companyId, broadcastType: 'GT', valueIds: [String(team.teamId)], message }),
      });
      return { res, startedAt };
    };
    return { companyId: company.companyId, recipientToken: await tokenFor(app.orm, recipient.uId), send };
  }

  async function latestNotificationId(companyId: number): Promise<number> {
    const [row] = await t.sql('select max(notification_id) as id from sent_notification where company_id = ?', [companyId]);
    return row.id;
  }

  /** What the subscriber of `companyId` receives for `message`. */
  const notification = async (companyId: number, message: string) => ({
    notificationId: await latestNotificationId(companyId),
    type: 'GT',
    companyId,
    eventUUID: null,
    brochureId: null,
    message,
    url: null,
    read: false,
    received: expect.any(Number),
  });

  function expectSent(res: Reply, companyId: number, message: string): void {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      scheduledNotification: null,
      sentNotification: { type: 'GT', companyId, message, successful: true, totalNotificationsSent: 1 },
    });
  }

  it('when a client reads countries through nginx, then the answer is the direct one, and the access log names the client', async () => {
    const requestId = `countries-${suffix()}`;
    const direct = await t.rest('GET', '/rest/refdata/countries');
    const proxied = await through(nginx, '/rest/refdata/countries', { headers: { 'x-request-id': requestId } });
    expect(direct.status).toBe(200);
    expect(proxied.status).toBe(200);
    expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    expect(proxied.body).toEqual(direct.body);
    expect(proxied.body.length).toBeGreaterThanOrEqual(249);
    expect(proxied.body).toContainEqual({ countryCode: 'AU', countryName: 'Australia' });
    expect(proxied.headers.get('x-request-id')).toBe(requestId);
    expect(accessLine(requestId)).toMatchObject({ ip: CLIENT, status: 200 });
  });

  it('when a signed-in user reads their profile through nginx, then the answer is the direct one; without the token, the direct 401', async () => {
    const olivia = t.as(OLIVIA);
    const token = await olivia.token();
    const direct = await olivia.rest('GET', '/rest/user/profile');
    const proxied = await through(nginx, '/rest/user/profile', { headers: { 'x-service-authtoken': token } });
    expect(direct.status).toBe(200);
    expect(direct.body).toMatchObject({ uId: OLIVIA, uEmail: 'olivia@demo.example' });
    expect([proxied.status, proxied.body]).toEqual([200, direct.body]);

    const anonymousDirect = await t.rest('GET', '/rest/user/profile');
    const anonymous = await through(nginx, '/rest/user/profile');
    expect([anonymous.status, anonymous.body]).toEqual([
      401,
      { errorCode: 'WSInvalidAuthTokenException', message: 'The auth token is missing or invalid.' },
    ]);
    expect([anonymousDirect.status, anonymousDirect.body]).toEqual([anonymous.status, anonymous.body]);
  });

  it('when a GraphQL query is posted to /graphql through nginx, then it answers as directly', async () => {
    const token = await t.as(OLIVIA).token();
    const query = '{ authSession { userId email } countries { countryCode } }';
    const proxied = await through(nginx, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-service-authtoken': token },
      body: JSON.stringify({ query }),
    });
    expect(proxied.status).toBe(200);
    expect(proxied.body.errors).toBeUndefined();
    expect(proxied.body.data.authSession).toEqual({ userId: OLIVIA, email: 'olivia@demo.example' });
    expect(proxied.body.data.countries).toContainEqual({ countryCode: 'AU' });
    const direct = await t.as(OLIVIA).gql(query);
    expect(proxied.body).toEqual(direct.body);
  });

  it('when a notification is sent through nginx, then the recipient subscribed over WebSocket through nginx has it within 2 s', async () => {
    const { companyId, recipientToken, send } = await audience(t);
    const socket = await subscribeOverSocket(nginx(), recipientToken);
    try {
      expect(socket.protocol).toBe('graphql-transport-ws');
      const message = `Socket ${suffix()}`;
      const { res, startedAt } = await send(message);
      expectSent(res, companyId, message);
      const got = await socket.next();
      expect(got).not.toBeNull();
      console.log(`[proxy] WebSocket delivery through nginx in ${got!.at - startedAt} ms from the start of the send request`);
      expect(got!.at - startedAt).toBeLessThan(WITHIN_MS);
      expect(got!.data).toEqual({
        id: '1',
        type: 'next',
        payload: { data: { notificationReceived: await notification(companyId, message) } },
      });
    } finally {
      socket.close();
    }
  });

  /** A subscriber of a new audience, with a stream through `via` and a notification sent through the deployed file. */
  async function streamSubscriber(via: () => Nginx) {
    const { companyId, recipientToken, send } = await audience(t);
    const stream = subscribeOverStream(via(), recipientToken);
    // nginx passes the request on at once, buffering or not: the subscription is registered.
    await new Promise((r) => setTimeout(r, 250));
    const sendOne = async () => {
      const message = `Stream ${suffix()}`;
      const { res, startedAt } = await send(message);
      expectSent(res, companyId, message);
      return { startedAt, expected: { event: 'next', data: { data: { notificationReceived: await notification(companyId, message) } } } };
    };
    return { stream, recipientToken, sendOne };
  }

  /** A notification to a subscriber whose stream goes through `via`: it arrives within WITHIN_MS of its send. */
  async function expectStreamedWithin(via: () => Nginx): Promise<number> {
    const { stream, sendOne } = await streamSubscriber(via);
    try {
      const head = await stream.head();
      expect(head).toEqual({ status: 200, contentType: expect.stringMatching(/^text\/event-stream/) });
      const { startedAt, expected } = await sendOne();
      const got = await stream.next(Math.max(0, WITHIN_MS - (Date.now() - startedAt)));
      expect(got).not.toBeNull();
      expect(got!.at - startedAt).toBeLessThan(WITHIN_MS);
      expect(got!.data).toEqual(expected);
      return got!.at - startedAt;
    } finally {
      stream.close();
    }
  }

  it('when a notification is sent through nginx, then the recipient subscribed over SSE through nginx has it within 2 s', async () => {
    const ms = await expectStreamedWithin(nginx);
    console.log(`[proxy] SSE delivery through nginx in ${ms} ms from the start of the send request`);
  });

  it('control: a buffering nginx (HTTP/1.0 to the service, buffering on, X-Accel-Buffering ignored) holds the stream past 2 s, until the stream ends', async () => {
    const { stream, recipientToken, sendOne } = await streamSubscriber(http10Buffered);
    try {
      const { startedAt, expected } = await sendOne();
      // Nothing, not even the response's head, in the time the deployed file delivers in.
      expect(await stream.next(Math.max(0, WITHIN_MS - (Date.now() - startedAt)))).toBeNull();
      expect(await stream.head(0)).toBeNull();
      // The event was there all along: a logout completes the stream, its end flushes nginx's buffer.
      const logout = await through(nginx, '/rest/user/logout', { method: 'POST', headers: { 'x-service-authtoken': recipientToken } });
      expect(logout.status).toBe(204);
      expect(await stream.head()).toEqual({ status: 200, contentType: expect.stringMatching(/^text\/event-stream/) });
      const held = await stream.next();
      expect(held).not.toBeNull();
      expect(held!.at - startedAt).toBeGreaterThanOrEqual(WITHIN_MS);
      expect(held!.data).toEqual(expected);
      expect(await stream.next()).toMatchObject({ data: { event: 'complete' } });
    } finally {
      stream.close();
    }
  });

  it('control: over HTTP/1.0 to the service, `proxy_buffering off` alone passes the event on within 2 s', async () => {
    await expectStreamedWithin(http10);
  });

  it('when nginx would buffer (HTTP/1.0 to the service, buffering on), then the stream passes within 2 s all the same: its head says X-Accel-Buffering: no', async () => {
    await expectStreamedWithin(http10Buffering);
  });

  it('when a publisher uploads a 25 MiB PDF through nginx, then it is stored: 200, its bytes and MD5 as sent', async () => {
    // The default UPLOAD_MAX_BYTES, the size client_max_body_size must let through with the form around it.
    expect(t.config.uploadMaxBytes).toBe(25 * 1024 * 1024);
    const head = uniquePdf();
    const content = Buffer.concat([head, crypto.randomBytes(t.config.uploadMaxBytes - head.length)]);
    const publisher = await newPublisher(t);
    const encoded = new Response(toForm({ file: { content, filename: 'large.pdf' } }));
    const body = Buffer.from(await encoded.arrayBuffer());
    expect(body.length).toBeGreaterThan(content.length);
    const res = await through(nginx, '/rest/smartlib/upload/file', {
      method: 'POST',
      headers: { 'x-service-authtoken': await publisher.token(), 'content-type': encoded.headers.get('content-type')! },
      body,
    });
    expect([res.status, res.body]).toEqual([
      200,
      {
        originalFilename: 'large.pdf',
        tempFilename: expect.stringMatching(/^[A-Za-z0-9_-]{24}\.pdf$/),
        bytes: content.length,
        md5: md5(content),
      },
    ]);
    const row = await t.findOne(SmartUpload, { tempName: res.body.tempFilename });
    expect(row).toMatchObject({ kind: 'FILE', mimeType: 'application/pdf', bytes: content.length, md5: md5(content) });
    expect(row!.blob.sha256).toBe(sha256(content));
    expect((await readBlob(t.orm.em.fork(), sha256(content))).equals(content)).toBe(true);
  });
});
