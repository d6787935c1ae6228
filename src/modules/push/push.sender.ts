// Sends one Web Push message (RFC 8030) with the `web-push` package: the payload encrypted to the
// subscription's keys (RFC 8291, aes128gcm) and a VAPID token (RFC 8292) signed with our key pair.
// The push service's answer decides what happens to the subscription: 404 and 410 mean it is gone
// for good (the caller removes it); any other failure is thrown, so the job is retried.
import type https from 'node:https';
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
      throw err;
    }
  }
}
