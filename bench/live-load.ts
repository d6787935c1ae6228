// The load process of the live bench (bench/live.ts forks it, through prlimit(1) for its file
// descriptors): opens the subscribers it is given (graphql-ws on /graphql, graphql-sse on
// /graphql/stream, as docs/api/notifications.md describes them), sends the company-wide
// notification when told, and times each subscriber's item from the start of the send, on its own
// clock. It imports little (no ORM, no schema), so that it starts fast and its memory is its
// connections'. Talks to the bench over IPC: Command in, Opened and Delivered out.
import http from 'node:http';
import WebSocket from 'ws';
import { DEMO_COMPANIES } from '../src/db/demo';
import { NOTIFICATION_RECEIVED_SUBSCRIPTION } from '../src/graphql/examples';

/** The company whose notification the subscribers wait for: Northwind, where the bench users are members. */
export const COMPANY = DEMO_COMPANIES.northwind;
/** Subscribers the load process opens at once. */
export const OPEN_CONCURRENCY = 64;

export type Transport = 'ws' | 'sse';
export interface Subscriber {
  token: string;
  base: string;
  transport: Transport;
}
export type Command =
  /** `offset`: the number of the first (subscribers opened by earlier commands come before it). */
  | { type: 'open'; subscribers: Subscriber[]; offset?: number }
  | { type: 'send'; base: string; token: string; message: string; waitMs: number }
  | { type: 'close' };
export interface Opened {
  type: 'opened';
  seconds: number;
  failed: number;
  /** The first few failures' messages. */
  failures: string[];
}
export interface Delivered {
  type: 'delivered';
  status: number;
  answer: string;
  /** The send request's answer time, ms. */
  sendMs: number;
  /** ms from the start of the send until each subscriber had the item, by transport (unsorted). */
  ws: number[];
  sse: number[];
  missing: number;
  loadRssMb: number;
  /** The load process's own CPU (user and system) from the start of the send until it reports, ms. */
  loadCpuMs: number;
}

/** The company-wide notification, as a company admin sends it (REST; the sendNotification mutation underneath). */
export function sendNotice(base: string, token: string, message: string): Promise<Response> {
  return fetch(`${base}/rest/notification/send`, {
    method: 'POST',
    headers: { 'x-service-authtoken': token, 'content-type': 'application/json' },
    body: JSON.stringify({ companyId: COMPANY, broadcastType: 'JN', scheduleJobName: 'live-bench', message }),
  });
}

/** One open subscriber: `onText` sees what arrives after it is subscribed. */
type Opener = (s: Subscriber, onText: (text: string) => void) => Promise<() => void>;

