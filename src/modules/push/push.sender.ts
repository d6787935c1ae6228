// Sends one Web Push message (RFC 8030) with the `web-push` package: the payload encrypted to the
// subscription's keys (RFC 8291, aes128gcm) and a VAPID token (RFC 8292) signed with our key pair.
// The push service's answer decides what happens to the subscription: 404 and 410 mean it is gone
// for good (the caller removes it); any other failure is thrown, so the job is retried.
import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import { sendNotification, WebPushError } from 'web-push';
import type { VapidKeys } from './push.keys';

/** How long a push service keeps an undelivered message for an offline device. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** Socket inactivity after which one send fails (and the job retries). */
export const PUSH_TIMEOUT_MS = 10_000;

export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export type PushOutcome = 'sent' | 'gone';

/** Addresses a push service never has: this host, private and shared networks, link-local, multicast, reserved. */
const NOT_PUBLIC = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 127],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');

/** Whether `address` (an IP literal) may be a push service's: not on this host or a private network. */
export function isPublicAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPublicAddress(mapped[1]);
  const family = net.isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The error of an endpoint whose name resolves to no public address: the subscription is treated as gone. */
const PRIVATE_ADDRESS = 'EPUSHPRIVATEADDRESS';

/**
 * Name resolution that keeps only public addresses: a subscription's endpoint is the browser's to
 * choose, so a name pointing into the service's own network (checked when it is stored only for IP
 * literals and localhost) is refused at connection time, whatever the name resolves to then.
 */
const publicLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const usable = addresses.filter((a) => isPublicAddress(a.address));
    if (!usable.length) {
      const refused: NodeJS.ErrnoException = new Error(`${hostname} resolves to no public address`);
      refused.code = PRIVATE_ADDRESS;
      return callback(refused, '');
    }
    if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  });
};

/** The https agent of the service's push connections: public addresses only, connections kept alive. */
export function publicOnlyAgent(): https.Agent {
  return new https.Agent({ keepAlive: true, lookup: publicLookup });
}

export interface PushSenderOptions {
  vapid: VapidKeys;
  /** VAPID `sub`: mailto: or https: URL. */
  subject: string;
  /** An https agent for the push service connections (tests: one that trusts the loopback server's certificate). */
  agent?: https.Agent;
  timeoutMs?: number;
}

export class PushSender {
  constructor(private readonly options: PushSenderOptions) {}

  /** Sends `payload` to one subscription: 'sent', or 'gone' when the push service answers 404 or 410. */
  async send(target: PushTarget, payload: string, topic?: string): Promise<PushOutcome> {
    const { vapid, subject, agent, timeoutMs = PUSH_TIMEOUT_MS } = this.options;
    try {
      await sendNotification(target, payload, {
        vapidDetails: { subject, publicKey: vapid.publicKey, privateKey: vapid.privateKey },
        contentEncoding: 'aes128gcm',
        TTL: PUSH_TTL_SECONDS,
        timeout: timeoutMs,
        ...(topic ? { topic } : {}),
        ...(agent ? { agent } : {}),
      });
      return 'sent';
    } catch (err: unknown) {
      if (err instanceof WebPushError && (err.statusCode === 404 || err.statusCode === 410)) return 'gone';
      // An endpoint that leads into the service's own network is no push service: drop it.
      if ((err as NodeJS.ErrnoException | null)?.code === PRIVATE_ADDRESS) return 'gone';
      throw err;
    }
  }
}
