// Which companies a federation reference (`_entities`) may resolve to, batched per request.
// The root operations that hand out a Company record are recommendedEntities (active, not
// hidden walls), myConnections (the company of each of the caller's connections, whatever its
// status or the company's state) and companyConnections (company admins, their own company);
// recommendedCriteria and requestConnection accept any active company that is not a hidden
// wall. The reference rule follows them (see resolveCompanyReference and docs/security.md).
import DataLoader from 'dataloader';
import type { EntityDictionary, EntityManager } from '@mikro-orm/core';
import { Company } from './company.entity';

/**
 * Companies by id as a reference resolves them for a viewer, from `rowsOf` (the stored rows of
 * those of the ids the viewer may see: company.queries.ts discoverableCompanies, or
 * companiesVisibleTo for a user): null for the others and unknown ids. One statement per batch,
 * whatever the mix of visible and invisible ids. The loader per viewer (ctx.loaders.visibleCompanies)
 * is made by the connection module, which knows who is tied to a company (company.loaders.ts).
 */
export function visibleCompaniesLoader(
  em: EntityManager,
  rowsOf: (ids: number[]) => Promise<unknown[]>,
): DataLoader<number, Company | null> {
  return new DataLoader<number, Company | null>(async (ids) => {
    const rows = (await rowsOf([...ids])) as EntityDictionary<Company>[];
    const byId = new Map<number, Company>();
    for (const row of rows) {
      const company = em.map(Company, row);
      byId.set(company.companyId, company);
    }
    return ids.map((id) => byId.get(id) ?? null);
  });
}
