import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { pairKey, splitPairKey } from '../../core/loaders';
import { Event, EventAttendee } from './event.entity';

export function createEventLoaders(em: EntityManager) {
  return {
    /** Events by UUID (lower case), with their company; null when unknown. */
    eventsByUuid: new DataLoader<string, Event | null>(async (uuids) => {
      const rows = await em.find(Event, { eventUUID: { $in: [...uuids] } }, { populate: ['company'] });
      const byUuid = new Map(rows.map((e) => [e.eventUUID, e]));
      return uuids.map((u) => byUuid.get(u) ?? null);
    }),
    /** A user's invitation to an event, keyed by pairKey(userId, eId); null when not invited. */
    eventInvites: new DataLoader<string, EventAttendee | null>(async (keys) => {
      const pairs = keys.map(splitPairKey);
      const rows = await em.find(EventAttendee, { $or: pairs.map(([user, event]) => ({ user, event })) });
      const byKey = new Map(rows.map((r) => [pairKey(r.user.uId, r.event.eId), r]));
      return keys.map((k) => byKey.get(k) ?? null);
    }),
  };
}
