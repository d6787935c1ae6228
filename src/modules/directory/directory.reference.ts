// Federation: which smart directories a reference (`_entities`) may resolve to, batched per
// request. A user walks the chain of Query.smartDirectory (directory.access.ts) for every
// representation at once: one statement for all of them, the same checks in the same order,
// the same errors. The router's federation token sees the directories a member could open,
// of active companies.
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import type { ServiceError } from '../../core/errors';
import { chainRefusal } from './directory.access';
import { directoryChains, routerDirectories } from './directory.queries';

/** The chain of one directory for one user (directory.access.ts, for many directories). */
type ChainRow = Awaited<ReturnType<typeof directoryChains.run>>[number];

/**
 * The chain of each of the directories for the user, by lowercase UUID: one statement (a team
 * membership is unique per (team, user) and a contact record per (directory, user), so one row
 * per directory found).
 */
async function chainRows(em: EntityManager, userId: number, uuids: readonly string[]): Promise<Map<string, ChainRow>> {
  const rows = await directoryChains.run(em, { userId, uuids: [...uuids] });
  return new Map(rows.map((r) => [r.directoryUUID.toLowerCase(), r]));
}

/**
 * The user's standing in a directory, as Query.smartDirectory decides it: whether the user is a
 * team admin there, or the error that operation raises (not found, feature not enabled,
 * inactive, not a member, no contact record, required consents missing), with which the load
 * rejects. Batched per request.
 */
export function directoryStandingLoader(em: EntityManager, userId: number): DataLoader<string, { admin: boolean }> {
  return new DataLoader<string, { admin: boolean }>(async (uuids) => {
    const rows = await chainRows(em, userId, uuids);
    return uuids.map((uuid): { admin: boolean } | ServiceError => {
      const row = rows.get(uuid);
      return chainRefusal(row) ?? { admin: row!.teamAdmin };
    });
  });
}

/** Of the given directories, those the router may see: active, of an active company that has
 * smart directories enabled. One statement per batch. */
export function routerDirectoriesLoader(em: EntityManager): DataLoader<string, boolean> {
  return new DataLoader(async (uuids) => {
    const rows = await routerDirectories.run(em, { uuids: [...uuids] });
    const open = new Set(rows.map((r) => r.directoryUUID.toLowerCase()));
    return uuids.map((uuid) => open.has(uuid));
  });
}
