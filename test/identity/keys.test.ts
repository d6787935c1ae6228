// Signing keys: the embedded default generates one key and keeps it under DATA_DIR, so tokens
// survive a restart; the file is readable by the owner only.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { loadSigningKeys } from '../../src/modules/identity/keys';

it('when no keys are configured outside tests, then one is generated under DATA_DIR and reused', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'keys-'));
  try {
    const config = loadConfig({ NODE_ENV: 'development', DATA_DIR: dir });
    const first = await loadSigningKeys(config, createLogger('silent'));
    const file = path.join(dir, 'auth', 'signing-keys.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(stored.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', kid: first.active.kid, d: expect.any(String) });
    const again = await loadSigningKeys(config, createLogger('silent'));
    expect(again.active.kid).toBe(first.active.kid);
    expect(again.publicJwks).toEqual(first.publicJwks);
    expect(first.publicJwks.keys[0]).not.toHaveProperty('d');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('when keys are configured, then the first signs and all are published', async () => {
  const jwk = async (kid: string) => ({ ...(await exportJWK((await generateKeyPair('ES256', { extractable: true })).privateKey)), kid });
  const config = loadConfig({ NODE_ENV: 'development', AUTH_SIGNING_KEYS: JSON.stringify({ keys: [await jwk('new'), await jwk('old')] }) });
  const keys = await loadSigningKeys(config, createLogger('silent'));
  expect(keys.active.kid).toBe('new');
  expect(keys.publicJwks.keys.map((k) => k.kid)).toEqual(['new', 'old']);
  expect(keys.publicJwks.keys.every((k) => !('d' in k))).toBe(true);
});
