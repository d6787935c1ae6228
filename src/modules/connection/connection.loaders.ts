// Per-request loaders of the connection module: a user's connections (per status filter) and the
// viewer's connection with each company. Reading a user's connections primes the viewer's
// connection with each of those companies, so `me { connections { company { viewerConnection } } }`
// reads the connections once.
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { intArray } from '../../db/sql';
import { keyed } from '../../core/loaders';
import type { ConnectionStatus } from './connection.entity';
import type { Connection } from './connection.types';
import { asConnection, connectionsOfUsers, connectionsWithCompanies } from './connection.queries';

export function createConnectionLoaders(em: EntityManager) {
  /** The user's connection with each company (null: none), per user: one statement per batch of companies. */
  const viewerConnectionAt = keyed(
    (userId: number) =>
      new DataLoader<number, Connection | null>(async (companyIds) => {
        const rows = (await connectionsWithCompanies.run(em, { userId, companyIds: intArray(companyIds) })).map(asConnection);
        const byCompany = new Map(rows.map((r) => [r.companyId, r]));
        return companyIds.map((id) => byCompany.get(id) ?? null);
      }),
  );

  /** Connections of users, newest request first, per status filter (null: every status): one statement per batch of users. */
  const connectionsOfUser = keyed(
    (status: ConnectionStatus | null) =>
      new DataLoader<number, Connection[]>(async (userIds) => {
        const rows = (await connectionsOfUsers.run(em, { userIds: intArray(userIds), status })).map(asConnection);
        const byUser = new Map<number, Connection[]>(userIds.map((id) => [id, []]));
        for (const row of rows) {
          byUser.get(row.userId)?.push(row);
          viewerConnectionAt(row.userId).prime(row.companyId, row);
        }
        return userIds.map((id) => byUser.get(id)!);
      }),
  );

  return { connectionsOfUser, viewerConnectionAt };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createConnectionLoaders> {}
}
