// The request's inbox loaders: User.notifications per argument set and User.unreadNotificationCount,
// each one statement for every user asked in the request.
import type { EntityManager } from '@mikro-orm/core';
import DataLoader from 'dataloader';
import { keyed } from '../../core/loaders';
import { pageLoader, type PageRequest } from '../../graphql/connection';
import { readInboxPages, readUnreadCounts } from './inbox.reads';

/** Key of the User.notifications loader of one argument set: the filter and the page asked. */
export const inboxPagesKey = (unreadOnly: boolean, request: PageRequest): string => JSON.stringify({ unreadOnly, request });

export function createInboxLoaders(em: EntityManager) {
  return {
    /** User.notifications: a page of each user's inbox, per argument set (inboxPagesKey), keyed by user id (pageLoader). */
    inboxPages: keyed((key: string) => {
      const { unreadOnly, request } = JSON.parse(key) as { unreadOnly: boolean; request: PageRequest };
      return pageLoader((userIds, counted) => readInboxPages(em, userIds, unreadOnly, { ...request, counted }));
    }),
    /** User.unreadNotificationCount, keyed by user id. */
    unreadNotificationCounts: new DataLoader<number, number>((userIds) => readUnreadCounts(em, userIds)),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createInboxLoaders> {}
}
