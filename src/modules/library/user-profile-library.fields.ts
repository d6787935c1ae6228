// User.smartLibraries (the UserProfile type): the graph's way from a user into every library they
// may read (docs/api/graph.md), under the rule of Query.smartLibrary (library.service.ts
// readableBy). One statement for any number of users; the rows prime the readableLibraries loader,
// so SmartEntry.library of their entries costs none.
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { requireOwnUser, UserProfile } from '../user';
import { SmartLibrary } from './library.entity';
import type { LibraryRow } from './library.sql';

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
