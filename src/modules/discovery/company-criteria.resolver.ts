// A company's discovery criteria and the identifier definitions they reference, as fields of
// Company: the discovery module adds them, so the company module knows nothing of discovery.
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { Company } from '../company';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition } from './identifier.entity';

/** Definitions referenced by the criteria, each once, in id order; undefined ids are skipped. */
export async function definitionsOf(ctx: Context, criteria: DiscoveryCriterion[]): Promise<IdentifierDefinition[]> {
  const ids = [...new Set(criteria.flatMap((c) => c.identifiers))].sort((a, b) => a - b);
  const defs = await ctx.loaders.identifierDefinitionById.loadMany(ids);
  return defs.filter((d): d is IdentifierDefinition => d instanceof IdentifierDefinition);
}

@Resolver(() => Company)
export class CompanyCriteriaResolver {
  @FieldResolver(() => [DiscoveryCriterion], { description: 'Discovery criteria of the company, in id order.' })
  criteria(@Root() company: Company, @Ctx() ctx: Context): Promise<DiscoveryCriterion[]> {
    return ctx.loaders.criteriaByCompany.load(company.companyId);
  }

  @FieldResolver(() => [IdentifierDefinition], {
    description: 'Definitions of the identifiers the criteria reference, each once, in id order.',
  })
  async identifierDefinitions(@Root() company: Company, @Ctx() ctx: Context): Promise<IdentifierDefinition[]> {
    return definitionsOf(ctx, await ctx.loaders.criteriaByCompany.load(company.companyId));
  }
}
