// Read models of connections (docs/development.md, "Reads and writes"): a user's connections
// (myConnections, User.connections) and the caller's connection with each of some companies
// (Company.viewerConnection), each one statement written once from the entity's metadata,
// answering the GraphQL view of a connection. Instants are selected as epoch milliseconds.
import { epochMillis, readModel, selectAs, type NamesOf } from '../../db/lean';
import { CompanyConnection } from './connection.entity';
import type { Connection } from './connection.types';

/** The columns of a connection, as its view names them (instants and the two ids apart). */
const COLUMNS = { status: 'status', rejectionReason: 'rejectionReason' } as const;
const INSTANTS = ['requestedAt', 'pendingAt', 'acceptedAt', 'rejectedAt', 'updatedAt'] as const;

interface Row {
  userId: number;
  companyId: number;
  status: string;
  rejectionReason: string | null;
  requestedAt: number;
  pendingAt: number | null;
  acceptedAt: number | null;
  rejectedAt: number | null;
  updatedAt: number;
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));

function shape(row: Row): Connection {
  return {
    companyId: row.companyId,
    userId: row.userId,
    status: row.status,
    requestedAt: new Date(row.requestedAt),
    pendingAt: date(row.pendingAt),
    acceptedAt: date(row.acceptedAt),
    rejectedAt: date(row.rejectedAt),
    rejectionReason: row.rejectionReason,
    updatedAt: new Date(row.updatedAt),
  };
}

type Column = (prop: Extract<keyof CompanyConnection, string>) => string;

/** `select <every field of the view> from company_connection c where <where> order by <order>`, given the columns' names. */
function connectionSql(n: NamesOf, where: (c: Column) => string, order: (c: Column) => string): string {
  const names = n(CompanyConnection);
  const column: Column = (prop) => `c.${names.column(prop)}`;
  const fields = [
    `${column('user')} as "userId"`,
    `${column('company')} as "companyId"`,
    ...selectAs(names, 'c', COLUMNS),
    ...INSTANTS.map((prop) => `${epochMillis(column(prop))} as "${prop}"`),
  ];
  return `select ${fields.join(', ')} from ${names.table} c where ${where(column)} order by ${order(column)}`;
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
  shape,
});
