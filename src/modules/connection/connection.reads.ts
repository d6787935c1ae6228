// Read models of connections (docs/development.md, "Reads and writes"): a user's connections
// (myConnections, User.connections) and the caller's connection with each of some companies
// (Company.viewerConnection), each one statement written once from the entity's metadata. It
// selects every column the entity maps, its rows are mapped by the entity's metadata and shaped
// into the GraphQL view (connectionView), so no column is named here.
import { readModel, type NamesOf } from '../../db/lean';
import { isCompanyAdminSql } from '../company';
import type { RowOf } from '../../db/rows';
import { CompanyConnection } from './connection.entity';
import { connectionView, type Connection } from './connection.types';

type Row = RowOf<CompanyConnection>;

/** A row as its view: the relations' keys are the company's and the user's ids. */
const shape = (row: Row): Connection => connectionView(row, row.company, row.user);

type Column = (prop: Extract<keyof CompanyConnection, string>) => string;

/** `select <every column> from company_connection c where <where> order by <order>`, given the columns' names. */
function connectionSql(n: NamesOf, where: (c: Column) => string, order: (c: Column) => string): string {
  const names = n(CompanyConnection);
  const column: Column = (prop) => `c.${names.column(prop)}`;
  return `select ${names.columns('c')} from ${names.table} c where ${where(column)} order by ${order(column)}`;
}

/**
 * The connections of the users (an intArray), in myConnections' order (newest request first) per
 * user, only those of the status when one is given.
 */
export const connectionsOfUsers = readModel<Connection, [userIds: string, status: string | null, status: string | null], Row>({
  sql: (n) =>
    connectionSql(
      n,
      (c) => `${c('user')} = any(?::int[]) and (?::text is null or ${c('status')} = ?)`,
      (c) => `${c('user')}, ${c('requestedAt')} desc, ${c('id')} desc`,
    ),
  entity: CompanyConnection,
  shape,
});

/** The user's connections with any of the companies (an intArray): at most one each. */
export const connectionsWithCompanies = readModel<Connection, [userId: number, companyIds: string], Row>({
  sql: (n) =>
    connectionSql(
      n,
      (c) => `${c('user')} = ? and ${c('company')} = any(?::int[])`,
      (c) => c('company'),
    ),
  entity: CompanyConnection,
  shape,
});

/**
 * The connections of these (user, company) pairs (two intArrays, pairwise) that the viewer may
 * read: their own (myConnections) and those of the companies they are an ADMIN of
 * (companyConnections). One statement for any number of pairs.
 */
export const connectionsReadableBy = readModel<Connection, [ownerId: number, adminId: number, userIds: string, companyIds: string], Row>({
  sql: (n) =>
    connectionSql(
      n,
      (c) =>
        `(${c('user')} = ? or ${isCompanyAdminSql(n, c('company'), '?')}) ` +
        `and (${c('user')}, ${c('company')}) in (select * from unnest(?::int[], ?::int[]))`,
      (c) => c('id'),
    ),
  entity: CompanyConnection,
  shape,
});
