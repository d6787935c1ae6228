import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { Company } from './company.entity';

export function createCompanyLoaders(em: EntityManager) {
  return {
    /** Companies by id (federation references, nested company fields); null when unknown. */
    companyById: new DataLoader<number, Company | null>(async (ids) => {
      const rows = await em.find(Company, { companyId: { $in: [...ids] } });
      const byId = new Map(rows.map((r) => [r.companyId, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
  };
}
