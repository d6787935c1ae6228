// Bounded live connections (issue 37): subscriptions per WebSocket, live connections per token and
// per instance (WebSockets and event streams together), and slow readers, with small limits set
// through the environment. At each limit everything is served (a subscription at the limit still
// receives its notification); one past it is refused with the close code or status of
// docs/security.md "Live connections"; a slot given back serves again; another user's token is not
// affected. Everything runs on loopback against a real database.
import WebSocket from 'ws';
import { createTeam, createUser, createCompany, grantCompanyRole, suffix, tokenFor, type TestApp, useTestApp } from '../kit';
import { eventually, streamAccepted, takeEvents } from '../kit/live';

const SUBSCRIPTION = 'subscription { notificationReceived { notificationId message } }';
/** A stream refused at a limit: its category follows the status (429 for the token's, 503 for the instance's). */
const LIMIT_BODY = (message: string, code: 'RATE_LIMITED' | 'SERVICE_UNAVAILABLE') => ({
  errors: [{ message, extensions: { code, errorCode: 'WSLimitExceededException', retryAfter: 5 } }],
});
const TOKEN_FULL = 'This token holds 2 live connections, the most allowed; close one first.';
const INSTANCE_FULL = 'This instance holds as many live connections as it serves; try again later.';

type Message = { id?: string; type: string; payload?: any };

/** A graphql-transport-ws client spoken directly: connection_init with the token (none: the socket only opens). */
function liveSocket(app: TestApp, token: string | null) {
  const ws = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const messages: Message[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  const opened = new Promise<boolean>((resolve) => {
    ws.on('open', () => resolve(true));
    ws.on('close', () => resolve(false));
  });
  const acked = new Promise<boolean>((resolve) => {
    ws.on('open', () => {
      if (token !== null) ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-service-authtoken': token } }));
    });
    ws.on('close', () => resolve(false));
    ws.on('message', (raw) => {
      const msg = JSON.parse((raw as Buffer).toString('utf8')) as Message;
      messages.push(msg);
      if (msg.type === 'connection_ack') resolve(true);
      for (const wake of waiters) wake();
    });
  });
  /** The first message that matches, waiting up to `ms` (null: none came). */
  const waitFor = (match: (m: Message) => boolean, ms = 3000) =>
    new Promise<Message | null>((resolve) => {
      const look = () => {
        const i = messages.findIndex(match);
        if (i < 0) return false;
        done(messages.splice(i, 1)[0]);
        return true;
      };
      const done = (m: Message | null) => {
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(m);
      };
      const wake = () => void look();
      const timer = setTimeout(() => done(null), ms);
      waiters.add(wake);
      look();
    });
  let pings = 0;
  return {
    ws,
    /** Messages received and not yet taken by next(). */
    messages,
    opened,
    acked,
    closed,
    subscribe: (id: string, query = SUBSCRIPTION) => ws.send(JSON.stringify({ id, type: 'subscribe', payload: { query } })),
    complete: (id: string) => ws.send(JSON.stringify({ id, type: 'complete' })),
    ping: (n: number) => ws.send(JSON.stringify({ type: 'ping', payload: { n } })),
    /** What `send` sends leaves in one write, so the server reads it at once (frames are not compressed here). */
    burst: (send: () => void) => {
      const tcp = (ws as unknown as { _socket: import('node:net').Socket })._socket;
      tcp.cork();
      send();
      tcp.uncork();
    },
    /** Resolves when the server has answered a ping sent after every earlier message: its subscriptions have then
     * started (a message after a subscribe is handled once it has, src/http/live-ws.ts). */
    settled: async () => {
      const payload = { n: ++pings };
      ws.send(JSON.stringify({ type: 'ping', payload }));
      expect(await waitFor((m) => m.type === 'pong' && m.payload?.n === payload.n)).not.toBeNull();
    },
    next: (id: string, ms?: number) => waitFor((m) => m.type === 'next' && m.id === id, ms),
    waitFor,
    close: () => ws.close(),
  };
}

/** A graphql-sse stream (distinct connections mode); `read: false` leaves its body unread until `read()`. */
async function liveStream(app: TestApp, token: string, query = SUBSCRIPTION, read = true) {
  const abort = new AbortController();
  const res = await fetch(`${app.baseUrl}/graphql/stream`, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'x-service-authtoken': token },
    body: JSON.stringify({ query }),
    signal: abort.signal,
  });
  const events: { event: string; data: any }[] = [];
  let ended = false;
  let wake = () => undefined as void;
  const pump = async () => {
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        buffer = takeEvents(buffer, (e) => {
          events.push(e);
          wake();
        });
      }
    } catch {
      // aborted by the test, or cut by the server
    }
    ended = true;
    wake();
  };
  let pumping: Promise<void> | null = read ? pump() : null;
  /** The next event (null: none within `ms`, or the stream ended). */
  const next = (ms = 3000) =>
    new Promise<{ event: string; data: any } | null>((resolve) => {
      const settle = (timedOut = false) => {
        if (!timedOut && !events.length && !ended) return;
        // Once answered, a later event stays queued for the next call.
        wake = () => undefined;
        clearTimeout(timer);
        resolve(events.shift() ?? null);
      };
      const timer = setTimeout(() => settle(true), ms);
      wake = () => settle();
      settle();
    });
  return {
    res,
    next,
    events,
    ended: () => ended,
    read: () => (pumping ??= pump()),
    close: () => abort.abort(),
  };
}

