import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition, UserIdentifier } from './identifier.entity';
import type { MatchProfile } from './matching';
import type { RecommendOptions } from './discovery.service';
import type { RecommendedEntity } from './discovery.types';

export function createDiscoveryLoaders(em: EntityManager) {
  return {
    /** Criteria of companies, by company id, in criterion id order. */
    criteriaByCompany: new DataLoader<number, DiscoveryCriterion[]>(async (ids) => {
      const rows = await em.find(DiscoveryCriterion, { company: { $in: [...ids] } }, { orderBy: { criterionId: 'asc' } });
      const byCompany = new Map<number, DiscoveryCriterion[]>(ids.map((id) => [id, []]));
      for (const row of rows) byCompany.get(row.company.companyId)!.push(row);
      return ids.map((id) => byCompany.get(id)!);
    }),
    /** Identifier definitions by id; null for an id that is not defined. */
    identifierDefinitionById: new DataLoader<number, IdentifierDefinition | null>(async (ids) => {
      const rows = await em.find(IdentifierDefinition, { identifierId: { $in: [...ids] } });
      const byId = new Map(rows.map((r) => [r.identifierId, r]));
      return ids.map((id) => byId.get(id) ?? null);
    }),
    /** Identifier values users hold, by user id, in identifier order. */
    identifierValuesByUser: new DataLoader<number, UserIdentifier[]>(async (ids) => {
      const rows = await em.find(UserIdentifier, { user: { $in: [...ids] } }, { orderBy: { identifier: 'asc' } });
      const byUser = new Map<number, UserIdentifier[]>(ids.map((id) => [id, []]));
      for (const row of rows) byUser.get(row.user.uId)!.push(row);
      return ids.map((id) => byUser.get(id)!);
    }),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createDiscoveryLoaders> {
    /**
     * The companies recommended to a user, in order (discovery.service.ts recommendCompanies). Made
     * by the connection module (connection.loaders.ts), which reads the user's connections and
     * imports this one; the statement's SQL is this module's (discovery.queries.ts).
     */
    recommendCompanies: (profile: MatchProfile, options: RecommendOptions) => Promise<RecommendedEntity[]>;
  }
}
