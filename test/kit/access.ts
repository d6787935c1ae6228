// Request contexts for the tests that call the access checks themselves: the principals
// (src/modules/identity/principal.ts), src/rest/authenticate.ts, each module's *.access.ts and the
// QR codes' check. A context is made as buildContext makes it for a request (a forked
// EntityManager, the credentials read from the headers, the principals, the request's own
// loaders), over a test database of its own, without starting the app: such a file starts in a
// couple of seconds, which is what lets StrykerJS's access group run every mutant against it
// (docs/development.md, "Mutation testing").
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import { SignJWT, type JWTPayload } from 'jose';
import {
  ACCESS_TOKEN_TYPE,
  buildContext,
  createLogger,
  loadConfig,
  loadSigningKeys,
  MemoryTokenCache,
  QrCode,
  ServiceAuthToken,
  storeBuffer,
  TokenFamily,
  TokenSigner,
  type Config,
  type Context,
  type Services,
  type SigningKeys,
  type TokenCache,
  User,
  Company,
  Team,
  OAuthClient,
  hashToken,
  ServiceError,
} from './src';
import { createTestDb, type TestDb } from './db';
import { createClient, createTeam, suffix } from './factories';
import { contextParts } from '../../src/core/module';
import { MODULES } from '../../src/modules';

export interface AccessKit {
  db: TestDb;
  config: Config;
  keys: SigningKeys;
  /** The token cache of every context made without one of its own (the app has one per instance). */
  cache: MemoryTokenCache;
  /** Every log line the contexts wrote, parsed. */
  logs: any[];
  /** A request's context with these headers (x-service-authtoken, x-api-key, ...) and this token cache. */
  context(headers?: Record<string, string>, cache?: TokenCache): Context;
  /** Runs fn and returns how many SQL statements it caused. */
  countStatements(fn: () => Promise<unknown>): Promise<number>;
  close(): Promise<void>;
}

/** A refusal as a client sees it: the identifier, its status, the message and the field at fault. */
export interface Refusal {
  code: string;
  status: number;
  message: string;
  field?: string;
}

/** What the call was refused with; a call that succeeds, or throws anything but a ServiceError, fails the test. */
export async function refusal(call: Promise<unknown>): Promise<Refusal> {
  const err = await call.then(
    () => {
      throw new Error('expected a refusal; the call succeeded');
    },
    (e: unknown) => e,
  );
  if (!(err instanceof ServiceError)) throw err;
  return { code: err.code, status: err.status, message: err.message, ...(err.field !== undefined && { field: err.field }) };
}

export async function startAccessKit(): Promise<AccessKit> {
  const db = await createTestDb();
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info' });
  const logs: any[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const line of chunk.toString().split('\n')) if (line) logs.push(JSON.parse(line));
      cb();
    },
  });
  const logger = createLogger('info', sink);
  const keys = await loadSigningKeys(config, logger);
  const signer = new TokenSigner(config, keys);
  const cache = new MemoryTokenCache();
  // The principals use two of the app's services, the token cache and the access tokens' signer:
  // the rest (queue, bus, mailer, rate limits) would start workers these checks never reach.
  const services = (tokenCache: TokenCache) => ({ identity: { cache: tokenCache, signer } }) as unknown as Services;
  return {
    db,
    config,
    keys,
    cache,
    logs,
    context: (headers = {}, tokenCache = cache) =>
      buildContext(
        { config, logger, em: db.orm.em, services: services(tokenCache), parts: contextParts(MODULES) },
        crypto.randomUUID(),
        headers,
        logger,
      ),
    async countStatements(fn) {
      db.statements.length = 0;
      await fn();
      return db.statements.length;
    },
    close: () => db.close(),
  };
}

/** The access kit of this test file: started in beforeAll, closed in afterAll. */
export function useAccessKit(): AccessKit {
  let kit: AccessKit | undefined;
  beforeAll(async () => {
    kit = await startAccessKit();
  });
  afterAll(() => kit?.close());
  return new Proxy({} as AccessKit, {
    get(_target, key) {
      if (!kit) throw new Error('useAccessKit: the kit starts in beforeAll; use it inside tests and hooks');
      return Reflect.get(kit, key);
    },
  });
}

