// Live clients for the tests: a graphql-ws connection (the graphql-transport-ws protocol spoken
// directly over ws) and a graphql-sse event stream, each with one subscription, as a client of
// docs/api/notifications.md ("Live delivery") opens them.
import WebSocket from 'ws';
import type { TestApp } from './app';
import { createCompany, createTeam, createUser, grantCompanyRole, tokenFor } from './factories';

/** Every field of an inbox item, as the documentation's example subscribes. */
export const SUBSCRIPTION =
  'subscription { notificationReceived { notificationId type companyId eventUUID brochureId message url read received } }';

type Item = Record<string, unknown>;

/** One event of a stream: its `event:` name and its `data:` parsed (null: none). */
export interface StreamEvent {
  event: string;
  data: any;
}

/**
 * Takes the complete blocks (ended by a blank line) off the front of an event stream's text read so
 * far, calling `onEvent` with each one that names an event; returns the rest (a block not yet whole).
 */
export function takeEvents(buffer: string, onEvent: (e: StreamEvent) => void): string {
  let cut;
  while ((cut = buffer.indexOf('\n\n')) >= 0) {
    const block = buffer.slice(0, cut);
    buffer = buffer.slice(cut + 2);
    const event = /^event: (.*)$/m.exec(block)?.[1];
    const data = /^data: (.*)$/m.exec(block)?.[1];
    if (event) onEvent({ event, data: data ? JSON.parse(data) : null });
  }
  return buffer;
}

/** What a live client sends besides its token: the subscription's text, and more connectionParams or headers. */
export interface LiveOptions {
  query?: string;
  /** More connectionParams (WebSocket) or headers (event stream), such as x-api-key. */
  extra?: Record<string, string>;
}

