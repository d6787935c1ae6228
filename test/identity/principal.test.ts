// The principals (src/modules/identity/principal.ts) and the REST facade's credential check
// (src/rest/authenticate.ts), called on a request's context over a real database: each credential
// is accepted from its rightful holder and refused, with the specification's identifier, status
// and message, for every way it can be wrong; the token cache and the sliding expiry are tested at
// their edges (the clock held still). No app is started, so StrykerJS's access group can run this
// file for every mutant (docs/development.md, "Mutation testing").
import { authenticate } from '../../src/rest/authenticate';
import type { Credential } from '../../src/rest/route';
import {
  CacheUnavailableError,
  CompanyApiKey,
  Company,
  hashToken,
  ServiceAuthToken,
  type CachedToken,
  type CacheLookup,
  type TokenCache,
  type ServiceError,
  User,
} from '../kit/src';
import { accessToken, refusal, serviceToken, tokenFamily, useAccessKit } from '../kit/access';
import { createApiKey, createCompany, createSystemToken, createUser } from '../kit/factories';

const kit = useAccessKit();

// The rules, written down: a service auth token lives 24 h from its last use, and its expiry is
// written again only when it is more than 5 min behind.
const DAY = 24 * 3600_000;
const SLIDE = 5 * 60_000;

const INVALID_AUTH = { code: 'WSInvalidAuthTokenException', status: 401, message: 'The auth token is missing or invalid.' };
const INVALID_ACCESS = { code: 'WSInvalidAuthTokenException', status: 401, message: 'The access token is missing or invalid.' };
const INVALID_SYSTEM = { code: 'WSInvalidAuthTokenException', status: 401, message: 'The x-api-key system token is missing or invalid.' };
const INVALID_KEY = { code: 'WSInvalidAuthTokenException', status: 401, message: 'The company API key is missing or invalid.' };
const CACHE_DOWN = { code: 'WSCacheServiceException', status: 503, message: 'The cache service is unavailable.' };

/** A token cache that answers exactly what it was given (no TTL of its own), or fails as Redis down does. */
class PlainCache implements TokenCache {
  readonly entries = new Map<string, CachedToken | 'revoked'>();
  failure?: Error;
  async get(tokenHash: string): Promise<CacheLookup> {
    if (this.failure) throw this.failure;
    return this.entries.get(tokenHash) ?? null;
  }
  async put(tokenHash: string, entry: CachedToken): Promise<void> {
    if (this.failure) throw this.failure;
    this.entries.set(tokenHash, entry);
  }
  async revoke(tokenHashes: string[]): Promise<void> {
    for (const h of tokenHashes) this.entries.set(h, 'revoked');
  }
}

const authHeader = (token: string) => ({ 'x-service-authtoken': token });
const expiryOf = async (token: string) =>
  (await kit.db.orm.em.fork().findOneOrFail(ServiceAuthToken, { tokenHash: hashToken(token) })).expiresAt.getTime();

let olivia: User;
let ian: User;
let inactive: User;
beforeAll(async () => {
  olivia = await createUser(kit.db.orm, { firstName: 'Olivia' });
  ian = await createUser(kit.db.orm, { firstName: 'Ian' });
  inactive = await createUser(kit.db.orm, { active: false });
});

afterEach(() => jest.restoreAllMocks());

/** The principal a context's requireUser answers, and how many statements it ran for it. */
async function requireUserCounted(ctx: ReturnType<typeof kit.context>) {
  let principal: unknown;
  const statements = await kit.countStatements(async () => (principal = await ctx.auth.requireUser()));
  return { statements, principal };
}

/** The principal of an active user (named `firstName`) signed in with `token`, valid until `expiresAt`. */
const userPrincipal = (user: User, firstName: string, token: string, expiresAt: Date) => ({
  kind: 'user',
  user: expect.objectContaining({ uId: user.uId, email: user.email, firstName, active: true }),
  tokenHash: hashToken(token),
  expiresAt,
});

/** Holds Date.now at `now` for the rest of the test. */
const holdClock = (now: number) => jest.spyOn(Date, 'now').mockReturnValue(now);