/** A service auth token row for the user, expiring (and revoked) when told; the raw token. */
export async function serviceToken(
  kit: AccessKit,
  userId: number,
  o: { expiresAt: Date; revokedAt?: Date; raw?: string },
): Promise<string> {
  const raw = o.raw ?? crypto.randomBytes(32).toString('base64url');
  const em = kit.db.orm.em.fork();
  em.create(ServiceAuthToken, {
    tokenHash: hashToken(raw),
    user: em.getReference(User, userId),
    expiresAt: o.expiresAt,
    revokedAt: o.revokedAt ?? null,
  });
  await em.flush();
  return raw;
}

/** A login (token family) of the user through a new OAuth client, revoked when told: its id and the client's. */
export async function tokenFamily(kit: AccessKit, userId: number, revokedAt?: Date): Promise<{ familyId: string; clientId: string }> {
  const { clientId } = await createClient(kit.db.orm);
  const em = kit.db.orm.em.fork();
  const familyId = crypto.randomUUID();
  em.create(TokenFamily, {
    id: familyId,
    user: em.getReference(User, userId),
    client: em.getReference(OAuthClient, clientId),
    grantType: 'password',
    revokedAt: revokedAt ?? null,
  });
  await em.flush();
  return { familyId, clientId };
}

/**
 * An access token as the token endpoint signs it (TokenSigner.signAccessToken), with `claims`
 * over the usual ones; `length` pads it (a claim, then a header parameter) to exactly that many
 * characters.
 */
export async function accessToken(
  kit: AccessKit,
  claims: { userId: number; familyId: string; clientId: string; scope: string } & JWTPayload,
  length?: number,
): Promise<string> {
  const { userId, familyId, clientId, scope, ...extra } = claims;
  const now = Math.floor(Date.now() / 1000);
  const sign = (pad: string, headerPad: string) =>
    new SignJWT({ scope, client_id: clientId, sid: familyId, ...extra, ...(pad && { pad }) })
      .setProtectedHeader({ alg: 'ES256', kid: kit.keys.active.kid, typ: ACCESS_TOKEN_TYPE, ...(headerPad && { pad: headerPad }) })
      .setIssuer(kit.config.authBaseUrl)
      .setAudience(kit.config.auth.audience)
      .setSubject(String(userId))
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(kit.keys.active.key);
  const plain = await sign('', '');
  if (length === undefined) return plain;
  // A base64url part of n bytes is ceil(4n / 3) characters (never 4k + 1): a claim of the right
  // length, and a header parameter of 0-3 characters for the lengths a claim alone cannot give.
  for (let h = 0; h < 4; h++) {
    for (let p = Math.max(0, Math.floor(((length - plain.length) * 3) / 4) - 24); p < length; p++) {
      const token = await sign('x'.repeat(p), 'y'.repeat(h));
      if (token.length === length) return token;
      if (token.length > length) break;
    }
  }
  throw new Error(`no access token of ${length} characters`);
}

/** A QR code of a new team of the company, whose members are these users (the row createSupportGroup writes, without a product); its id. */
export async function qrCode(kit: AccessKit, companyId: number, memberIds: number[]): Promise<number> {
  const team = await createTeam(kit.db.orm, companyId, memberIds);
  const em = kit.db.orm.em.fork();
  const image = await storeBuffer(em, Buffer.from(`QR ${suffix()}`));
  const joinCode = crypto.randomBytes(32).toString('base64url');
  const qr = em.create(QrCode, {
    company: em.getReference(Company, companyId),
    team: em.getReference(Team, team.teamId),
    qrCodeName: `QR ${suffix()}`,
    joinCode,
    joinUrl: `https://join.example/${joinCode}`,
    image: image.sha256,
    imageBytes: image.bytes,
    imageMd5: image.md5,
  } as any);
  await em.flush();
  return qr.qrCodeId;
}