/** graphql-ws (the graphql-transport-ws protocol, spoken directly): subscribed once acknowledged and the subscribe sent. */
const openSocket: Opener = (s, onText) =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`${s.base.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { perMessageDeflate: false });
    let acked = false;
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { 'x-service-authtoken': s.token } })));
    ws.on('message', (raw) => {
      const text = (raw as Buffer).toString('utf8');
      if (acked) return onText(text);
      if (!text.includes('"connection_ack"')) return;
      acked = true;
      ws.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: NOTIFICATION_RECEIVED_SUBSCRIPTION } }));
      resolve(() => ws.terminate());
    });
    ws.on('close', (code, reason) => {
      if (!acked) reject(new Error(`WebSocket closed before its acknowledgement: ${code} ${reason.toString()}`));
    });
    ws.on('error', (err) => {
      if (!acked) reject(err);
    });
  });

/** graphql-sse (distinct connections): subscribed once the stream answers 200 (graphql-sse subscribes before it answers). */
const openStream: Opener = (s, onText) =>
  new Promise((resolve, reject) => {
    const req = http.request(`${s.base}/graphql/stream`, {
      method: 'POST',
      agent: false,
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', 'x-service-authtoken': s.token },
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      // Cut when the bench closes it or the service stops: nothing to report then.
      res.on('error', () => undefined);
      if (res.statusCode !== 200) {
        let body = '';
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => reject(new Error(`event stream answered ${res.statusCode}: ${body.slice(0, 200)}`)));
        return;
      }
      res.on('data', onText);
      resolve(() => req.destroy());
    });
    req.on('error', reject);
    req.end(JSON.stringify({ query: NOTIFICATION_RECEIVED_SUBSCRIPTION }));
  });

/** The load process: opens the subscribers, sends when told, and times each subscriber's item. */
function loadProcess(): void {
  const send = (msg: Opened | Delivered) => process.send!(msg);
  const subscribers: { transport: Transport; close: () => void }[] = [];
  /** The text every subscriber waits for, once a send starts, and when each first saw it (ms from the send). */
  let marker = '';
  let sentAt = 0;
  const seen = new Map<number, number>();
  let allSeen: () => void = () => undefined;
  const watcher = (k: number) => {
    // An event may come in two chunks: the tail of the last one is kept in front of the next.
    let carry = '';
    return (text: string) => {
      if (!marker || seen.has(k)) return;
      const joined = carry + text;
      if (joined.includes(marker)) {
        seen.set(k, performance.now() - sentAt);
        if (seen.size === subscribers.length) allSeen();
      } else carry = joined.slice(-marker.length);
    };
  };
  // The bench process gone (it failed): nothing more to do.
  process.on('disconnect', () => process.exit(0));
  process.on('message', (raw) => {
    const cmd = raw as Command;
    void (async () => {
      if (cmd.type === 'open') {
        const started = performance.now();
        const failures: string[] = [];
        let next = 0;
        const worker = async () => {
          while (next < cmd.subscribers.length) {
            const i = next++;
            const k = (cmd.offset ?? 0) + i;
            const s = cmd.subscribers[i];
            try {
              const close = await (s.transport === 'ws' ? openSocket : openStream)(s, watcher(k));
              subscribers[k] = { transport: s.transport, close };
            } catch (err) {
              failures.push(`${s.transport} to ${s.base}: ${(err as Error).message}`);
            }
          }
        };
        await Promise.all(Array.from({ length: OPEN_CONCURRENCY }, worker));
        send({ type: 'opened', seconds: (performance.now() - started) / 1000, failed: failures.length, failures: failures.slice(0, 5) });
      } else if (cmd.type === 'send') {
        marker = cmd.message;
        const everyone = new Promise<void>((resolve) => (allSeen = resolve));
        // The first fetch() of a process loads Node's HTTP client (some 80 ms, measured on this
        // machine): one request before the send, so that the send times the service, not that.
        await (await fetch(`${cmd.base}/healthz`)).arrayBuffer();
        const cpuAtSend = process.cpuUsage();
        sentAt = performance.now();
        const res = await sendNotice(cmd.base, cmd.token, cmd.message);
        const sendMs = performance.now() - sentAt;
        const answer = await res.text();
        if (res.status === 200) await Promise.race([everyone, new Promise((r) => setTimeout(r, Math.max(0, cmd.waitMs - sendMs)))]);
        const by = (t: Transport) => [...seen].filter(([k]) => subscribers[k].transport === t).map(([, ms]) => ms);
        send({
          type: 'delivered',
          status: res.status,
          answer: answer.slice(0, 300),
          sendMs,
          ws: by('ws'),
          sse: by('sse'),
          missing: subscribers.length - seen.size,
          loadRssMb: Math.round(process.memoryUsage.rss() / 1024 / 102.4) / 10,
          loadCpuMs: (({ user, system }) => Math.round((user + system) / 1000))(process.cpuUsage(cpuAtSend)),
        });
      } else {
        // (A subscriber that failed to open left a hole.)
        for (const s of subscribers) s?.close();
        process.disconnect();
      }
    })();
  });
}

if (require.main === module) loadProcess();
