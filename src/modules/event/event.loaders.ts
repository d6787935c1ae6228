import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { keyed, pairKey, splitPairKey } from '../../core/loaders';
import { pageLoader, type PageRequest } from '../../graphql/connection';
import type { EventView } from './event.types';
import { readCompanyEventPages, readEvents, readInvitations, readUserEventPages } from './event.reads';

/** Key of the User.events loader of one argument set: the wall filter and the page asked. */
export const userEventPagesKey = (companyId: number | null, request: PageRequest): string => JSON.stringify({ companyId, request });
/** Key of the Company.events loader of one viewer and argument set. */
export const companyEventPagesKey = (viewerId: number, request: PageRequest): string => JSON.stringify({ viewerId, request });

export function createEventLoaders(em: EntityManager) {
  /** Events by UUID (lower case), as the Event view with its company's name; null when unknown. */
  const eventsByUuid = new DataLoader<string, EventView | null>(async (uuids) => {
    const rows = await readEvents(em, [...uuids]);
    const byUuid = new Map(rows.map((e) => [e.eventUUID, e]));
    return uuids.map((u) => byUuid.get(u) ?? null);
  });
  /** Whether a user is invited to an event, keyed by pairKey(userId, eId). */
  const eventInvites = new DataLoader<string, boolean>(async (keys) => {
    const pairs = keys.map(splitPairKey);
    // The keys of one request pair its one caller with events, so users x events is the pairs asked.
    const rows = await readInvitations(em, [...new Set(pairs.map(([user]) => user))], [...new Set(pairs.map(([, event]) => event))]);
    const invited = new Set(rows.map((r) => pairKey(r.userId, r.eventId)));
    return keys.map((k) => invited.has(k));
  });
  return {
    eventsByUuid,
    eventInvites,
    /**
     * User.events: a page of each user's invitations, per argument set (userEventPagesKey), keyed
     * by user id. One statement for every user asked with those arguments; what it read primes
     * eventInvites.
     */
    userEventPages: keyed((key: string) => {
      const { companyId, request } = JSON.parse(key) as { companyId: number | null; request: PageRequest };
      return pageLoader(async (userIds, counted) => {
        const pages = await readUserEventPages(em, userIds, companyId, { ...request, counted });
        userIds.forEach((uId, i) => pages[i].edges.forEach(({ node }) => eventInvites.prime(pairKey(uId, node.eId), true)));
        return pages;
      });
    }),
    /**
     * Company.events: a page of each company's events the viewer may see, per viewer and argument
     * set (companyEventPagesKey), keyed by company id. One statement for every company asked with
     * those arguments; the events read prime eventsByUuid.
     */
    companyEventPages: keyed((key: string) => {
      const { viewerId, request } = JSON.parse(key) as { viewerId: number; request: PageRequest };
      return pageLoader(async (companyIds, counted) => {
        const pages = await readCompanyEventPages(em, viewerId, companyIds, { ...request, counted });
        for (const page of pages) for (const { node } of page.edges) eventsByUuid.prime(node.eventUUID, node);
        return pages;
      });
    }),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createEventLoaders> {}
}