describe('requireUser: the service auth token (x-service-authtoken)', () => {
  it('when the token is read from the database, then the principal is its user, with its hash and expiry, in one statement, and the cache holds it', async () => {
    const expiresAt = new Date(Date.now() + DAY - 1000);
    const token = await serviceToken(kit, olivia.uId, { expiresAt });
    const cache = new PlainCache();
    const ctx = kit.context(authHeader(token), cache);
    expect(await requireUserCounted(ctx)).toEqual({ statements: 1, principal: userPrincipal(olivia, 'Olivia', token, expiresAt) });
    expect(cache.entries.get(hashToken(token))).toEqual({ userId: olivia.uId, expiresAt: expiresAt.getTime() });
  });

  it('when a request asks twice, then the one answer is given twice without another statement', async () => {
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + DAY) });
    const ctx = kit.context(authHeader(token));
    const first = ctx.auth.requireUser();
    await first;
    expect(await kit.countStatements(async () => expect(ctx.auth.requireUser()).toBe(first))).toBe(0);
  });

  it('when the cache holds the token, then the principal is the cached user, read by id in one statement', async () => {
    const now = Date.now();
    holdClock(now);
    const cache = new PlainCache();
    // The row names Olivia, the cache Ian: the answer says which was read.
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now + DAY) });
    cache.entries.set(hashToken(token), { userId: ian.uId, expiresAt: now + DAY });
    const ctx = kit.context(authHeader(token), cache);
    expect(await requireUserCounted(ctx)).toEqual({ statements: 1, principal: userPrincipal(ian, 'Ian', token, new Date(now + DAY)) });
  });

  it('when the request already holds a reference to the cached user, then the user is still read in full', async () => {
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + DAY) });
    const cache = new PlainCache();
    cache.entries.set(hashToken(token), { userId: olivia.uId, expiresAt: Date.now() + DAY });
    const ctx = kit.context(authHeader(token), cache);
    ctx.em.getReference(User, olivia.uId);
    const { user } = await ctx.auth.requireUser();
    expect({ uId: user.uId, email: user.email, active: user.active }).toEqual({ uId: olivia.uId, email: olivia.email, active: true });
  });

  it('when the token is missing, unknown, revoked or expired, then it is refused', async () => {
    const expired = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() - 1000) });
    const revoked = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + DAY), revokedAt: new Date() });
    for (const headers of [{}, authHeader('not-a-token'), authHeader(expired), authHeader(revoked)])
      expect(await refusal(kit.context(headers, new PlainCache()).auth.requireUser())).toEqual(INVALID_AUTH);
  });

  it('when the token is of an inactive user, then it is refused, whether read from the database or the cache', async () => {
    const token = await serviceToken(kit, inactive.uId, { expiresAt: new Date(Date.now() + DAY) });
    expect(await refusal(kit.context(authHeader(token), new PlainCache()).auth.requireUser())).toEqual(INVALID_AUTH);
    const cache = new PlainCache();
    cache.entries.set(hashToken(token), { userId: inactive.uId, expiresAt: Date.now() + DAY });
    expect(await refusal(kit.context(authHeader(token), cache).auth.requireUser())).toEqual(INVALID_AUTH);
  });

  it('when the cache names a user who no longer exists, then the token is refused', async () => {
    const cache = new PlainCache();
    cache.entries.set(hashToken('gone'), { userId: 2_000_000_000, expiresAt: Date.now() + DAY });
    expect(await refusal(kit.context(authHeader('gone'), cache).auth.requireUser())).toEqual(INVALID_AUTH);
  });

  it('when the cache marks the token revoked, then it is refused though its row stands', async () => {
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + DAY) });
    const cache = new PlainCache();
    await cache.revoke([hashToken(token)]);
    expect(await refusal(kit.context(authHeader(token), cache).auth.requireUser())).toEqual(INVALID_AUTH);
  });

  it('when the token has 512 characters, then it is looked up; with 513, it is refused unread', async () => {
    const expiresAt = new Date(Date.now() + DAY);
    const long = await serviceToken(kit, olivia.uId, { expiresAt, raw: 'a'.repeat(511) + 'b' });
    expect(await kit.context(authHeader(long), new PlainCache()).auth.requireUser()).toMatchObject({ user: { uId: olivia.uId } });
    const tooLong = await serviceToken(kit, olivia.uId, { expiresAt, raw: 'a'.repeat(512) + 'b' });
    const ctx = kit.context(authHeader(tooLong), new PlainCache());
    let refused: unknown;
    expect(await kit.countStatements(async () => (refused = await refusal(ctx.auth.requireUser())))).toBe(0);
    expect(refused).toEqual(INVALID_AUTH);
  });
});

