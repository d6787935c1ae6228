// Row factories: each test arranges its own rows, with random suffixes on unique fields.
import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { User } from '../../src/modules/user/user.entity';
import { Company, CompanyRole, type CompanyRoleName } from '../../src/modules/company/company.entity';
import { Team, TeamMember } from '../../src/modules/team/team.entity';
import { ServiceAuthToken } from '../../src/modules/identity/identity.entity';
import { hashToken, newOpaqueToken, SERVICE_TOKEN_TTL_MS } from '../../src/modules/identity/tokens';

export const suffix = () => crypto.randomBytes(4).toString('hex');

export async function createUser(orm: MikroORM, data: Partial<User> = {}): Promise<User> {
  const em = orm.em.fork();
  const user = em.create(User, { email: `user-${suffix()}@test.example`, authType: 'O', synchronised: true, firstName: 'Test', lastName: 'User', ...data } as any);
  await em.flush();
  return user;
}

export async function createCompany(orm: MikroORM, data: Partial<Company> = {}): Promise<Company> {
  const em = orm.em.fork();
  const company = em.create(Company, { companyName: `Company ${suffix()}`, companyCountryCode: 'AU', ...data } as any);
  await em.flush();
  return company;
}

export async function grantCompanyRole(orm: MikroORM, userId: number, companyId: number, role: CompanyRoleName): Promise<void> {
  const em = orm.em.fork();
  em.create(CompanyRole, { user: em.getReference(User, userId), company: em.getReference(Company, companyId), role });
  await em.flush();
}

export async function createTeam(orm: MikroORM, companyId: number, memberIds: number[] = [], data: Partial<Team> = {}): Promise<Team> {
  const em = orm.em.fork();
  const team = em.create(Team, { company: em.getReference(Company, companyId), teamName: `Team ${suffix()}`, ...data } as any);
  for (const uId of memberIds) em.create(TeamMember, { team, user: em.getReference(User, uId) });
  await em.flush();
  return team;
}

/** A service auth token for the user, as loginUser would issue it. */
export async function tokenFor(orm: MikroORM, userId: number, ttlMs = SERVICE_TOKEN_TTL_MS): Promise<string> {
  const em = orm.em.fork();
  const token = newOpaqueToken();
  em.create(ServiceAuthToken, { tokenHash: hashToken(token), user: em.getReference(User, userId), expiresAt: new Date(Date.now() + ttlMs) });
  await em.flush();
  return token;
}

export const userAuth = (token: string) => ({ 'x-service-authtoken': token });

/** Row count of a table, for "nothing was stored" assertions. */
export async function countRows(orm: MikroORM, table: string): Promise<number> {
  const rows = await orm.em.fork().getConnection().execute(`select count(*)::int as n from "${table}"`);
  return rows[0].n;
}