/** A graphql-ws connection (the graphql-transport-ws protocol, spoken directly) with one subscription, id '1'. */
export function openSocket(app: TestApp, token?: string, { query = SUBSCRIPTION, extra = {} }: LiveOptions = {}) {
  const ws = new WebSocket(`${app.baseUrl.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
  const items: { at: number; item: Item }[] = [];
  const messages: any[] = [];
  let arrived: () => void = () => undefined;
  const heard = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string; at: number }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString(), at: Date.now() })),
  );
  const acked = new Promise<boolean>((resolve) => {
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'connection_init', payload: { ...(token ? { 'x-service-authtoken': token } : {}), ...extra } })),
    );
    ws.on('message', (raw) => {
      const msg = JSON.parse((raw as Buffer).toString('utf8'));
      messages.push(msg);
      for (const wake of heard) wake();
      if (msg.type === 'connection_ack') {
        ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        resolve(true);
      }
      if (msg.type === 'next') {
        items.push({ at: Date.now(), item: msg.payload.data?.notificationReceived ?? msg.payload });
        arrived();
      }
    });
    ws.on('close', () => resolve(false));
  });
  /** The next item, or null after `ms` (an item that comes later stays for the next call). */
  const next = (ms = 3000) =>
    new Promise<{ at: number; item: Item } | null>((resolve) => {
      if (items.length) return resolve(items.shift()!);
      const timer = setTimeout(() => {
        arrived = () => undefined;
        resolve(null);
      }, ms);
      arrived = () => {
        arrived = () => undefined;
        clearTimeout(timer);
        resolve(items.shift()!);
      };
    });
  /** The first message received of `type` (or that `type` matches, at any time), or null after `ms`. */
  const message = (type: string | ((m: any) => boolean), ms = 3000) =>
    new Promise<any>((resolve) => {
      const look = () => {
        const found = messages.find(typeof type === 'string' ? (m) => m.type === type : type);
        if (found === undefined) return;
        clearTimeout(timer);
        heard.delete(look);
        resolve(found);
      };
      const timer = setTimeout(() => {
        heard.delete(look);
        resolve(null);
      }, ms);
      heard.add(look);
      look();
    });
  let pings = 0;
  /**
   * Resolves once the subscriptions sent so far have started: a ping after a subscribe is answered
   * once it has (src/http/live-ws.ts). Each ping is numbered, so a second call waits for its own pong.
   */
  const settled = async () => {
    const payload = { n: ++pings };
    ws.send(JSON.stringify({ type: 'ping', payload }));
    expect(await message((m) => m.type === 'pong' && m.payload?.n === payload.n)).not.toBeNull();
  };
  return { ws, items, messages, acked, closed, next, message, settled, close: () => ws.close() };
}

/** A graphql-sse stream (distinct connections mode) of one subscription, read as curl -N would. */
export async function openStream(app: TestApp, token?: string, { query = SUBSCRIPTION, extra = {} }: LiveOptions = {}) {
  const abort = new AbortController();
  const res = await fetch(`${app.baseUrl}/graphql/stream`, {
    method: 'POST',
    headers: {
      accept: 'text/event-stream',
      'content-type': 'application/json',
      ...(token ? { 'x-service-authtoken': token } : {}),
      ...extra,
    },
    body: JSON.stringify({ query }),
    signal: abort.signal,
  });
  const events: { at: number; event: string; data: any }[] = [];
  let ended = false;
  let wake: () => void = () => undefined;
  const pump = (async () => {
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        buffer = takeEvents(buffer, ({ event, data }) => {
          events.push({ at: Date.now(), event, data });
          wake();
        });
      }
    } catch {
      // aborted by the test
    }
    ended = true;
    wake();
  })();
  const next = (ms = 3000) =>
    new Promise<{ at: number; event: string; data: any } | null>((resolve) => {
      const take = () => (events.length ? resolve(events.shift()!) : ended ? resolve(null) : undefined);
      if (events.length || ended) return take();
      // (An event that comes after the timeout stays for the next call.)
      const timer = setTimeout(() => {
        wake = () => undefined;
        resolve(null);
      }, ms);
      wake = () => {
        if (events.length || ended) {
          wake = () => undefined;
          clearTimeout(timer);
          take();
        }
      };
    });
  return { res, next, ended: () => ended, pump, close: () => abort.abort() };
}

/** Polls `check` every 20 ms until it is true or `ms` have passed; answers whether it became true. */
export async function eventually(check: () => boolean | Promise<boolean>, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Whether a stream of the token is answered 200 within `ms` (each one closed at once): a place
 * given back is seen, though a stream that ended gives it back as its session closes, a moment
 * after its connection.
 */
export async function streamAccepted(app: TestApp, token: string, ms = 3000): Promise<boolean> {
  return eventually(async () => {
    const stream = await openStream(app, token);
    stream.close();
    return stream.res.status === 200;
  }, ms);
}

/** A company, its pusher (signed in on `app`) and a team of `members` fresh users with tokens. */
export async function liveAudience(app: TestApp, members = 1) {
  const company = await createCompany(app.orm);
  const pusher = await app.newUser();
  await grantCompanyRole(app.orm, pusher.uId, company.companyId, 'PUSH_NOTIFICATION');
  const users: { uId: number; token: string }[] = [];
  for (let i = 0; i < members; i++) {
    const { uId } = await createUser(app.orm);
    users.push({ uId, token: await tokenFor(app.orm, uId) });
  }
  const team = await createTeam(
    app.orm,
    company.companyId,
    users.map((u) => u.uId),
  );
  /** Sends a GT notification to the team through `app` (with `extra` fields of the body); answers when the request started. */
  const send = async (message: string, extra: Record<string, unknown> = {}) => {
    const startedAt = Date.now();
    const res = await pusher.rest('POST', '/rest/notification/send', {
      body: { companyId: company.companyId, broadcastType: 'GT', valueIds: [String(team.teamId)], message, ...extra },
    });
    expect(res.status).toBe(200);
    return startedAt;
  };
  return { companyId: company.companyId, users, send };
}
