// The GraphQL over SSE protocol at /graphql/stream (distinct connections mode), as
// src/http/live-sse.ts serves it: graphql-sse's own client subscribes and leaves; a GET stream's
// headers and first comment; what is refused before a stream opens, with graphql-sse's words; a
// subscription refused as it starts; and the access log line of a stream, written when it closes,
// and the line a client that resets its stream's connection leaves; a stream's session logs with
// the stream's request id.
import net from 'node:net';
import { createClient } from 'graphql-sse';
import { suffix, useTestApp } from '../kit';
import { liveAudience, openStream, streamAccepted, SUBSCRIPTION, takeEvents, type StreamEvent } from '../kit/live';

// One live connection a token: a stream that did not give its place back shows as a 429.
const app = useTestApp({ env: { LIVE_MAX_CONNECTIONS_PER_TOKEN: '1' } });

const streamUrl = () => `${app.baseUrl}/graphql/stream`;

/** Reads a stream's text until `until` says it has enough (or 3 s pass); the reader is cancelled after. */
async function readText(res: Response, until: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const deadline = Date.now() + 3000;
  while (!until(text) && Date.now() < deadline) {
    let timer!: NodeJS.Timeout;
    const { value, done } = await Promise.race([
      reader.read(),
      new Promise<{ value: undefined; done: true }>(
        (r) => (timer = setTimeout(() => r({ value: undefined, done: true }), deadline - Date.now())),
      ),
    ]);
    clearTimeout(timer);
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

const eventsOf = (text: string) => {
  const events: StreamEvent[] = [];
  takeEvents(text, (e) => events.push(e));
  return events;
};

/** The status a new stream of the token opens with (200: its place was free); the stream is closed at once. */
async function openStatus(token: string): Promise<number> {
  const stream = await openStream(app, token);
  stream.close();
  return stream.res.status;
}

it("when graphql-sse's own client subscribes, then each item sent arrives, and disposing of it frees its token's place", async () => {
  const { users, send } = await liveAudience(app, 1);
  const client = createClient({
    url: streamUrl(),
    singleConnection: false,
    retryAttempts: 0,
    headers: { 'x-service-authtoken': users[0].token },
  });
  const received: unknown[] = [];
  const errors: unknown[] = [];
  let connected!: () => void;
  const open = new Promise<void>((r) => (connected = r));
  const dispose = client.subscribe(
    { query: SUBSCRIPTION },
    { next: (value) => void received.push(value), error: (err) => void errors.push(err), complete: () => undefined },
    { connected: () => connected() },
  );
  await open;
  // Held: the token's one place is taken.
  expect(await openStatus(users[0].token)).toBe(429);

  const messages = [`SSE client one ${suffix()}`, `SSE client two ${suffix()}`];
  for (const message of messages) await send(message);
  for (let i = 0; i < 30 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  expect(received).toEqual(
    messages.map((message) => ({ data: { notificationReceived: expect.objectContaining({ message, type: 'GT', read: false }) } })),
  );
  expect(errors).toEqual([]);

  dispose();
  client.dispose();
  expect(await streamAccepted(app, users[0].token)).toBe(true);
});

it('when a stream is asked for with GET, then it answers the event-stream headers and a comment at once, then each item', async () => {
  const { users, send } = await liveAudience(app, 1);
  const abort = new AbortController();
  const res = await fetch(`${streamUrl()}?query=${encodeURIComponent(SUBSCRIPTION)}`, {
    headers: { accept: 'text/event-stream', 'x-service-authtoken': users[0].token },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  // Kept by no cache, changed by no proxy (no-transform, not graphql-sse's unregistered
  // `Content-Encoding: none`), and not buffered by nginx.
  expect(['content-type', 'cache-control', 'content-encoding', 'x-accel-buffering'].map((h) => res.headers.get(h))).toEqual([
    'text/event-stream; charset=utf-8',
    'no-store, no-transform',
    null,
    'no',
  ]);
  // Written before the stream opens, as on every answer: the security headers and the request id.
  expect(
    Object.fromEntries(
      [...res.headers].filter(([name]) => /^(x-content-type-options|x-frame-options|strict-transport-security)$/.test(name)),
    ),
  ).toEqual({
    'strict-transport-security': 'max-age=31536000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'SAMEORIGIN',
  });
  expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  const reader = res.body!.getReader();
  expect(new TextDecoder().decode((await reader.read()).value)).toBe(':\n\n');
  reader.releaseLock();

  const message = `SSE GET ${suffix()}`;
  await send(message);
  const text = await readText(res, (t) => t.includes('\n\n'));
  expect(eventsOf(text)).toEqual([{ event: 'next', data: { data: { notificationReceived: expect.objectContaining({ message }) } } }]);
  abort.abort();
});

describe('refused before the stream opens, with the error body of every refusal', () => {
  const refusal = (status: number, code: string, errorCode: string | undefined, message: string, field?: string) => ({
    status,
    body: { errors: [{ message, extensions: { code, ...(errorCode ? { errorCode } : {}), ...(field ? { field } : {}) } }] },
  });
  const invalid = (field: string, message: string, status = 400) =>
    refusal(status, 'BAD_USER_INPUT', 'WSInvalidParameterException', message, field);
  const cases: [string, RequestInit & { path?: string }, ReturnType<typeof refusal>][] = [
    [
      'an Accept other than text/event-stream',
      { method: 'POST', headers: { accept: 'application/json' }, body: JSON.stringify({ query: SUBSCRIPTION }) },
      invalid('accept', 'Subscriptions here are answered as text/event-stream: send Accept: text/event-stream.', 406),
    ],
    [
      'a POST body that is not JSON',
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'subscription' },
      invalid('body', 'Unsupported content type: send the subscription as application/json.', 415),
    ],
    [
      'a method other than GET and POST',
      { method: 'PUT', body: '{}' },
      refusal(405, 'BAD_REQUEST', 'WSMethodNotAllowedException', 'The method is not allowed on this path.'),
    ],
    ['a JSON body that is a list', { method: 'POST', body: '[]' }, invalid('body', 'The body must be a JSON object.')],
    [
      'a JSON body without a query',
      { method: 'POST', body: '{}' },
      refusal(400, 'BAD_REQUEST', undefined, 'A GraphQL document (query) is required.'),
    ],
    [
      'a query that is not text',
      { method: 'POST', body: '{"query":5}' },
      refusal(400, 'BAD_REQUEST', undefined, 'A GraphQL document (query) is required.'),
    ],
    [
      'variables that are a list',
      { method: 'POST', body: JSON.stringify({ query: SUBSCRIPTION, variables: [1] }) },
      invalid('variables', 'variables must be a JSON object.'),
    ],
    [
      'variables in the URL that do not parse',
      { method: 'GET', path: `?query=${encodeURIComponent(SUBSCRIPTION)}&variables=%7Bnot` },
      invalid('variables', 'variables is not JSON.'),
    ],
  ];

  it.each(cases)('%s', async (_name, { path = '', headers, ...init }, expected) => {
    const res = await fetch(streamUrl() + path, {
      ...init,
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...(headers as Record<string, string>) },
    });
    expect({ status: res.status, body: await res.json() }).toEqual(expected);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

it('when a subscription is refused as it starts (a variable missing), then it is one next event with the error, then complete, and its place is free', async () => {
  const { users } = await liveAudience(app, 1);
  const query = 'subscription ($on: Boolean!) { notificationReceived { notificationId @include(if: $on) } }';
  const res = await fetch(streamUrl(), {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'x-service-authtoken': users[0].token },
    body: JSON.stringify({ query }),
  });
  expect(res.status).toBe(200);
  const text = await readText(res, (t) => t.includes('event: complete'));
  expect(text.startsWith(':\n\n')).toBe(true);
  expect(eventsOf(text)).toEqual([
    {
      event: 'next',
      data: {
        errors: [
          {
            message: 'Invalid value for on.',
            locations: [{ line: 1, column: 15 }],
            extensions: { code: 'BAD_USER_INPUT', errorCode: 'WSInvalidParameterException', field: 'on' },
          },
        ],
      },
    },
    { event: 'complete', data: null },
  ]);
  // Its session closed as it was refused: the place is free at once.
  expect(await openStatus(users[0].token)).toBe(200);
});

it('when a variable decides the subscribed field, then it is refused 400 as a document that does not validate (not a 500)', async () => {
  // graphql-js 16 throws in validation there (src/http/live-sessions.ts).
  const res = await fetch(streamUrl(), {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'subscription ($on: Boolean!) { notificationReceived @include(if: $on) { notificationId } }',
      variables: { on: true },
    }),
  });
  expect({ status: res.status, body: await res.json() }).toEqual({
    status: 400,
    body: {
      errors: [
        {
          message: 'Argument "if" of required type "Boolean!" was provided the variable "$on" which was not provided a runtime value.',
          locations: [{ line: 1, column: 66 }],
          extensions: { code: 'GRAPHQL_VALIDATION_FAILED', errorCode: 'WSInvalidParameterException' },
        },
      ],
    },
  });
});

it('when a stream closes, then its access log line is written, with its status and how long it was open', async () => {
  const { users } = await liveAudience(app, 1);
  const requestId = `stream-${suffix()}`.replace(/[^A-Za-z0-9._-]/g, '');
  const stream = await openStream(app, users[0].token, { extra: { 'x-request-id': requestId } });
  expect(stream.res.status).toBe(200);
  const lineOf = () => app.logs.filter((l) => l.requestId === requestId && l.msg === 'request');
  await new Promise((r) => setTimeout(r, 300));
  expect(lineOf()).toEqual([]);
  stream.close();
  for (let i = 0; i < 20 && !lineOf().length; i++) await new Promise((r) => setTimeout(r, 50));
  expect(lineOf()).toEqual([
    expect.objectContaining({ method: 'POST', path: '/graphql/stream', status: 200, operation: 'graphql-stream', ms: expect.any(Number) }),
  ]);
  expect(lineOf()[0].ms).toBeGreaterThanOrEqual(300);
});

it('when a client resets the connection of its open stream, then that is logged as the client gone, not as a failure', async () => {
  const { users } = await liveAudience(app, 1);
  const requestId = `reset-${suffix()}`.replace(/[^A-Za-z0-9._-]/g, '');
  const body = JSON.stringify({ query: SUBSCRIPTION });
  const socket = net.connect(Number(new URL(app.baseUrl).port), '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(
    `POST /graphql/stream HTTP/1.1\r\nHost: 127.0.0.1\r\naccept: text/event-stream\r\ncontent-type: application/json\r\n` +
      `x-service-authtoken: ${users[0].token}\r\nx-request-id: ${requestId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  // Open: its head and first comment (a chunk) have arrived.
  let text = '';
  await new Promise<void>((resolve) =>
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (/\r\n\r\n[0-9a-f]+\r\n:\n\n/.test(text)) resolve();
    }),
  );
  expect(text).toMatch(/^HTTP\/1\.1 200 /);
  socket.resetAndDestroy();
  const linesOf = () => app.logs.filter((l) => l.requestId === requestId);
  for (let i = 0; i < 40 && !linesOf().some((l) => l.msg === 'request'); i++) await new Promise((r) => setTimeout(r, 50));
  // (In either order: Koa's report and the access log both wait for the close.)
  const lines = linesOf().map(({ level, msg, code }) => ({ level, msg, code }));
  expect(lines.sort((a, b) => a.msg.localeCompare(b.msg))).toEqual([
    { level: 30, msg: 'client connection closed under the answer', code: 'ECONNRESET' },
    { level: 30, msg: 'request', code: undefined },
  ]);
});

it("when a stream's session logs, then its lines carry the stream's request id", async () => {
  const { users } = await liveAudience(app, 1);
  const first = await openStream(app, users[0].token);
  expect(first.res.status).toBe(200);
  // The token's one place is held: the second stream's session logs its refusal.
  const requestId = `second-${suffix()}`.replace(/[^A-Za-z0-9._-]/g, '');
  const second = await openStream(app, users[0].token, { extra: { 'x-request-id': requestId } });
  expect(second.res.status).toBe(429);
  second.close();
  first.close();
  expect(app.logs.filter((l) => l.event === 'live.refused' && l.limit === 'token' && l.userId === users[0].uId)).toEqual([
    expect.objectContaining({ requestId, msg: 'live connection refused: token full' }),
  ]);
});
