// The one place that turns request credentials into principals, once per request. Every
// request's context carries one Principals (ctx.auth); resolvers of every module call
// ctx.auth.requireUser() / requireSystem(scope) / requireCompanyKey() (and requireBearer()
// for the OAuth access token) without importing this module; the errors are the spec's. Service auth tokens are looked up through
// the token cache (Redis or in-process) in front of PostgreSQL.
import { wrap } from '@mikro-orm/core';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { User, userRowById } from '../user';
import { Company, CompanyApiKey } from '../company';
import { ServiceAuthToken, SystemToken } from './identity.entity';
import { hashToken, sameDigest, SERVICE_TOKEN_TTL_MS } from './tokens';
import { CacheUnavailableError, type CachedToken } from './token-cache';
import { familyActive } from './families';

export interface UserPrincipal {
  kind: 'user';
  /** The caller's row as read for this request: plain (not in the identity map), so a write loads the entity. */
  user: Readonly<User>;
  tokenHash: string;
  /** When the service auth token expires unless used again (sliding). */
  expiresAt: Date;
}

export interface SystemPrincipal {
  kind: 'system';
  token: SystemToken;
}

export interface CompanyKeyPrincipal {
  kind: 'companyKey';
  key: CompanyApiKey;
  company: Company;
}

/** An OAuth access token (Authorization: Bearer), as loginUser and sso-token take it. */
export interface BearerPrincipal {
  kind: 'bearer';
  user: User;
  familyId: string;
  clientId: string;
}

const invalidToken = () => new ServiceError('WSInvalidAuthTokenException');

/** Sliding expiry is written at most this often per token, not on every request. */
const SLIDE_GRANULARITY_MS = 5 * 60 * 1000;

async function viaCache<T>(ctx: Context, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (!(err instanceof CacheUnavailableError)) throw err;
    ctx.logger.error({ err: { message: (err.cause as Error | undefined)?.message } }, 'token cache unavailable');
    throw new ServiceError('WSCacheServiceException', undefined, { cause: err });
  }
}

/**
 * The cached entry, or the row read from the database (and cached) on a miss or when due to slide.
 * `slide` false: a check that is not a use of the token (a live session looking again at its
 * token's expiry) answers the expiry as it stands and never moves it.
 */
async function lookupToken(ctx: Context, tokenHash: string, now: number, slide = true): Promise<CachedToken> {
  const { cache } = ctx.services.identity;
  const cached = await viaCache(ctx, () => cache.get(tokenHash));
  if (cached === 'revoked') throw invalidToken();
  if (cached && (cached.expiresAt - now >= SERVICE_TOKEN_TTL_MS - SLIDE_GRANULARITY_MS || (!slide && cached.expiresAt > now)))
    return cached;
  const row = await ctx.em.findOne(ServiceAuthToken, { tokenHash }, { populate: ['user'] });
  if (!row || !sameDigest(row.tokenHash, tokenHash) || row.revokedAt || row.expiresAt.getTime() <= now) throw invalidToken();
  let expiresAt = row.expiresAt.getTime();
  if (slide && expiresAt - now < SERVICE_TOKEN_TTL_MS - SLIDE_GRANULARITY_MS) {
    expiresAt = now + SERVICE_TOKEN_TTL_MS;
    await ctx.em.nativeUpdate(ServiceAuthToken, { tokenHash, revokedAt: null }, { expiresAt: new Date(expiresAt) });
  }
  const entry = { userId: (row.user as User).uId, expiresAt };
  await viaCache(ctx, () => cache.put(tokenHash, entry));
  return entry;
}

/** The principals of one request, each resolved at most once (a refusal is kept too). */
export class Principals {
  private user?: Promise<UserPrincipal>;
  private bearer?: Promise<BearerPrincipal>;
  private companyKey?: Promise<CompanyKeyPrincipal>;
  private readonly system = new Map<string, Promise<SystemPrincipal>>();

  constructor(private readonly ctx: Context) {}

  /** x-service-authtoken: missing, unknown, expired or revoked is WSInvalidAuthTokenException;
   * the token cache not answering is WSCacheServiceException. */
  requireUser(): Promise<UserPrincipal> {
    return (this.user ??= userPrincipal(this.ctx));
  }

  /** As requireUser, but not a use of the token: its sliding expiry stays where it is (a live
   * session looking again at its token, src/http/live-sessions.ts). */
  checkUser(): Promise<UserPrincipal> {
    return userPrincipal(this.ctx, false);
  }

