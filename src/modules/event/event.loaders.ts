import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { pairKey, splitPairKey } from '../../core/loaders';
import type { EventView } from './event.types';
import { readEvents, readInvitations } from './event.reads';

export function createEventLoaders(em: EntityManager) {
  return {
    /** Events by UUID (lower case), as the Event view with its company's name; null when unknown. */
    eventsByUuid: new DataLoader<string, EventView | null>(async (uuids) => {
      const rows = await readEvents(em, [...uuids]);
      const byUuid = new Map(rows.map((e) => [e.eventUUID, e]));
      return uuids.map((u) => byUuid.get(u) ?? null);
    }),
    /** Whether a user is invited to an event, keyed by pairKey(userId, eId). */
    eventInvites: new DataLoader<string, boolean>(async (keys) => {
      const pairs = keys.map(splitPairKey);
      // The keys of one request pair its one caller with events, so users x events is the pairs asked.
      const rows = await readInvitations(em, [...new Set(pairs.map(([user]) => user))], [...new Set(pairs.map(([, event]) => event))]);
      const invited = new Set(rows.map((r) => pairKey(r.userId, r.eventId)));
      return keys.map((k) => invited.has(k));
    }),
  };
}
