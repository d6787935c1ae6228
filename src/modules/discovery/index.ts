// The discovery module's door: its definition (read by src/modules/index.ts) and its public
// surface. Other modules import only from here.
// Discovery: identifier definitions and values, company criteria, and the matching that recommends companies to a user.
import { defineModule } from '../../core/module';
import { IdentifierDefinition, UserIdentifier } from './identifier.entity';
import { DiscoveryCriterion } from './criterion.entity';
import { DiscoveryResolver } from './discovery.resolver';
import { CompanyCriteriaResolver } from './company-criteria.resolver';
import { createDiscoveryLoaders } from './discovery.loaders';
import { discoveryRoutes } from './discovery.routes';

export const discovery = defineModule({
  name: 'discovery',
  entities: [IdentifierDefinition, UserIdentifier, DiscoveryCriterion],
  resolvers: [DiscoveryResolver, CompanyCriteriaResolver],
  loaders: createDiscoveryLoaders,
  tag: 'Discovery',
  routes: discoveryRoutes,
  seeders: () => import('./discovery.seeder.js').then((m) => [m.DiscoverySeeder]),
  rateLimited: ['getRecommendedEntitiesForUser'],
});

export {
  checkIdentifierValues,
  IDENTIFIER_VALUE_MAX,
  type IdentifierValue,
  matchesFormat,
  storeIdentifierValues,
} from './identifier-values';
export { IdentifierDefinition, MEMBERSHIP_LIMITS, UserIdentifier } from './identifier.entity';
export { levelsFor, type MatchProfile } from './matching';
export { LEVEL, type Level } from './discovery.types';
export { recommendedCompaniesWith } from './discovery.queries';
export { recommendCompanies, type RecommendOptions } from './discovery.service';
