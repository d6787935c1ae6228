// getRecommendedEntitiesForUser (3) and getRecommendedCriteriaForEntity (4). The control
// object's fields are the arguments; validation happens here so GraphQL and REST reject alike.
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { invalidParameter, ServiceError } from '../../core/errors';
import { Company } from '../company';
import { EntityCriteria, RecommendedEntity } from './discovery.types';
import { discoverableCriteria } from './discovery.reads';
import { consume } from '../../core/rate-limit';
import { charLength } from '../../core/text';

const ENTITY_TYPES = ['company', 'event'];
const SEARCH_TERMS_MAX = 255;
const COMPANY_ID = /^[1-9]\d{0,8}$/; // fits PostgreSQL integer

function checkVersion(version: number, supported: number[]): void {
  if (!supported.includes(version)) {
    throw new ServiceError('WSUnsupportedVersionException', `Version ${version} is not supported; use ${supported.join(' or ')}.`, {
      field: 'version',
    });
  }
}

function searchTermsOf(searchTerms: string | null | undefined): string[] {
  // GraphQL hands an omitted nullable argument over as null, so null counts as absent.
  if (searchTerms === undefined || searchTerms === null) return [];
  if (searchTerms.trim() === '') throw invalidParameter('searchTerms', 'searchTerms, when present, must be a non-empty string.');
  // Endpoint 3 lists WSInvalidParameterException, not WSFieldLengthException: a bound it breaks is invalid.
  if (charLength(searchTerms) > SEARCH_TERMS_MAX)
    throw invalidParameter('searchTerms', `searchTerms must be at most ${SEARCH_TERMS_MAX} characters.`);
  return searchTerms.trim().split(/\s+/u);
}

@Resolver(() => RecommendedEntity)
@ServiceBoundary('WSDiscoverableServiceException')
export class DiscoveryResolver {
  @Query(() => [RecommendedEntity], {
    description:
      'Companies recommended to the caller (getRecommendedEntitiesForUser): those with a fully or partly met criterion, full matches first, then by name; never accepted connections, hidden walls or inactive companies.',
  })
  async recommendedEntities(
    @Ctx() ctx: Context,
    @Arg('version', () => Int, { description: 'Control version: 2 (current) or 1 (without usesCAF and cafUrl).' }) version: number,
    @Arg('entityType', () => [String], {
      description: 'Entity types to return, at least one of company and event (event is reserved: nothing yet).',
    })
    entityType: string[],
    @Arg('searchTerms', () => String, {
      nullable: true,
      description: 'Words that must each occur in the company name, description or city (case-insensitive); when present, non-empty.',
    })
    searchTerms?: string | null,
  ): Promise<RecommendedEntity[]> {
    const { user } = await ctx.auth.requireUser();
    await consume(ctx, 'recommended', user.uId);
    checkVersion(version, [1, 2]);
    if (!entityType.length || entityType.some((t) => !ENTITY_TYPES.includes(t))) {
      throw invalidParameter('entityType', 'entityType must list at least one of company and event.');
    }
    const terms = searchTermsOf(searchTerms);
    if (!entityType.includes('company')) return [];
    return ctx.loaders.recommendCompanies(user, { searchTerms: terms, withCaf: version >= 2, publicBaseUrl: ctx.config.publicBaseUrl });
  }

  @Query(() => EntityCriteria, {
    description:
      'Discovery criteria of one recommended entity and the identifier definitions they reference (getRecommendedCriteriaForEntity).',
  })
  async recommendedCriteria(
    @Ctx() ctx: Context,
    @Arg('version', () => Int, { description: 'Control version: 1.' }) version: number,
    @Arg('entityType', () => String, { description: 'company (event is reserved for future use).' }) entityType: string,
    @Arg('entityId', () => String, { description: 'The company id as text.' }) entityId: string,
  ): Promise<EntityCriteria> {
    await ctx.auth.requireUser();
    checkVersion(version, [1]);
    if (!ENTITY_TYPES.includes(entityType)) throw invalidParameter('entityType', 'entityType must be company or event.');
    if (entityType === 'event') throw invalidParameter('entityId', 'Events carry no discovery criteria yet.');
    const companyId = COMPANY_ID.test(entityId) ? Number(entityId) : null;
    const [found] = companyId === null ? [] : await discoverableCriteria(ctx.em, companyId);
    if (!found) throw invalidParameter('entityId', 'entityId does not name a discoverable company.');
    return found;
  }

  @FieldResolver(() => Company, { nullable: true, description: 'The recommended company, with its criteria (null for events).' })
  company(@Root() entity: RecommendedEntity, @Ctx() ctx: Context): Promise<Company | null> {
    return ctx.loaders.companyById.load(entity.companyId);
  }
}
