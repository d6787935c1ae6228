// Settings production insists on that tests of production start-up have to supply.
import crypto from 'node:crypto';

/** A fresh VAPID key pair and subject (Web Push), as production requires them. */
export function vapidSettings(): Record<'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT', string> {
  const vapid = crypto.createECDH('prime256v1');
  vapid.generateKeys();
  return {
    VAPID_PUBLIC_KEY: vapid.getPublicKey().toString('base64url'),
    VAPID_PRIVATE_KEY: vapid.getPrivateKey().toString('base64url'),
    VAPID_SUBJECT: 'mailto:ops@example.org',
  };
}
