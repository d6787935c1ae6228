// The company module's SQL (docs/development.md, "Reads and writes"), in schema/sql/company.sql:
// the fragments other modules' queries ask of its tables. The arguments are expressions of the
// asker's query (a column of its own, or a parameter).
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { anyOf, queriesOf, type RowOf, type Tables } from '../../db/sql';
import type { ColumnKey } from '../../db/sql-types';
import { Company, CompanyRole, type CompanyRoleName } from './company.entity';

const { compiled, eb } = queriesOf({ Company, CompanyRole });

type DB = Tables<{ Company: Company; CompanyRole: CompanyRole }>;

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

/** Whether company `companyId` may be discovered (active, not a hidden wall); null when there is no such company: a scalar subquery. */
export const companyDiscoverable = (companyId: Expression<number>): Expression<boolean | null> =>
  eb
    .selectFrom('Company as company_c')
    .select((c) => sql<boolean>`${c.ref('company_c.active')} and not ${c.ref('company_c.hiddenWall')}`.as('discoverable'))
    .where('company_c.companyId', '=', companyId) as never;

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

// --- Which companies a reference resolves to (company.reference.ts) ---

/** Discoverable: active and not a hidden wall. */
const discoverable = (w: ExpressionBuilder<DB & { c: DB['Company'] }, 'c'>) => w.and([w.ref('c.active'), w.not(w.ref('c.hiddenWall'))]);

/**
 * The companies of these ids (an array) the router's federation token sees: the discoverable ones.
 * Every column as stored (`c.*`), for em.map.
 */
export const discoverableCompanies = compiled((db, p: { ids: number[] }) =>
  db.selectFrom('Company as c').selectAll('c').where('c.companyId', '=', anyOf(p.ids, 'int')).where(discoverable),
);

/**
 * The companies of these ids (an array) a user sees: the discoverable ones, and those the user is
 * tied to: `connected` (a connection of any status, as myConnections lists them: a predicate the
 * connection module gives, which imports this one) or the ADMIN role (as companyConnections
 * allows). Every column as stored (`c.*`), for em.map.
 */
export const companiesVisibleTo = (connected: (companyId: Expression<number>, userId: Expression<number>) => Expression<SqlBool>) =>
  compiled((db, p: { ids: number[]; userId: number }) =>
    db
      .selectFrom('Company as c')
      .selectAll('c')
      .where('c.companyId', '=', anyOf(p.ids, 'int'))
      .where((w) =>
        w.or([discoverable(w), connected(w.ref('c.companyId'), w.val(p.userId)), adminRoleExists(w.ref('c.companyId'), w.val(p.userId))]),
      ),
  );

/**
 * The discoverable companies (active, not a hidden wall) with the columns `props` (the asker names
 * them by property, `co.companyName`, as MikroORM's plugin maps them): a subquery another module's query joins under an alias of its own
 * (`innerJoin(discoverableCompanyRows([...]).as('co'), ...)`), which PostgreSQL plans as a join of
 * the table.
 */
export const discoverableCompanyRows = <K extends ColumnKey<Company>>(props: readonly K[]) =>
  eb
    .selectFrom('Company as company_c')
    .select(props.map((prop) => `company_c.${prop}` as 'company_c.companyId'))
    .where((w) => w.and([w.ref('company_c.active'), w.not(w.ref('company_c.hiddenWall'))]))
    .$castTo<Pick<RowOf<Company>, K>>();
