import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { pairKey, splitPairKey } from '../../core/loaders';
import { givenConsentPairs } from '../directory';

export function createConsentLoaders(em: EntityManager) {
  return {
    /** Whether a user gave a consent, by pairKey(userId, consentId): one statement per batch. */
    consentGiven: new DataLoader<string, boolean>(async (keys) => {
      const pairs = keys.map(splitPairKey);
      const rows = await givenConsentPairs.run(em, {
        userIds: [...new Set(pairs.map((p) => p[0]))],
        consentIds: [...new Set(pairs.map((p) => p[1]))],
      });
      const given = new Set(rows.map((row) => pairKey(row.userId, row.consentId)));
      return keys.map((k) => given.has(k));
    }),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createConsentLoaders> {}
}
