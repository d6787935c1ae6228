// A browser's side of Web Push for tests: a subscription's keys (a P-256 key pair and an auth
// secret), and what the browser does with a message (RFC 8291 decryption with http_ece).
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

// http_ece (a dependency of web-push) ships no types.
const ece = createRequire(__filename)('http_ece') as { decrypt(body: Buffer, params: Record<string, unknown>): Buffer };

export interface BrowserKeys {
  ecdh: crypto.ECDH;
  p256dh: string;
  auth: string;
}

export function browserKeys(): BrowserKeys {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, p256dh: ecdh.getPublicKey().toString('base64url'), auth: crypto.randomBytes(16).toString('base64url') };
}

export const subscriptionJson = (endpoint: string, keys: BrowserKeys = browserKeys()) => ({
  endpoint,
  expirationTime: null,
  keys: { p256dh: keys.p256dh, auth: keys.auth },
});

/** Decrypts an aes128gcm push message body as the browser would. */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  return ece.decrypt(body, { version: 'aes128gcm', privateKey: keys.ecdh, authSecret: keys.auth }).toString('utf8');
}
