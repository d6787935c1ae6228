// The company module's SQL (docs/development.md, "Reads and writes"), in schema/sql/company.sql:
// the fragments other modules' queries ask of its tables. The arguments are expressions of the
// asker's query (a column of its own, or a parameter).
import { sql, type Expression, type SqlBool } from 'kysely';
import { queriesOf } from '../../db/sql';
import { Company, CompanyRole, type CompanyRoleName } from './company.entity';

const { eb } = queriesOf({ Company, CompanyRole });

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

/** Whether user `userId` holds any of `roles` on company `companyId`: `exists (...)`. */
export const roleExists = (
  companyId: Expression<number>,
  userId: Expression<number>,
  roles: readonly CompanyRoleName[],
): Expression<SqlBool> =>
  eb.exists(
    eb
      .selectFrom('CompanyRole as company_r')
      .select(sql.lit(1).as('one'))
      .where('company_r.company', '=', companyId)
      .where('company_r.user', '=', userId)
      .where(
        'company_r.role',
        'in',
        roles.map((role) => sql.lit(role)),
      ),
  );

/** The name of company `companyId`: a scalar subquery. */
export const companyNameOf = (companyId: Expression<number>): Expression<string> =>
  eb.selectFrom('Company as company_c').select('company_c.companyName').where('company_c.companyId', '=', companyId) as never;

/** Whether company `companyId` has each of `flags` set (`active`, `smartDirectoryEnabled`): `exists (...)`. */
export const companyHas = (companyId: Expression<number>, flags: readonly ('active' | 'smartDirectoryEnabled')[]): Expression<SqlBool> =>
  eb.exists(
    flags.reduce(
      (q, flag) => q.where((w) => w.ref(`company_c.${flag}`)),
      eb.selectFrom('Company as company_c').select(sql.lit(1).as('one')).where('company_c.companyId', '=', companyId),
    ),
  );
