import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { UserConsent } from '../directory';
import { pairKey, splitPairKey } from '../../core/loaders';

export function createConsentLoaders(em: EntityManager) {
  return {
    /** Whether a user gave a consent, by pairKey(userId, consentId): one statement per batch. */
    consentGiven: new DataLoader<string, boolean>(async (keys) => {
      const pairs = keys.map(splitPairKey);
      const rows = await em.find(UserConsent, {
        user: { $in: [...new Set(pairs.map((p) => p[0]))] },
        consent: { $in: [...new Set(pairs.map((p) => p[1]))] },
        given: true,
      });
      const given = new Set(rows.map((r) => pairKey(r.user.uId, r.consent.id)));
      return keys.map((k) => given.has(k));
    }),
  };
}
