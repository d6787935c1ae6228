// Company.smartLibraries: the graph's way from a company into its libraries (docs/api/graph.md),
// under the rule of Query.smartLibrary (library.service.ts readableBy: publishers, the company's
// ADMINs, the team's members, and, for a library of no team, users with an accepted connection to
// the company). One statement for any number of companies; the rows prime the readableLibraries
// loader, so SmartEntry.library of their entries costs none.
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { Company } from '../company';
import { referenceViewer } from '../user';
import { SmartLibrary } from './library.entity';
import type { LibraryRow } from './library.sql';

@Resolver(() => Company)
@ServiceBoundary('WSSmartLibraryServiceException')
export class CompanyLibrariesResolver {
  @FieldResolver(() => [SmartLibrary], {
    description:
      "The company's libraries the caller may read (as smartLibrary: publishers, the company's ADMINs, the team's members and, for a library of no team, accepted connections), by name. Empty for the router's token, which reads no library.",
  })
  async smartLibraries(@Root() company: Pick<Company, 'companyId'>, @Ctx() ctx: Context): Promise<LibraryRow[]> {
    const viewer = await referenceViewer(ctx);
    if (viewer.kind !== 'user') return [];
    return ctx.loaders.companyLibraries(viewer.user.uId).load(company.companyId);
  }
}
