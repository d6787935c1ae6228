// Rows of the discovery and connection model for tests (test/discovery, test/company,
// test/membership).
import type { MikroORM } from '@mikro-orm/core';
import { Company, CompanyApiKey } from '../../src/modules/company/company.entity';
import { CompanyConnection, type ConnectionStatus } from '../../src/modules/company/connection.entity';
import { DiscoveryCriterion } from '../../src/modules/discovery/criterion.entity';
import { IdentifierDefinition, UserIdentifier } from '../../src/modules/discovery/identifier.entity';
import { User } from '../../src/modules/user/user.entity';
import { hashToken } from '../../src/modules/identity/tokens';
import { suffix } from '../factories';

export interface Dims {
  countries?: string[];
  professions?: number[];
  specialties?: number[];
  identifiers?: number[];
}

export async function createCriterion(orm: MikroORM, companyId: number, dims: Dims = {}): Promise<DiscoveryCriterion> {
  const em = orm.em.fork();
  const c = em.create(DiscoveryCriterion, { company: em.getReference(Company, companyId), ...dims });
  await em.flush();
  return c;
}

export async function createIdentifier(orm: MikroORM, data: Partial<IdentifierDefinition> = {}): Promise<IdentifierDefinition> {
  const em = orm.em.fork();
  const def = em.create(IdentifierDefinition, { name: `ID ${suffix()}`, description: 'Test identifier', countryCode: 'AU', formatDesc: null, formatRegex: null, ...data } as any);
  await em.flush();
  return def;
}

export async function giveIdentifier(orm: MikroORM, userId: number, identifierId: number, value = 'X1'): Promise<void> {
  const em = orm.em.fork();
  em.create(UserIdentifier, { user: em.getReference(User, userId), identifier: em.getReference(IdentifierDefinition, identifierId), value });
  await em.flush();
}

export async function connect(orm: MikroORM, userId: number, companyId: number, status: ConnectionStatus): Promise<void> {
  const em = orm.em.fork();
  const now = new Date();
  em.create(CompanyConnection, {
    user: em.getReference(User, userId),
    company: em.getReference(Company, companyId),
    status,
    requestedAt: now,
    pendingAt: status === 'pending' ? now : null,
    acceptedAt: status === 'accepted' ? now : null,
    rejectedAt: status === 'rejected' ? now : null,
    rejectionReason: status === 'rejected' ? 'declined' : null,
  });
  await em.flush();
}

/** A company API key (the raw UUID is returned); linked to a membership identifier when given. */
export async function createApiKey(orm: MikroORM, companyId: number, data: Partial<CompanyApiKey> = {}): Promise<string> {
  const em = orm.em.fork();
  const raw = crypto.randomUUID();
  em.create(CompanyApiKey, { keyHash: hashToken(raw), company: em.getReference(Company, companyId), ...data } as any);
  await em.flush();
  return raw;
}

export async function connectionOf(orm: MikroORM, userId: number, companyId: number): Promise<CompanyConnection | null> {
  return orm.em.fork().findOne(CompanyConnection, { user: userId, company: companyId });
}

/** All rows of a table as plain objects, for "nothing changed" assertions. */
export async function tableRows(orm: MikroORM, table: string): Promise<unknown[]> {
  return orm.em.fork().getConnection().execute(`select * from "${table}" order by 1`);
}
