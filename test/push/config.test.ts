// The Web Push settings: the VAPID pair from the environment (both or neither, the public key the
// private key's), required in production; elsewhere generated once and kept under DATA_DIR.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';
import { generateVAPIDKeys } from 'web-push';
import { vapidKeys } from '../../src/modules/push/push.keys';

/** A fresh pair: web-push pads the private key to 32 bytes (ECDH's getPrivateKey() may drop leading zero bytes). */
const pair = () => generateVAPIDKeys();

describe('VAPID configuration', () => {
  it('takes a pair and a subject from the environment; the keys are what the service signs with', () => {
    const keys = pair();
    const config = loadConfig({
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'https://ops.example.org',
    });
    expect(config.push).toEqual({ vapidKeys: keys, vapidSubject: 'https://ops.example.org' });
    expect(vapidKeys(config)).toEqual(keys);
  });

  it.each([
    [{ VAPID_PUBLIC_KEY: pair().publicKey }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together'],
    [{ VAPID_PRIVATE_KEY: pair().privateKey }, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together'],
    [
      { VAPID_PUBLIC_KEY: pair().publicKey, VAPID_PRIVATE_KEY: pair().privateKey },
      'VAPID_PUBLIC_KEY is not the public key of VAPID_PRIVATE_KEY',
    ],
    [
      { VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: pair().privateKey },
      'VAPID_PUBLIC_KEY must be a base64url uncompressed P-256 public key (65 bytes)',
    ],
    [
      { VAPID_PUBLIC_KEY: pair().publicKey, VAPID_PRIVATE_KEY: 'abc' },
      'VAPID_PRIVATE_KEY must be a base64url P-256 private key (32 bytes)',
    ],
    [{ VAPID_SUBJECT: 'http://ops.example.org' }, 'VAPID_SUBJECT must be a mailto: or https: URL, got "http://ops.example.org"'],
  ])('refuses %p', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  it('production refuses to start without the pair or the subject', () => {
    const keys = pair();
    const base = {
      NODE_ENV: 'production',
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.org',
    };
    // Checked in declaration order: the variables before these are given by the foundation's production test.
    for (const name of ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'] as const) {
      const { [name]: _omitted, ...rest } = base;
      const thrown = (() => {
        try {
          loadConfig({ ...productionRest(), ...rest });
        } catch (err) {
          return (err as Error).message;
        }
        return null;
      })();
      expect(thrown).toBe(`${name} is required in production`);
    }
  });

  it('outside production and tests, a pair is generated once and kept under DATA_DIR (mode 0600)', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vapid-'));
    try {
      const first = vapidKeys(loadConfig({ DATA_DIR: dataDir }));
      const file = path.join(dataDir, 'push', 'vapid-keys.json');
      expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(first);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
      // A restart (a new configuration) reads the same pair.
      expect(vapidKeys(loadConfig({ DATA_DIR: dataDir }))).toEqual(first);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

/** What production needs besides the VAPID settings. */
function productionRest(): Record<string, string> {
  const jwk = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
  return {
    DATABASE_URL: 'postgres://h/db',
    AUTH_SIGNING_KEYS: JSON.stringify({ keys: [{ ...jwk, kid: 'k1' }] }),
    LOGIN_CLIENT_ID: 'mobile',
    LOGIN_CLIENT_SECRET: 'x'.repeat(40),
    LOGIN_CLIENT_REDIRECT_URIS: 'com.example.app:/oauth/ssosignedin',
  };
}