describe('the sliding expiry of a service auth token', () => {
  it('when a token more than 5 min behind is used, then its expiry moves to 24 h from now, in the database and the cache; other tokens stay', async () => {
    const now = Date.now();
    const other = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now + 3600_000) });
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now + 3600_000) });
    holdClock(now);
    const cache = new PlainCache();
    expect((await kit.context(authHeader(token), cache).auth.requireUser()).expiresAt).toEqual(new Date(now + DAY));
    expect(await expiryOf(token)).toBe(now + DAY);
    expect(cache.entries.get(hashToken(token))).toEqual({ userId: olivia.uId, expiresAt: now + DAY });
    expect(await expiryOf(other)).toBe(now + 3600_000);
  });

  it('when a token is exactly 5 min behind, then it stays; 1 ms more, and it moves', async () => {
    const now = Date.now();
    const edge = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now + DAY - SLIDE) });
    const behind = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now + DAY - SLIDE - 1) });
    holdClock(now);
    expect((await kit.context(authHeader(edge), new PlainCache()).auth.requireUser()).expiresAt).toEqual(new Date(now + DAY - SLIDE));
    expect(await expiryOf(edge)).toBe(now + DAY - SLIDE);
    expect((await kit.context(authHeader(behind), new PlainCache()).auth.requireUser()).expiresAt).toEqual(new Date(now + DAY));
    expect(await expiryOf(behind)).toBe(now + DAY);
  });

  it('when a token expires this very millisecond, then it is refused; 1 ms later, and it is used (and moves)', async () => {
    const now = Date.now();
    const ending = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now) });
    const last = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now + 1) });
    holdClock(now);
    expect(await refusal(kit.context(authHeader(ending), new PlainCache()).auth.requireUser())).toEqual(INVALID_AUTH);
    expect(await expiryOf(ending)).toBe(now);
    expect((await kit.context(authHeader(last), new PlainCache()).auth.requireUser()).expiresAt).toEqual(new Date(now + DAY));
  });

  it('when a live session checks its token (checkUser), then the expiry stays where it is, in the database and the cache', async () => {
    const now = Date.now();
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(now + 3600_000) });
    holdClock(now);
    const cache = new PlainCache();
    const principal = await kit.context(authHeader(token), cache).auth.checkUser();
    expect(principal).toMatchObject({ kind: 'user', user: { uId: olivia.uId }, expiresAt: new Date(now + 3600_000) });
    expect(await expiryOf(token)).toBe(now + 3600_000);
    expect(cache.entries.get(hashToken(token))).toEqual({ userId: olivia.uId, expiresAt: now + 3600_000 });
  });

  // The cached entry names Ian, the row Olivia (due to slide): the principal's user says which was read.
  async function cachedAndStored(cachedExpiry: number): Promise<{ token: string; cache: PlainCache }> {
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + 3600_000) });
    const cache = new PlainCache();
    cache.entries.set(hashToken(token), { userId: ian.uId, expiresAt: cachedExpiry });
    return { token, cache };
  }

  it('when the cached expiry is at most 5 min behind, then the cache answers; further behind, the database does', async () => {
    const now = Date.now();
    const fresh = await cachedAndStored(now + DAY - SLIDE);
    const due = await cachedAndStored(now + DAY - SLIDE - 1);
    holdClock(now);
    expect(await kit.context(authHeader(fresh.token), fresh.cache).auth.requireUser()).toMatchObject({
      user: { uId: ian.uId },
      expiresAt: new Date(now + DAY - SLIDE),
    });
    expect(await kit.context(authHeader(due.token), due.cache).auth.requireUser()).toMatchObject({
      user: { uId: olivia.uId },
      expiresAt: new Date(now + DAY),
    });
  });

  it('when a live session checks a token the cache holds unexpired, then the cache answers; expired there, the database does', async () => {
    const now = Date.now();
    const cached = await cachedAndStored(now + 1);
    const stale = await cachedAndStored(now);
    holdClock(now);
    expect(await kit.context(authHeader(cached.token), cached.cache).auth.checkUser()).toMatchObject({
      user: { uId: ian.uId },
      expiresAt: new Date(now + 1),
    });
    expect(await kit.context(authHeader(stale.token), stale.cache).auth.checkUser()).toMatchObject({ user: { uId: olivia.uId } });
    // A use (not a check) of the token the cache holds unexpired reads the database, and slides.
    expect(await kit.context(authHeader(cached.token), cached.cache).auth.requireUser()).toMatchObject({
      user: { uId: olivia.uId },
      expiresAt: new Date(now + DAY),
    });
  });
});

