// Predicates on this module's tables for other modules' statements: a module that needs to know
// whether a user administers a company asks here, and its own SQL never names this module's
// tables (test/unit/sql-owners.test.ts). Written from the entities' metadata, so call them from a
// statement's builder (readModel's `sql`, sqlOnce), which receives `n`. The arguments are SQL
// expressions of the caller's statement (a column of its own, or a placeholder); the aliases
// inside are prefixed with the module's name, so they cannot hide one of the caller's.
import type { NamesOf } from '../../db/lean';
import { CompanyRole, type CompanyRoleName } from './company.entity';

const ADMIN: CompanyRoleName = 'ADMIN';

/** Whether user `userId` holds the ADMIN role on company `companyId`: `exists (...)`. */
export function isCompanyAdminSql(n: NamesOf, companyId: string, userId: string): string {
  const r = n(CompanyRole);
  return `exists (select 1 from ${r.table} company_r where company_r.${r.column('company')} = ${companyId}
    and company_r.${r.column('user')} = ${userId} and company_r.${r.column('role')} = '${ADMIN}')`;
}
