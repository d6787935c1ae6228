// The connection module's SQL (docs/development.md, "Reads and writes"), in
// schema/sql/connection.sql: a user's connections (myConnections, User.connections), the
// caller's connection with each of some companies (Company.viewerConnection), the connections a
// viewer may read (node(id:)), each one statement selecting every column the entity maps, shaped
// into the GraphQL view (connectionView), so no column is named here; and the fragments other
// modules' queries ask of the connection table.
import { sql, type Expression, type SqlBool } from 'kysely';
import { anyOf, queriesOf, type RowOf } from '../../db/sql';
import { adminRoleExists, companiesVisibleTo } from '../company';
import { recommendedCompaniesWith } from '../discovery';
import { CompanyConnection, type ConnectionStatus } from './connection.entity';
import { connectionView, type Connection } from './connection.types';

const { compiled, eb } = queriesOf({ CompanyConnection });

/** A row as its view: the relations' keys are the company's and the user's ids. */
export const asConnection = (row: RowOf<CompanyConnection>): Connection => connectionView(row, row.company, row.user);

/**
 * The connections of the users (an intArray), in myConnections' order (newest request first) per
 * user, only those of the status when one is given.
 */
export const connectionsOfUsers = compiled((db, p: { userIds: string; status: ConnectionStatus | null }, { columns }) =>
  db
    .selectFrom('CompanyConnection as c')
    .select(columns(CompanyConnection, 'c'))
    .where('c.user', '=', anyOf(p.userIds, 'int'))
    .where((w) => w.or([w(sql`${p.status}::text`, 'is', null), w('c.status', '=', p.status)]))
    .orderBy('c.user')
    .orderBy('c.requestedAt', 'desc')
    .orderBy('c.id', 'desc'),
);

/** The user's connections with any of the companies (an intArray): at most one each. */
export const connectionsWithCompanies = compiled((db, p: { userId: number; companyIds: string }, { columns }) =>
  db
    .selectFrom('CompanyConnection as c')
    .select(columns(CompanyConnection, 'c'))
    .where('c.user', '=', p.userId)
    .where('c.company', '=', anyOf(p.companyIds, 'int'))
    .orderBy('c.company'),
);

/**
 * The connections of these (user, company) pairs (two intArrays, pairwise) that the viewer may
 * read: their own (myConnections) and those of the companies they are an ADMIN of
 * (companyConnections). One statement for any number of pairs.
 */
export const connectionsReadableBy = compiled((db, p: { viewerId: number; userIds: string; companyIds: string }, { columns }) =>
  db
    .selectFrom('CompanyConnection as c')
    .select(columns(CompanyConnection, 'c'))
    .where((w) => w.or([w('c.user', '=', p.viewerId), adminRoleExists(w.ref('c.company'), w.val(p.viewerId))]))
    .where(
      (w) =>
        sql<SqlBool>`(${w.ref('c.user')}, ${w.ref('c.company')}) in (select * from unnest(${p.userIds}::int[], ${p.companyIds}::int[]))`,
    )
    .orderBy('c.id'),
);

/** Connections of user `userId` to company `companyId` (both expressions of the asker's query). */
const connectionsOf = (companyId: Expression<number>, userId: Expression<number>) =>
  eb
    .selectFrom('CompanyConnection as connection_c')
    .select(sql.lit(1).as('one'))
    .where('connection_c.company', '=', companyId)
    .where('connection_c.user', '=', userId);

/** Whether user `userId` has a connection of any status to company `companyId`: `exists (...)`. */
export const connectionExists = (companyId: Expression<number>, userId: Expression<number>): Expression<SqlBool> =>
  eb.exists(connectionsOf(companyId, userId));

/** Whether user `userId` has an accepted connection to company `companyId`: `exists (...)`. */
export const acceptedConnectionExists = (companyId: Expression<number>, userId: Expression<number>): Expression<SqlBool> =>
  eb.exists(connectionsOf(companyId, userId).where('connection_c.status', '=', sql.lit<ConnectionStatus>('accepted')));

/**
 * The companies of these ids a user sees as references and edges (company.queries.ts
 * companiesVisibleTo): the discoverable ones and those the user is tied to, by a connection of any
 * status or the ADMIN role.
 */
export const companiesVisibleToUser = companiesVisibleTo(connectionExists);

/**
 * The status of user `userId`'s connection to company `companyId` (no row: none; one at most), as a
 * subquery the asker joins laterally (`leftJoinLateral`), which PostgreSQL plans as a left join.
 */
export const connectionStatusOf = (companyId: Expression<number>, userId: Expression<number>) =>
  eb
    .selectFrom('CompanyConnection as connection_c')
    .select((c) => c.ref('connection_c.status').as('status'))
    .where('connection_c.company', '=', companyId)
    .where('connection_c.user', '=', userId)
    .as('connection_s');

/**
 * The companies recommended to a user (discovery.queries.ts recommendedCompaniesWith), with the
 * user's connection to each from this module's table: the discovery module cannot import this one
 * (it imports discovery), so the query is made here and reaches discovery through the request's
 * loaders (ctx.loaders.recommendCompanies, connection.loaders.ts).
 */
export const recommendedCompanies = recommendedCompaniesWith(connectionStatusOf);
