import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { Company, CompanyRole, type CompanyRoleName } from './company.entity';
import { pairKey, splitPairKey } from '../../core/loaders';

export function createCompanyLoaders(em: EntityManager) {
  return {
    /** Companies by id (federation references, nested company fields); null when unknown. */
    companyById: new DataLoader<number, Company | null>(async (ids) => {
      const rows = await em.find(Company, { companyId: { $in: [...ids] } });
      const byId = new Map(rows.map((r) => [r.companyId, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    /** A user's roles on a company, keyed by pairKey(userId, companyId) (company.access.ts). */
    companyRoles: new DataLoader<string, CompanyRoleName[]>(async (keys) => {
      const pairs = keys.map(splitPairKey);
      const rows = await em.find(CompanyRole, { $or: pairs.map(([user, company]) => ({ user, company })) });
      const byKey = new Map<string, CompanyRoleName[]>(keys.map((k) => [k, []]));
      for (const r of rows) byKey.get(pairKey(r.user.uId, r.company.companyId))?.push(r.role);
      return keys.map((k) => byKey.get(k)!);
    }),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createCompanyLoaders> {
    /**
     * Companies a federation reference (or an edge of the graph) may resolve to, per viewer (a user
     * id, or null for the router): company.reference.ts visibleCompaniesLoader. Made by the
     * connection module (connection.loaders.ts), which knows who is tied to a company and imports
     * this one; the rule's SQL is this module's (company.queries.ts).
     */
    visibleCompanies: (userId: number | null) => DataLoader<number, Company | null>;
  }
}
