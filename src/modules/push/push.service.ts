// Registering and removing the caller's Web Push subscriptions. Field-level rules (presence,
// lengths, base64url shapes) are the input types' @Rules; here: the endpoint as a URL, the key as
// a point of the curve, and the rows. An endpoint belongs to one browser profile, so it is stored
// once: registering it again updates its keys, and registering it as another user moves it to
// that user (whoever signed in on the browser last receives its pushes).
import crypto from 'node:crypto';
import { isIP } from 'node:net';
import type { EntityManager } from '@mikro-orm/core';
import { removeSubscription, trimSubscriptions, upsertSubscription } from './push.queries';
import { fieldTooLong, invalidParameter } from '../../core/errors';
import { PUSH_LIMITS } from './push.entity';
import { charLength } from '../../core/text';

export interface SubscriptionKeys {
  p256dh: string;
  auth: string;
}

/**
 * The endpoint as stored: an https URL, serialised (so the same URL is one row however written).
 * Outside tests an IP address or a localhost name is refused: the service must not be made to
 * POST to its own network (push services are reached by name). The host is judged and stored as
 * the name it resolves as: the URL parser has lower-cased it and decoded it (percent escapes,
 * other scripts' letters, numeric IPv4 forms), and trailing dots, which name the same host
 * (`localhost.`), are dropped here.
 */
export function parseEndpoint(raw: string, allowLocal: boolean): string {
  let url: URL | null;
  try {
    url = new URL(raw.trim());
  } catch {
    url = null;
  }
  if (!url || url.protocol !== 'https:' || url.username || url.password) {
    throw invalidParameter('endpoint', 'endpoint must be an https URL.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
  if (!host || (!allowLocal && (isIP(host) !== 0 || host === 'localhost' || host.endsWith('.localhost')))) {
    throw invalidParameter('endpoint', 'endpoint must name a push service by its host name.');
  }
  if (!url.hostname.startsWith('[')) url.hostname = host;
  if (charLength(url.href) > PUSH_LIMITS.endpoint) throw fieldTooLong('endpoint', PUSH_LIMITS.endpoint);
  return url.href;
}

/** The browser's key must be a point of P-256 (the rule checked its length and encoding). */
export function checkKeys(keys: SubscriptionKeys): SubscriptionKeys {
  const point = Buffer.from(keys.p256dh, 'base64url');
  let valid = point.length === 65 && point[0] === 0x04;
  if (valid) {
    try {
      const x = point.subarray(1, 33).toString('base64url');
      const y = point.subarray(33).toString('base64url');
      crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x, y }, format: 'jwk' });
    } catch {
      valid = false;
    }
  }
  if (!valid) throw invalidParameter('keys.p256dh', 'keys.p256dh must be a base64url uncompressed P-256 public key (65 bytes).');
  // Stored unpadded, as browsers give them.
  return { p256dh: point.toString('base64url'), auth: Buffer.from(keys.auth, 'base64url').toString('base64url') };
}

/**
 * Stores the subscription for the user: one row per endpoint (new, updated, or moved from another
 * user), then drops the user's least recently registered ones beyond PUSH_LIMITS.perUser.
 * Two statements; answers the stored endpoint and the registration time.
 */
export async function subscribe(
  em: EntityManager,
  userId: number,
  endpoint: string,
  keys: SubscriptionKeys,
  now: Date,
): Promise<{ endpoint: string; registered: Date }> {
  await em.transactional(async (tx) => {
    await upsertSubscription.run(tx, { userId, endpoint, p256dh: keys.p256dh, auth: keys.auth, now });
    await trimSubscriptions.run(tx, { userId, keep: PUSH_LIMITS.perUser });
  });
  return { endpoint, registered: now };
}

/** Removes the user's subscription with this endpoint; answers 1, or 0 when they had none (another user's is left alone). */
export async function unsubscribe(em: EntityManager, userId: number, endpoint: string): Promise<number> {
  const [row] = await removeSubscription.run(em, { userId, endpoint });
  return row.removed;
}
