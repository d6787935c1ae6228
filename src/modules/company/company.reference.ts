// Which companies a federation reference (`_entities`) may resolve to, batched per request.
// The root operations that hand out a Company record are recommendedEntities (active, not
// hidden walls), myConnections (the company of each of the caller's connections, whatever its
// status or the company's state) and companyConnections (company admins, their own company);
// recommendedCriteria and requestConnection accept any active company that is not a hidden
// wall. The reference rule follows them (see resolveCompanyReference and docs/security.md).
import { runSql, sqlOnce } from '../../db/lean';
import DataLoader from 'dataloader';
import type { EntityDictionary, EntityManager } from '@mikro-orm/core';
import { Company } from './company.entity';
import { isCompanyAdminSql } from './company.sql';
import { sqlDoor } from '../../core/sql-doors';

/** Discoverable: active and not a hidden wall. */
const DISCOVERABLE = 'c.active and not c.hidden_wall';

/**
 * Tied to the user: a connection of any status (as myConnections lists them; asked of the
 * connection module, which imports this one, through its declared door: src/core/sql-doors.ts) or
 * the ADMIN role (as companyConnections allows).
 */
const tied = sqlOnce((n) => `${sqlDoor('hasConnection')(n, 'c.company_id', '?')} or ${isCompanyAdminSql(n, 'c.company_id', '?')}`);

/**
 * Companies by id as a reference resolves them for this viewer (a user id, or null for the
 * router's federation token): the visible ones, null for the others and unknown ids. One
 * statement per batch, whatever the mix of visible and invisible ids.
 */
export function visibleCompaniesLoader(em: EntityManager, userId: number | null): DataLoader<number, Company | null> {
  return new DataLoader<number, Company | null>(async (ids) => {
    const marks = ids.map(() => '?').join(', ');
    const rule = userId === null ? DISCOVERABLE : `(${DISCOVERABLE}) or ${tied(em)}`;
    const params = userId === null ? [...ids] : [...ids, userId, userId];
    const rows = await runSql<EntityDictionary<Company>>(
      em,
      `select c.* from company c where c.company_id in (${marks}) and (${rule})`,
      params,
    );
    const byId = new Map<number, Company>();
    for (const row of rows) {
      const company = em.map(Company, row);
      byId.set(company.companyId, company);
    }
    return ids.map((id) => byId.get(id) ?? null);
  });
}
