// The graph's ways into the libraries (docs/api/graph.md): Company.smartLibraries and
// User.smartLibraries, each under the rule of Query.smartLibrary (library.service.ts readableBy:
// publishers, the company's ADMINs, the team's members, and, for a library of no team, users with
// an accepted connection to the company). One statement for any number of companies (or users);
// the rows prime the readableLibraries loader, so SmartEntry.library of their entries costs none.
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { Company } from '../company';
import { referenceViewer, requireOwnUser, UserProfile } from '../user';
import { SmartLibrary } from './library.entity';
import type { LibraryRow } from './library.read';

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

@Resolver(() => UserProfile)
@ServiceBoundary('WSSmartLibraryServiceException')
export class UserLibrariesResolver {
  @FieldResolver(() => [SmartLibrary], {
    description:
      "Every library the user may read, of any company (as smartLibrary), by name. The caller's own only: another user's is WSInsufficientPrivilegesException.",
  })
  async smartLibraries(@Root() user: Pick<UserProfile, 'uId'>, @Ctx() ctx: Context): Promise<LibraryRow[]> {
    return ctx.loaders.librariesOfReader.load(await requireOwnUser(ctx, user, 'libraries'));
  }
}