  /** Authorization: Bearer <access token>: a valid ES256 JWT of ours with the sso scope, whose
   * login (token family) has not been revoked, for an active user. */
  requireBearer(): Promise<BearerPrincipal> {
    return (this.bearer ??= bearerPrincipal(this.ctx));
  }

  /** x-api-key: missing or unknown is 401; a token without the scope is InsufficientPrivilegesException. */
  requireSystem(scope: string): Promise<SystemPrincipal> {
    let principal = this.system.get(scope);
    if (!principal) this.system.set(scope, (principal = systemPrincipal(this.ctx, scope)));
    return principal;
  }

  /** x-service-company-api-key: missing or unknown is 401; inactive key or company are 403. */
  requireCompanyKey(): Promise<CompanyKeyPrincipal> {
    return (this.companyKey ??= companyKeyPrincipal(this.ctx));
  }
}

async function userPrincipal(ctx: Context, slide = true): Promise<UserPrincipal> {
  const raw = ctx.credentials.authToken;
  if (!raw || raw.length > 512) throw invalidToken();
  const tokenHash = hashToken(raw);
  const now = Date.now();
  const entry = await lookupToken(ctx, tokenHash, now, slide);
  if (entry.expiresAt <= now) throw invalidToken();
  // A token read from the database (cache miss) brought its user along.
  const loaded = ctx.em.getUnitOfWork().getById(User, entry.userId);
  const user =
    loaded && wrap(loaded).isInitialized() ? loaded : ((await userRowById.run(ctx.em, { uId: entry.userId }))[0] as User | undefined);
  if (!user || !user.active) throw invalidToken();
  return { kind: 'user', user, tokenHash, expiresAt: new Date(entry.expiresAt) };
}

async function bearerPrincipal(ctx: Context): Promise<BearerPrincipal> {
  const raw = ctx.credentials.bearer;
  const invalid = () => new ServiceError('WSInvalidAuthTokenException', 'The access token is missing or invalid.');
  if (!raw || raw.length > 4096) throw invalid();
  const claims = await ctx.services.identity.signer.verifyAccessToken(raw).catch(() => {
    throw invalid();
  });
  if (!claims.scope.split(' ').includes('sso')) throw invalid();
  if (!(await familyActive(ctx.em, claims.familyId))) throw invalid();
  const user = await ctx.em.findOne(User, { uId: claims.userId });
  if (!user || !user.active) throw invalid();
  return { kind: 'bearer', user, familyId: claims.familyId, clientId: claims.clientId };
}

async function systemPrincipal(ctx: Context, scope: string): Promise<SystemPrincipal> {
  const raw = ctx.credentials.apiKey;
  if (!raw || raw.length > 512) throw new ServiceError('WSInvalidAuthTokenException', 'The x-api-key system token is missing or invalid.');
  const tokenHash = hashToken(raw);
  const token = await ctx.em.findOne(SystemToken, { tokenHash });
  if (!token || !sameDigest(token.tokenHash, tokenHash) || token.revokedAt) {
    throw new ServiceError('WSInvalidAuthTokenException', 'The x-api-key system token is missing or invalid.');
  }
  if (!token.scopes.includes(scope))
    throw new ServiceError('InsufficientPrivilegesException', `The system token lacks the ${scope} scope.`);
  return { kind: 'system', token };
}

async function companyKeyPrincipal(ctx: Context): Promise<CompanyKeyPrincipal> {
  const raw = ctx.credentials.companyApiKey;
  if (!raw || raw.length > 512) throw new ServiceError('WSInvalidAuthTokenException', 'The company API key is missing or invalid.');
  const keyHash = hashToken(raw.toLowerCase());
  const key = await ctx.em.findOne(CompanyApiKey, { keyHash }, { populate: ['company'] });
  if (!key || !sameDigest(key.keyHash, keyHash))
    throw new ServiceError('WSInvalidAuthTokenException', 'The company API key is missing or invalid.');
  if (!key.active) throw new ServiceError('WSCompanyApiKeyNotActiveException');
  const company = key.company as Company;
  if (!company.active) throw new ServiceError('WSCompanyNotActiveException');
  return { kind: 'companyKey', key, company };
}

declare module '../../context' {
  // The context's principals are these (ctx.auth); the identity module's definition makes them.
  interface Auth extends Principals {}
}