describe('when the token cache does not answer', () => {
  const down = (failure: Error) => Object.assign(new PlainCache(), { failure });

  it('on reading, then WSCacheServiceException (503), its cause kept, and one error logged with the cause', async () => {
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + DAY) });
    const failure = new CacheUnavailableError('token cache unavailable', { cause: new Error('connect ECONNREFUSED 127.0.0.1:6379') });
    const before = kit.logs.length;
    const call = kit.context(authHeader(token), down(failure)).auth.requireUser();
    expect(await refusal(call)).toEqual(CACHE_DOWN);
    expect(await call.catch((e: ServiceError) => e.originalError)).toBe(failure);
    expect(kit.logs.slice(before).map(({ level, msg, err }) => ({ level, msg, err }))).toEqual([
      { level: 50, msg: 'token cache unavailable', err: expect.objectContaining({ message: 'connect ECONNREFUSED 127.0.0.1:6379' }) },
    ]);
  });

  it('on writing what the database gave, then WSCacheServiceException (503) too', async () => {
    const token = await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + DAY) });
    const cache = new PlainCache();
    cache.put = async () => {
      throw new CacheUnavailableError('token cache unavailable');
    };
    const before = kit.logs.length;
    expect(await refusal(kit.context(authHeader(token), cache).auth.requireUser())).toEqual(CACHE_DOWN);
    expect(kit.logs.slice(before).map(({ msg, err }) => ({ msg, err }))).toEqual([{ msg: 'token cache unavailable', err: {} }]);
  });

  it('with another error, then that error goes on as it is, unlogged', async () => {
    const failure = new Error('a bug in the cache');
    const before = kit.logs.length;
    await expect(kit.context(authHeader('any'), down(failure)).auth.requireUser()).rejects.toBe(failure);
    expect(kit.logs.length).toBe(before);
  });
});

describe('requireBearer: the OAuth access token (Authorization: Bearer)', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('when the token is ours, with the sso scope, of a standing login of an active user, then the principal is that user and login', async () => {
    const login = await tokenFamily(kit, olivia.uId);
    for (const scope of ['sso', 'openid sso profile']) {
      const token = await accessToken(kit, { userId: olivia.uId, scope, ...login });
      const principal = await kit.context(bearer(token)).auth.requireBearer();
      expect(principal).toEqual({ kind: 'bearer', user: expect.objectContaining({ uId: olivia.uId, email: olivia.email }), ...login });
    }
  });

  it('when a request asks twice, then the one answer is given twice', async () => {
    const login = await tokenFamily(kit, olivia.uId);
    const ctx = kit.context(bearer(await accessToken(kit, { userId: olivia.uId, scope: 'sso', ...login })));
    const first = ctx.auth.requireBearer();
    await first;
    expect(ctx.auth.requireBearer()).toBe(first);
  });

  it('when the token is missing, not ours, without the sso scope, of a revoked or unknown login, or of an inactive or unknown user, then it is refused', async () => {
    const login = await tokenFamily(kit, olivia.uId);
    const revoked = await tokenFamily(kit, olivia.uId, new Date());
    const ofInactive = await tokenFamily(kit, inactive.uId);
    const valid = await accessToken(kit, { userId: olivia.uId, scope: 'sso', ...login });
    const tokens = [
      valid.slice(0, -4) + (valid.endsWith('AAAA') ? 'BBBB' : 'AAAA'),
      await accessToken(kit, { userId: olivia.uId, scope: 'openid ssoo', ...login }),
      await accessToken(kit, { userId: olivia.uId, scope: 'sso', ...revoked }),
      await accessToken(kit, { userId: olivia.uId, scope: 'sso', ...login, familyId: '00000000-0000-4000-8000-000000000000' }),
      await accessToken(kit, { userId: inactive.uId, scope: 'sso', ...ofInactive }),
      await accessToken(kit, { userId: 2_000_000_000, scope: 'sso', ...login }),
    ];
    expect(await refusal(kit.context({}).auth.requireBearer())).toEqual(INVALID_ACCESS);
    for (const token of tokens) expect(await refusal(kit.context(bearer(token)).auth.requireBearer())).toEqual(INVALID_ACCESS);
  });

  it('when the token has 4096 characters, then it is verified; with 4097, it is refused', async () => {
    const login = await tokenFamily(kit, olivia.uId);
    const longest = await accessToken(kit, { userId: olivia.uId, scope: 'sso', ...login }, 4096);
    expect(await kit.context(bearer(longest)).auth.requireBearer()).toMatchObject({ kind: 'bearer', user: { uId: olivia.uId } });
    const tooLong = await accessToken(kit, { userId: olivia.uId, scope: 'sso', ...login }, 4097);
    expect(await refusal(kit.context(bearer(tooLong)).auth.requireBearer())).toEqual(INVALID_ACCESS);
  });
});

