// The VAPID key pair (RFC 8292) that signs every push and that browsers subscribe with. Production
// takes it from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (config.ts refuses to start without them);
// elsewhere one pair is generated and kept under DATA_DIR, so subscriptions survive a restart;
// tests share one pair per process, so a second instance signs for the first one's subscribers.
import fs from 'node:fs';
import path from 'node:path';
import { generateVAPIDKeys } from 'web-push';
import type { Config } from '../../config';
import type { Logger } from '../../logger';

export interface VapidKeys {
  /** base64url, the uncompressed P-256 point (65 bytes). */
  publicKey: string;
  /** base64url, 32 bytes. */
  privateKey: string;
}

let testKeys: VapidKeys | undefined;
const loaded = new WeakMap<Config, VapidKeys>();

function persistedKeys(dataDir: string, logger?: Logger): VapidKeys {
  const file = path.join(dataDir, 'push', 'vapid-keys.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
  const keys = generateVAPIDKeys();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // wx: two processes starting at once must not overwrite each other's pair.
  try {
    fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
    logger?.info({ file }, 'generated a development VAPID key pair');
  } catch (err: unknown) {
    if ((err as NodeJS.ErrnoException | null | undefined)?.code !== 'EEXIST') throw err;
    return JSON.parse(fs.readFileSync(file, 'utf8')) as VapidKeys;
  }
  return keys;
}

/** The configured pair, else the process's test pair, else the one kept under DATA_DIR (read once per configuration). */
export function vapidKeys(config: Config, logger?: Logger): VapidKeys {
  const configured = config.push.vapidKeys;
  if (configured) return configured;
  if (config.nodeEnv === 'test') return (testKeys ??= generateVAPIDKeys());
  let keys = loaded.get(config);
  if (!keys) loaded.set(config, (keys = persistedKeys(config.dataDir, logger)));
  return keys;
}