/** What `promise` resolves to within `ms`, else null (the test goes on to fail rather than hang). */
const within = <T>(promise: Promise<T>, ms = 3000) =>
  Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

/** A company whose pusher sends to a team of the given users (REST, as a client does). */
async function sender(t: TestApp, members: number[]) {
  const company = await createCompany(t.orm);
  const pusher = await t.newUser();
  await grantCompanyRole(t.orm, pusher.uId, company.companyId, 'PUSH_NOTIFICATION');
  const team = await createTeam(t.orm, company.companyId, members);
  return async (message: string, url?: string) => {
    const res = await pusher.rest('POST', '/rest/notification/send', {
      body: { companyId: company.companyId, broadcastType: 'GT', valueIds: [String(team.teamId)], message, url },
    });
    expect(res.status).toBe(200);
  };
}

async function signedIn(t: TestApp) {
  const { uId } = await createUser(t.orm);
  return { uId, token: await tokenFor(t.orm, uId) };
}

/** A socket of the token, once one is acknowledged (a slot given back is seen within `ms`); null if none is. */
async function acceptedSocket(t: TestApp, token: string, ms = 3000) {
  const until = Date.now() + ms;
  for (;;) {
    const socket = liveSocket(t, token);
    if (await socket.acked) return socket;
    if (Date.now() > until) return null;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A socket acknowledged with these subscriptions registered. */
async function subscribedSocket(t: TestApp, token: string, ids: string[]) {
  const socket = liveSocket(t, token);
  expect(await socket.acked).toBe(true);
  for (const id of ids) socket.subscribe(id);
  await socket.settled();
  return socket;
}

/**
 * One past a limit: a new socket is never acknowledged and is closed with `code`; a new stream
 * answers `status` with Retry-After and `body`, as JSON.
 */
async function expectRefused(t: TestApp, token: string, { code, status, body }: { code: number; status: number; body: unknown }) {
  const socket = liveSocket(t, token);
  expect(await socket.acked).toBe(false);
  expect(await within(socket.closed)).toEqual({ code, reason: 'WSLimitExceededException' });
  const stream = await liveStream(t, token);
  expect(stream.res.status).toBe(status);
  expect(stream.res.headers.get('retry-after')).toBe('5');
  expect(stream.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(await stream.res.json()).toEqual(body);
}

describe('per connection and per token', () => {
  const t = useTestApp({ env: { LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '3', LIVE_MAX_CONNECTIONS_PER_TOKEN: '2' } });

  it('when a socket holds 3 subscriptions, then all three are served, and a 4th closes it with 4429 WSLimitExceededException', async () => {
    const user = await signedIn(t);
    const send = await sender(t, [user.uId]);
    const socket = await subscribedSocket(t, user.token, ['1', '2', '3']);
    await send(`At the limit ${suffix()}`);
    for (const id of ['1', '2', '3']) {
      expect((await socket.next(id))?.payload).toEqual({
        data: { notificationReceived: { notificationId: expect.any(Number), message: expect.stringMatching(/^At the limit /) } },
      });
    }
    socket.subscribe('4');
    expect(await within(socket.closed)).toEqual({ code: 4429, reason: 'WSLimitExceededException' });
  });

  // The client's messages leave in one write and reach the server in one read: all of them come
  // while the subscribe is starting.
  it('when a socket sends 64 messages while a subscribe starts, then each is answered after it, in order; a 65th closes it with 1008', async () => {
    const user = await signedIn(t);
    const send = await sender(t, [user.uId]);
    const patient = liveSocket(t, user.token);
    expect(await patient.acked).toBe(true);
    patient.burst(() => {
      patient.subscribe('1');
      for (let n = 1; n <= 64; n++) patient.ping(n);
    });
    expect(await patient.waitFor((m) => m.type === 'pong' && m.payload.n === 64)).not.toBeNull();
    const pongs = patient.messages.filter((m) => m.type === 'pong').map((m) => m.payload.n);
    expect(pongs).toEqual(Array.from({ length: 63 }, (_, i) => i + 1));
    await send(`After the pings ${suffix()}`);
    expect((await patient.next('1'))?.payload.data.notificationReceived.message).toMatch(/^After the pings /);

    const flooder = await signedIn(t);
    const flooding = liveSocket(t, flooder.token);
    expect(await flooding.acked).toBe(true);
    flooding.burst(() => {
      flooding.subscribe('1');
      for (let n = 1; n <= 65; n++) flooding.ping(n);
    });
    expect(await within(flooding.closed)).toEqual({ code: 1008, reason: 'WSLimitExceededException' });
    expect(flooding.messages.filter((m) => m.type === 'pong')).toEqual([]);
    expect(t.logs.filter((l) => l.event === 'live.refused' && l.userId === flooder.uId)).toEqual([
      expect.objectContaining({
        level: 30,
        limit: 'waiting',
        held: 65,
        msg: 'live socket closed: too many messages while a subscribe started',
      }),
    ]);
    patient.close();
  });

  it('when a subscription completes, then its slot serves another', async () => {
    const user = await signedIn(t);
    const send = await sender(t, [user.uId]);
    const socket = await subscribedSocket(t, user.token, ['1', '2', '3']);
    socket.complete('1');
    socket.subscribe('4');
    await socket.settled();
    await send(`Freed ${suffix()}`);
    for (const id of ['2', '3', '4']) expect(await socket.next(id)).not.toBeNull();
    expect(await socket.next('1', 200)).toBeNull();
    // The three held again: one more is one too many.
    socket.subscribe('5');
    expect(await within(socket.closed)).toEqual({ code: 4429, reason: 'WSLimitExceededException' });
  });

  it('when a token holds 2 live connections, then a 3rd socket is closed with 4429 and a 3rd stream answers 429 with Retry-After; another token is served', async () => {
    const user = await signedIn(t);
    const other = await signedIn(t);
    const send = await sender(t, [user.uId, other.uId]);
    const socket = await subscribedSocket(t, user.token, ['1']);
    const stream = await liveStream(t, user.token);
    expect(stream.res.status).toBe(200);

    // A third socket and a third stream.
    await expectRefused(t, user.token, { code: 4429, status: 429, body: LIMIT_BODY(TOKEN_FULL, 'RATE_LIMITED') });

    // Another user's token holds its own two.
    const theirSocket = await subscribedSocket(t, other.token, ['1']);
    const theirStream = await liveStream(t, other.token);
    expect(theirStream.res.status).toBe(200);

    // All four connections at the limit are served.
    await send(`Two each ${suffix()}`);
    expect(await socket.next('1')).not.toBeNull();
    expect(await stream.next()).toMatchObject({ event: 'next' });
    expect(await theirSocket.next('1')).not.toBeNull();
    expect(await theirStream.next()).toMatchObject({ event: 'next' });
    for (const c of [socket, stream, theirSocket, theirStream]) c.close();
  });

  it("when one of a full token's connections closes, then the token may open another: a socket, then a stream", async () => {
    const user = await signedIn(t);
    const socket = await subscribedSocket(t, user.token, ['1']);
    const stream = await liveStream(t, user.token);
    expect(stream.res.status).toBe(200);

    // Full: a third is refused.
    expect(await within(liveSocket(t, user.token).closed)).toEqual({ code: 4429, reason: 'WSLimitExceededException' });
    // The stream ends (its client leaves): its slot serves a socket.
    stream.close();
    const again = await acceptedSocket(t, user.token);
    expect(again).not.toBeNull();
    // Full again: a stream is refused. The socket ends: its slot serves a stream.
    expect((await liveStream(t, user.token)).res.status).toBe(429);
    socket.close();
    expect(await streamAccepted(t, user.token)).toBe(true);
    again!.close();
  });
});

describe('per instance', () => {
  const t = useTestApp({ env: { LIVE_MAX_CONNECTIONS: '3' } });

  it('when the instance holds 3 live connections (one socket not yet signed in), then a 4th socket is closed with 1013 and a stream answers 503 with Retry-After; a freed one serves again', async () => {
    const user = await signedIn(t);
    const send = await sender(t, [user.uId]);
    const stream = await liveStream(t, user.token);
    expect(stream.res.status).toBe(200);
    const socket = await subscribedSocket(t, user.token, ['1']);
    // Opened, never signed in (graphql-ws would close it after 3 s): it counts from its upgrade.
    const anonymous = liveSocket(t, null);
    expect(await anonymous.opened).toBe(true);

    // A fourth socket and a stream.
    await expectRefused(t, user.token, { code: 1013, status: 503, body: LIMIT_BODY(INSTANCE_FULL, 'SERVICE_UNAVAILABLE') });

    // At the limit, both are served.
    await send(`Instance full ${suffix()}`);
    expect(await socket.next('1')).not.toBeNull();
    expect(await stream.next()).toMatchObject({ event: 'next' });

    // The unsigned socket leaves: a new socket takes its place and is served.
    anonymous.close();
    const again = (await acceptedSocket(t, user.token))!;
    expect(again).not.toBeNull();
    again.subscribe('1');
    await again.settled();
    await send(`Freed ${suffix()}`);
    expect(await again.next('1')).not.toBeNull();
    for (const c of [again, socket, stream]) c.close();
  });
});

describe('sockets that never sign in', () => {
  const t = useTestApp({ env: { LIVE_MAX_CONNECTIONS: '1' } });

  it('when a socket sends no connection_init for 3 s (pings meanwhile), then it is closed with 4408, and its live connection serves another', async () => {
    const silent = liveSocket(t, null);
    expect(await silent.opened).toBe(true);
    const opened = Date.now();
    // A ping before connection_init is answered, and does not stand for it.
    await silent.settled();
    expect(await silent.closed).toEqual({ code: 4408, reason: 'Connection initialisation timeout' });
    const waited = Date.now() - opened;
    expect(waited).toBeGreaterThanOrEqual(2900);
    expect(waited).toBeLessThan(6000);

    const user = await signedIn(t);
    const again = await acceptedSocket(t, user.token);
    expect(again).not.toBeNull();
    again!.close();
  });

  it('when a socket signs in within 3 s, then it stays open past them', async () => {
    const user = await signedIn(t);
    // The test before gave its live connection back as its socket closed (the one the instance holds).
    const socket = (await acceptedSocket(t, user.token))!;
    expect(socket).not.toBeNull();
    const early = await Promise.race([socket.closed, new Promise((resolve) => setTimeout(() => resolve('open'), 3500))]);
    expect(early).toBe('open');
    await socket.settled();
    socket.close();
  });
});

describe('slow readers', () => {
  // One event of this document is about 15 KB: the kernel's buffers (some MB on loopback) fill in a few sends.
  const WIDE = `subscription { notificationReceived { ${Array.from({ length: 15 }, (_, i) => `u${i}: url`).join(' ')} } }`;
  const URL = `https://example.com/${'x'.repeat(1000)}`;
  const t = useTestApp({
    env: { LIVE_MAX_BUFFERED_BYTES: '1024', LIVE_MAX_SUBSCRIPTIONS_PER_CONNECTION: '50', LIVE_MAX_CONNECTIONS_PER_TOKEN: '1' },
  });

  const slowReaderLogged = (transport: string, userId: number) =>
    t.logs.some((l) => l.event === 'live.slow_reader' && l.transport === transport && l.userId === userId);

  /** Sends until the service says it cut the user's connection as a slow reader (at most `max` sends). */
  async function flood(send: (message: string, url?: string) => Promise<void>, transport: string, userId: number, max: number) {
    let sent = 0;
    for (; sent < max && !slowReaderLogged(transport, userId); sent += 4) {
      await Promise.all([1, 2, 3, 4].map((n) => send(`Flood ${n} ${suffix()}`, URL)));
    }
    console.log(`[live-limits] ${transport}: the slow reader was cut after ${sent} sends`);
    return slowReaderLogged(transport, userId);
  }

  /** A socket of the token with 50 subscriptions of WIDE: about 750 KB for each notification. */
  async function wideSocket(token: string) {
    const socket = liveSocket(t, token);
    expect(await socket.acked).toBe(true);
    for (let i = 0; i < 50; i++) socket.subscribe(String(i), WIDE);
    await socket.settled();
    return { socket, tcp: (socket.ws as unknown as { _socket: import('node:net').Socket })._socket };
  }

  it('when a socket stops reading, then it is closed with 1008 WSLimitExceededException (while it read, wide events in a row all arrived), and its token may connect again', async () => {
    const user = await signedIn(t);
    const send = await sender(t, [user.uId]);
    const { socket, tcp } = await wideSocket(user.token);
    // Read: six notifications in a row, 4.5 MB, all arrive; only a reader that falls behind is cut.
    for (let n = 1; n <= 6; n++) {
      await send(`In a row ${n} ${suffix()}`, URL);
      expect(await eventually(() => socket.messages.filter((m) => m.type === 'next').length === n * 50)).toBe(true);
    }
    expect(socket.messages.every((m) => m.type !== 'next' || m.payload.data.notificationReceived.u14 === URL)).toBe(true);
    expect(slowReaderLogged('ws', user.uId)).toBe(false);

    tcp.pause();
    expect(await flood(send, 'ws', user.uId, 80)).toBe(true);
    // Reading again at once, the client finds the close frame behind what it had left.
    tcp.resume();
    expect(await within(socket.closed)).toEqual({ code: 1008, reason: 'WSLimitExceededException' });
    const again = await acceptedSocket(t, user.token);
    expect(again).not.toBeNull();
    again!.close();
  });

  it('when a socket stops reading for good, then it is cut, and its token may connect again', async () => {
    const user = await signedIn(t);
    const send = await sender(t, [user.uId]);
    const { socket, tcp } = await wideSocket(user.token);
    tcp.pause();

    expect(await flood(send, 'ws', user.uId, 80)).toBe(true);
    // The client never answers the close: within the grace (1 s) the connection is cut and its slot given back.
    const again = await acceptedSocket(t, user.token, 5000);
    expect(again).not.toBeNull();
    again!.close();
    socket.ws.terminate();
  });

  it('when a stream is not read, then the service cuts it (no complete event; a stream read meanwhile is served), and its token may open another', async () => {
    const [user, reader] = [await signedIn(t), await signedIn(t)];
    const send = await sender(t, [user.uId, reader.uId]);
    const stream = await liveStream(t, user.token, WIDE, false);
    expect(stream.res.status).toBe(200);
    const read = await liveStream(t, reader.token, WIDE);
    expect(read.res.status).toBe(200);
    // Wide events in a row reach the stream that is read, one by one.
    for (let n = 0; n < 6; n++) {
      await send(`In a row ${n} ${suffix()}`, URL);
      expect(await read.next()).toMatchObject({ event: 'next', data: { data: { notificationReceived: { u14: URL } } } });
    }
    expect(slowReaderLogged('sse', reader.uId)).toBe(false);
    read.close();

    expect(await flood(send, 'sse', user.uId, 800)).toBe(true);
    await stream.read();
    expect(stream.ended()).toBe(true);
    expect(stream.events.some((e) => e.event === 'complete')).toBe(false);
    expect(await streamAccepted(t, user.token)).toBe(true);
  });
});
