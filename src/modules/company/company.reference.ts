// Which companies a federation reference (`_entities`) may resolve to, batched per request.
// The root operations that hand out a Company record are recommendedEntities (active, not
// hidden walls), myConnections (the company of each of the caller's connections, whatever its
// status or the company's state) and companyConnections (company admins, their own company);
// recommendedCriteria and requestConnection accept any active company that is not a hidden
// wall. The reference rule follows them (see resolveCompanyReference and docs/security.md).
import { runSql } from '../../db/lean';
import DataLoader from 'dataloader';
import type { EntityDictionary, EntityManager } from '@mikro-orm/core';
import { Company } from './company.entity';

/** Discoverable: active and not a hidden wall. */
const DISCOVERABLE = 'c.active and not c.hidden_wall';

/**
 * Tied to the user: a connection of any status (as myConnections lists them) or the ADMIN role
 * (as companyConnections allows).
 */
const TIED = `exists (select 1 from company_connection cc where cc.company_id = c.company_id and cc.user_id = ?)
  or exists (select 1 from company_role r where r.company_id = c.company_id and r.user_id = ? and r.role = 'ADMIN')`;

/**
 * Companies by id as a reference resolves them for this viewer (a user id, or null for the
 * router's federation token): the visible ones, null for the others and unknown ids. One
 * statement per batch, whatever the mix of visible and invisible ids.
 */
export function visibleCompaniesLoader(em: EntityManager, userId: number | null): DataLoader<number, Company | null> {
  return new DataLoader<number, Company | null>(async (ids) => {
    const marks = ids.map(() => '?').join(', ');
    const rule = userId === null ? DISCOVERABLE : `(${DISCOVERABLE}) or ${TIED}`;
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
