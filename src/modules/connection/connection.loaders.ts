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
import { discoverableCompanies, visibleCompaniesLoader } from '../company';
import { recommendCompanies, type MatchProfile, type RecommendOptions } from '../discovery';
import {
  asConnection,
  companiesVisibleToUser,
  connectionsOfUsers,
  connectionsWithCompanies,
  recommendedCompanies,
} from './connection.queries';

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

  /**
   * Companies a federation reference or an edge may resolve to, per viewer (a user id, or null for
   * the router): declared by the company module (company.loaders.ts), made here, where the
   * connections a user is tied to a company by are known. One statement per batch.
   */
  const visibleCompanies = keyed((userId: number | null) =>
    visibleCompaniesLoader(em, (ids) =>
      userId === null ? discoverableCompanies.run(em, { ids }) : companiesVisibleToUser.run(em, { ids, userId }),
    ),
  );

  /**
   * The companies recommended to a user: declared by the discovery module (discovery.loaders.ts),
   * made here, where the user's connections are read (connection.queries.ts recommendedCompanies).
   */
  const recommend = (profile: MatchProfile, options: RecommendOptions) => recommendCompanies(em, recommendedCompanies, profile, options);

  return { connectionsOfUser, viewerConnectionAt, visibleCompanies, recommendCompanies: recommend };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createConnectionLoaders> {}
}
