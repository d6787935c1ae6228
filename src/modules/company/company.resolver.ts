// Computed fields of the Company federation entity and its reference resolver. Criteria and
// identifier definitions come through the request's DataLoaders, so a list of companies costs
// two statements for all of them.
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { Company, companyAtMost } from './company.entity';
import { fileUrl } from './company.urls';
import { countryName, stateName } from '../reference-data';
import { ServiceError } from '../../core/errors';
import { isDependencyFailure } from '../../core/error-mapping';
import { referenceViewer } from '../user';

@Resolver(() => Company)
export class CompanyResolver {
  @FieldResolver(() => String, { nullable: true, description: `Long name of the ISO 3166-2 state. ${companyAtMost('companyState')}` })
  companyState(@Root() company: Company): string | null {
    return company.companyCountryCode && company.companyStateCode ? stateName(company.companyCountryCode, company.companyStateCode) : null;
  }

  @FieldResolver(() => String, { nullable: true, description: `Long name of the country. ${companyAtMost('companyCountry')}` })
  companyCountry(@Root() company: Company): string | null {
    return company.companyCountryCode ? countryName(company.companyCountryCode) : null;
  }

  @FieldResolver(() => String, {
    name: 'companyBannerURL',
    nullable: true,
    description: 'Unsigned URL of the criteria variant of the banner.',
  })
  companyBannerURL(@Root() company: Company, @Ctx() ctx: Context): string | null {
    return fileUrl(ctx.config.publicBaseUrl, company.bannerKey);
  }

  @FieldResolver(() => String, { name: 'companyLogoURL', nullable: true, description: 'Unsigned URL of the default logo.' })
  companyLogoURL(@Root() company: Company, @Ctx() ctx: Context): string | null {
    return fileUrl(ctx.config.publicBaseUrl, company.logoKey);
  }
}

/**
 * Federation: another subgraph's reference to a Company, batched per request (one statement
 * for every representation, visibility included: company.reference.ts).
 * Rule, following the root operations:
 *   user token      an active company that is not a hidden wall; a hidden or inactive one only
 *                   when the user has a connection with it (any status, as myConnections
 *                   lists it) or is its ADMIN (as companyConnections allows);
 *   federation key  an active company that is not a hidden wall (no root operation shows the
 *                   router anything else);
 *   no credential   null, with WSInvalidAuthTokenException (no root operation reads a company
 *                   anonymously).
 * Unknown ids, and every company the caller may not see, are null without an error.
 */
export async function resolveCompanyReference(ref: { companyId: number | string }, ctx: Context): Promise<Company | null> {
  try {
    const viewer = await referenceViewer(ctx);
    const companyId = Number(ref.companyId);
    if (!Number.isInteger(companyId) || Math.abs(companyId) > 0x7fffffff) return null; // not a PostgreSQL integer: unknown
    return await ctx.loaders.visibleCompanies(viewer.kind === 'user' ? viewer.user.uId : null).load(companyId);
  } catch (err) {
    // Outside type-graphql, so ServiceBoundary does not apply: the same rule by hand.
    if (!(err instanceof ServiceError) && isDependencyFailure(err))
      throw new ServiceError('WSDiscoverableServiceException', undefined, { cause: err });
    throw err;
  }
}

/**
 * A company reached through an edge of the graph (Event.company, SmartLibrary.company,
 * SmartDirectory.company, ...): the same rule as a federation reference (resolveCompanyReference),
 * so a hidden wall or an inactive company is reached only by a user tied to it (a connection of any
 * status, or its ADMIN). Null for every other company. Batched: one statement per request for all
 * the companies the request's edges reach.
 */
export async function visibleCompany(ctx: Context, companyId: number): Promise<Company | null> {
  const viewer = await referenceViewer(ctx);
  return ctx.loaders.visibleCompanies(viewer.kind === 'user' ? viewer.user.uId : null).load(companyId);
}
