// Settings production insists on that tests of production start-up have to supply.
import { generateVAPIDKeys } from 'web-push';

/** A fresh VAPID key pair and subject (Web Push), as production requires them. */
export function vapidSettings(): Record<'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT', string> {
  // web-push pads a private key with leading zero bytes to 32 (ECDH's getPrivateKey() drops them,
  // which production start-up refuses, about once in 256 pairs).
  const vapid = generateVAPIDKeys();
  return {
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: 'mailto:ops@example.org',
  };
}
