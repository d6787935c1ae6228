// The company module's SQL (docs/development.md, "Reads and writes"), in schema/sql/company.sql:
// the fragments other modules' queries ask of its tables. The arguments are expressions of the
// asker's query (a column of its own, or a parameter).
import { sql, type Expression, type SqlBool } from 'kysely';
import { queriesOf } from '../../db/sql';
import { CompanyRole, type CompanyRoleName } from './company.entity';

const { eb } = queriesOf({ CompanyRole });

const ADMIN: CompanyRoleName = 'ADMIN';

/** Whether user `userId` holds the ADMIN role on company `companyId`: `exists (...)`. */
export const adminRoleExists = (companyId: Expression<number>, userId: Expression<number>): Expression<SqlBool> =>
  eb.exists(
    eb
      .selectFrom('CompanyRole as company_r')
      .select(sql.lit(1).as('one'))
      .where('company_r.company', '=', companyId)
      .where('company_r.user', '=', userId)
      .where('company_r.role', '=', sql.lit(ADMIN)),
  );
