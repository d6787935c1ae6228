// The one module that turns request credentials into principals, once per request.
// Resolvers call requireUser / requireSystem / requireCompanyKey; the errors are the spec's.
import type { Context } from '../../context';
import { ServiceError } from '../../graphql/errors';
import { User } from '../user/user.entity';
import { Company, CompanyApiKey } from '../company/company.entity';
import { ServiceAuthToken, SystemToken } from './identity.entity';
import { hashToken, sameDigest, SERVICE_TOKEN_TTL_MS } from './tokens';

export interface UserPrincipal {
  kind: 'user';
  user: User;
  tokenHash: string;
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

async function memo<T>(ctx: Context, key: string, compute: () => Promise<T>): Promise<T> {
  if (!ctx.memo.has(key)) ctx.memo.set(key, compute());
  return ctx.memo.get(key) as Promise<T>;
}

const invalidToken = () => new ServiceError('WSInvalidAuthTokenException');

/** Sliding expiry is written at most this often per token, not on every request. */
const SLIDE_GRANULARITY_MS = 5 * 60 * 1000;

export function requireUser(ctx: Context): Promise<UserPrincipal> {
  return memo(ctx, 'principal:user', async () => {
    const raw = ctx.credentials.authToken;
    if (!raw || raw.length > 512) throw invalidToken();
    const tokenHash = hashToken(raw);
    const row = await ctx.em.findOne(ServiceAuthToken, { tokenHash }, { populate: ['user'] });
    const now = Date.now();
    if (!row || !sameDigest(row.tokenHash, tokenHash) || row.revokedAt || row.expiresAt.getTime() <= now) throw invalidToken();
    const user = row.user as User;
    if (!user.active) throw invalidToken();
    if (row.expiresAt.getTime() - now < SERVICE_TOKEN_TTL_MS - SLIDE_GRANULARITY_MS) {
      await ctx.em.nativeUpdate(ServiceAuthToken, { tokenHash }, { expiresAt: new Date(now + SERVICE_TOKEN_TTL_MS) });
    }
    return { kind: 'user', user, tokenHash };
  });
}

/** x-api-key: missing or unknown is 401; a token without the scope is InsufficientPrivilegesException. */
export function requireSystem(ctx: Context, scope: string): Promise<SystemPrincipal> {
  return memo(ctx, `principal:system:${scope}`, async () => {
    const raw = ctx.credentials.apiKey;
    if (!raw || raw.length > 512) throw new ServiceError('WSInvalidAuthTokenException', 'The x-api-key system token is missing or invalid.');
    const tokenHash = hashToken(raw);
    const token = await ctx.em.findOne(SystemToken, { tokenHash });
    if (!token || !sameDigest(token.tokenHash, tokenHash) || token.revokedAt) {
      throw new ServiceError('WSInvalidAuthTokenException', 'The x-api-key system token is missing or invalid.');
    }
    if (!token.scopes.includes(scope)) throw new ServiceError('InsufficientPrivilegesException', `The system token lacks the ${scope} scope.`);
    return { kind: 'system', token };
  });
}

/** x-service-company-api-key: missing or unknown is 401; inactive key or company are 403. */
export function requireCompanyKey(ctx: Context): Promise<CompanyKeyPrincipal> {
  return memo(ctx, 'principal:companyKey', async () => {
    const raw = ctx.credentials.companyApiKey;
    if (!raw || raw.length > 512) throw new ServiceError('WSInvalidAuthTokenException', 'The company API key is missing or invalid.');
    const keyHash = hashToken(raw.toLowerCase());
    const key = await ctx.em.findOne(CompanyApiKey, { keyHash }, { populate: ['company'] });
    if (!key || !sameDigest(key.keyHash, keyHash)) throw new ServiceError('WSInvalidAuthTokenException', 'The company API key is missing or invalid.');
    if (!key.active) throw new ServiceError('WSCompanyApiKeyNotActiveException');
    const company = key.company as Company;
    if (!company.active) throw new ServiceError('WSCompanyNotActiveException');
    return { kind: 'companyKey', key, company };
  });
}