describe('requireSystem: the system token (x-api-key)', () => {
  it('when the token has the scope asked, then the principal is that token; without it, InsufficientPrivilegesException (403) naming the scope', async () => {
    const name = `Ingestion ${Date.now()}`;
    const token = await createSystemToken(kit.db.orm, ['ingestion', 'reporting'], { name });
    const ctx = kit.context({ 'x-api-key': token });
    expect(await ctx.auth.requireSystem('ingestion')).toEqual({
      kind: 'system',
      token: expect.objectContaining({ tokenHash: hashToken(token), name, scopes: ['ingestion', 'reporting'], revokedAt: null }),
    });
    expect(await refusal(ctx.auth.requireSystem('gateway'))).toEqual({
      code: 'InsufficientPrivilegesException',
      status: 403,
      message: 'The system token lacks the gateway scope.',
    });
  });

  it('when a request asks twice for a scope, then the one answer is given twice; another scope is asked again', async () => {
    const ctx = kit.context({ 'x-api-key': await createSystemToken(kit.db.orm, ['ingestion', 'reporting']) });
    const first = ctx.auth.requireSystem('ingestion');
    await first;
    expect(ctx.auth.requireSystem('ingestion')).toBe(first);
    const other = ctx.auth.requireSystem('reporting');
    expect(other).not.toBe(first);
    expect(await other).toMatchObject({ kind: 'system', token: { scopes: ['ingestion', 'reporting'] } });
  });

  it('when the token is missing, unknown, revoked or longer than 512 characters, then it is refused; 512 are looked up', async () => {
    const revoked = await createSystemToken(kit.db.orm, ['ingestion'], { revokedAt: new Date() });
    const tooLong = await createSystemToken(kit.db.orm, ['ingestion'], { token: 's'.repeat(513) });
    for (const headers of [{}, { 'x-api-key': 'unknown' }, { 'x-api-key': revoked }, { 'x-api-key': tooLong }] as Record<string, string>[])
      expect(await refusal(kit.context(headers).auth.requireSystem('ingestion'))).toEqual(INVALID_SYSTEM);
    const longest = await createSystemToken(kit.db.orm, ['ingestion'], { token: 's'.repeat(512) });
    expect(await kit.context({ 'x-api-key': longest }).auth.requireSystem('ingestion')).toMatchObject({ kind: 'system' });
  });
});

describe('requireCompanyKey: the company API key (x-service-company-api-key)', () => {
  const keyHeader = (key: string) => ({ 'x-service-company-api-key': key });

  /** A key whose raw value is `raw` (stored as the hash of its lower case). */
  async function rawKey(companyId: number, raw: string): Promise<string> {
    const em = kit.db.orm.em.fork();
    em.create(CompanyApiKey, { keyHash: hashToken(raw.toLowerCase()), company: em.getReference(Company, companyId) } as any);
    await em.flush();
    return raw;
  }

  it('when the key is active, of an active company, then the principal is the key and its company, in any letter case', async () => {
    const company = await createCompany(kit.db.orm);
    const key = await createApiKey(kit.db.orm, company.companyId);
    for (const presented of [key, key.toUpperCase()]) {
      const principal = await kit.context(keyHeader(presented)).auth.requireCompanyKey();
      expect(principal).toEqual({
        kind: 'companyKey',
        key: expect.objectContaining({ keyHash: hashToken(key), active: true }),
        company: expect.objectContaining({ companyId: company.companyId, companyName: company.companyName, active: true }),
      });
    }
  });

  it('when a request asks twice, then the one answer is given twice', async () => {
    const company = await createCompany(kit.db.orm);
    const ctx = kit.context(keyHeader(await createApiKey(kit.db.orm, company.companyId)));
    const first = ctx.auth.requireCompanyKey();
    await first;
    expect(ctx.auth.requireCompanyKey()).toBe(first);
  });

  it('when the key is inactive, then WSCompanyApiKeyNotActiveException (403); when its company is, WSCompanyNotActiveException (403)', async () => {
    const company = await createCompany(kit.db.orm);
    const inactiveKey = await createApiKey(kit.db.orm, company.companyId, { active: false });
    expect(await refusal(kit.context(keyHeader(inactiveKey)).auth.requireCompanyKey())).toEqual({
      code: 'WSCompanyApiKeyNotActiveException',
      status: 403,
      message: 'The company API key is not active.',
    });
    const closed = await createCompany(kit.db.orm, { active: false });
    expect(await refusal(kit.context(keyHeader(await createApiKey(kit.db.orm, closed.companyId))).auth.requireCompanyKey())).toEqual({
      code: 'WSCompanyNotActiveException',
      status: 403,
      message: 'The company is not active.',
    });
  });

  it('when the key is missing, unknown or longer than 512 characters, then it is refused; 512 are looked up', async () => {
    const company = await createCompany(kit.db.orm);
    const tooLong = await rawKey(company.companyId, 'k'.repeat(513));
    for (const headers of [{}, keyHeader('00000000-0000-4000-8000-000000000000'), keyHeader(tooLong)])
      expect(await refusal(kit.context(headers).auth.requireCompanyKey())).toEqual(INVALID_KEY);
    const longest = await rawKey(company.companyId, 'K'.repeat(512));
    expect(await kit.context(keyHeader(longest)).auth.requireCompanyKey()).toMatchObject({ company: { companyId: company.companyId } });
  });
});

