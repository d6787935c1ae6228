// Predicates on this module's tables for other modules' statements: a module that needs to know
// whether a user is connected to a company asks here, and its own SQL never names this module's
// tables (test/unit/sql-owners.test.ts). Written from the entities' metadata, so call them from a
// statement's builder (readModel's `sql`, sqlOnce), which receives `n`. The arguments are SQL
// expressions of the caller's statement (a column of its own, or a placeholder); the aliases
// inside are prefixed with the module's name, so they cannot hide one of the caller's.
import type { NamesOf } from '../../db/lean';
import { CompanyConnection } from './connection.entity';

/** The connection of a user to a company as a left join (one row at most: one per pair), and its status column. */
export function connectionStatusSql(n: NamesOf): { join: (companyId: string, userId: string) => string; status: string } {
  const c = n(CompanyConnection);
  return {
    join: (companyId, userId) =>
      `left join ${c.table} connection_s on connection_s.${c.column('company')} = ${companyId} and connection_s.${c.column('user')} = ${userId}`,
    status: `connection_s.${c.column('status')}`,
  };
}
