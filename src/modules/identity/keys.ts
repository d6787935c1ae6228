// ES256 signing keys for access and SSO tokens. Production takes them from AUTH_SIGNING_KEYS;
// the embedded default generates one and keeps it under DATA_DIR, so tokens survive a
// restart; tests share one key per process, so a second instance verifies the first's tokens.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { exportJWK, generateKeyPair, importJWK, calculateJwkThumbprint, type CryptoKey, type JWK } from 'jose';
import type { Config } from '../../config';
import type { Logger } from '../../logger';

export interface SigningKeys {
  /** Signs new tokens. */
  active: { kid: string; key: CryptoKey };
  /** Public keys of every configured key (rotation: old keys still verify). */
  publicJwks: { keys: JWK[] };
  /**
   * The HMAC key the brute-force counters name their keys with (brute-force.ts), derived from
   * the signing key: a secret every instance already shares, so no setting of its own. A new
   * first key starts the counters afresh, as a restart of the store would.
   */
  counterKey: Buffer;
}

let testKeys: Promise<{ keys: JWK[] }> | undefined;

async function generateJwks(): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  jwk.kid = await calculateJwkThumbprint(jwk);
  jwk.alg = 'ES256';
  jwk.use = 'sig';
  return { keys: [jwk] };
}

async function persistedJwks(dataDir: string, logger: Logger): Promise<{ keys: JWK[] }> {
  const file = path.join(dataDir, 'auth', 'signing-keys.json');
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
  const jwks = await generateJwks();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // wx: two processes starting at once must not overwrite each other's key.
  try {
    fs.writeFileSync(file, JSON.stringify(jwks), { mode: 0o600, flag: 'wx' });
    logger.info({ file }, 'generated a development signing key');
  } catch (err: unknown) {
    if ((err as NodeJS.ErrnoException | null | undefined)?.code !== 'EEXIST') throw err;
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  }
  return jwks;
}

function publicPart(jwk: JWK): JWK {
  const { kty, crv, x, y, kid } = jwk;
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
}

export async function loadSigningKeys(config: Config, logger: Logger): Promise<SigningKeys> {
  let jwks: { keys: JWK[] };
  if (config.auth.signingKeys) jwks = config.auth.signingKeys;
  else if (config.nodeEnv === 'test') jwks = await (testKeys ??= generateJwks());
  else jwks = await persistedJwks(config.dataDir, logger);
  const [first] = jwks.keys;
  if (typeof first.d !== 'string') throw new Error('the first signing key has no private part (d)');
  const key = (await importJWK({ ...first, alg: 'ES256' }, 'ES256')) as CryptoKey;
  return {
    active: {
      kid:
        first.kid ??
        crypto
          .createHash('sha256')
          .update(JSON.stringify(publicPart(first)))
          .digest('base64url'),
      key,
    },
    publicJwks: { keys: jwks.keys.map(publicPart) },
    counterKey: Buffer.from(crypto.hkdfSync('sha256', Buffer.from(first.d, 'base64url'), '', 'brute-force counter keys', 32)),
  };
}