describe("authenticate: a REST route's credential, checked before its body is read", () => {
  let headers: Record<'user' | 'system' | 'systemElsewhere' | 'companyKey' | 'bearer', Record<string, string>>;
  beforeAll(async () => {
    const company = await createCompany(kit.db.orm);
    const login = await tokenFamily(kit, olivia.uId);
    headers = {
      user: authHeader(await serviceToken(kit, olivia.uId, { expiresAt: new Date(Date.now() + DAY) })),
      system: { 'x-api-key': await createSystemToken(kit.db.orm, ['ingestion']) },
      systemElsewhere: { 'x-api-key': await createSystemToken(kit.db.orm, ['gateway', 'reporting']) },
      companyKey: { 'x-service-company-api-key': await createApiKey(kit.db.orm, company.companyId) },
      bearer: { authorization: `Bearer ${await accessToken(kit, { userId: olivia.uId, scope: 'sso', ...login })}` },
    };
  });

  const check = (credential: Credential, ...sent: (keyof typeof headers)[]) =>
    authenticate(credential, kit.context(Object.assign({}, ...sent.map((k) => headers[k]))));

  it('when the route needs no credential, then nothing is asked and nothing read', async () => {
    expect(await kit.countStatements(() => check('none'))).toBe(0);
  });

  it('when the route needs a credential and it is sent, then the check passes and its principal is kept for the resolver', async () => {
    for (const [credential, sent] of [
      ['user', ['user']],
      ['system', ['system']],
      ['companyKey', ['companyKey']],
      ['userAndCompanyKey', ['user', 'companyKey']],
      ['bearer', ['bearer']],
    ] as const) {
      const ctx = kit.context(Object.assign({}, ...sent.map((k) => headers[k])));
      await expect(authenticate(credential, ctx)).resolves.toBeUndefined();
      const kept = {
        user: () => ctx.auth.requireUser(),
        system: () => ctx.auth.requireSystem('ingestion'),
        companyKey: () => ctx.auth.requireCompanyKey(),
        userAndCompanyKey: () => Promise.all([ctx.auth.requireUser(), ctx.auth.requireCompanyKey()]),
        bearer: () => ctx.auth.requireBearer(),
      }[credential];
      expect(await kit.countStatements(kept)).toBe(0);
    }
  });

  it('when the route needs a credential and another is sent, then it is refused with that credential missing', async () => {
    expect(await refusal(check('user', 'companyKey', 'system', 'bearer'))).toEqual(INVALID_AUTH);
    expect(await refusal(check('system', 'user', 'companyKey'))).toEqual(INVALID_SYSTEM);
    expect(await refusal(check('companyKey', 'user', 'system'))).toEqual(INVALID_KEY);
    expect(await refusal(check('userAndCompanyKey', 'companyKey'))).toEqual(INVALID_AUTH);
    expect(await refusal(check('userAndCompanyKey', 'user'))).toEqual(INVALID_KEY);
    expect(await refusal(check('bearer', 'user'))).toEqual(INVALID_ACCESS);
  });

  it('when a system route is called with a system token of other scopes, then InsufficientPrivilegesException (403) names ingestion', async () => {
    expect(await refusal(check('system', 'systemElsewhere'))).toEqual({
      code: 'InsufficientPrivilegesException',
      status: 403,
      message: 'The system token lacks the ingestion scope.',
    });
  });
});
