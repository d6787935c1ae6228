// The fields of SmartLibrary that are not its own columns: its company and team ids, its entries
// (a cursor connection, through the request's loaders), its company, and its terms. The roots are
// library rows (library.sql.ts).
import { Args, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { pageRequest, type ConnectionPage } from '../../graphql/connection';
import { Company, visibleCompany } from '../company';
import { SmartLibrary } from './library.entity';
import { SmartCategory, SmartFilter, SmartFolder, SmartTag } from './taxonomy.entity';
import { SmartEntriesArgs, SmartEntryConnection } from './library.types';
import { ENTRY_LIST, ENTRY_ORDER } from './library.read';
import type { EntryRow, LibraryRow } from './library.sql';
import { entryPagesKey } from './library.loaders';
import { nameKey } from './library.service';

@Resolver(() => SmartLibrary)
@ServiceBoundary('WSSmartLibraryServiceException')
export class SmartLibraryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the library's company." })
  companyId(@Root() library: LibraryRow): number {
    return library.company;
  }

  @FieldResolver(() => Int, { nullable: true, description: "Id of the library's team, when it belongs to one." })
  teamId(@Root() library: LibraryRow): number | null {
    return library.team;
  }

  @FieldResolver(() => SmartEntryConnection, {
    description:
      "The library's entries, newest first (a cursor connection), optionally only those in a folder and/or with a tag. Under many libraries, one statement per argument set.",
  })
  async entries(@Root() library: LibraryRow, @Ctx() ctx: Context, @Args() args: SmartEntriesArgs): Promise<ConnectionPage<EntryRow>> {
    const request = pageRequest(ENTRY_LIST, ENTRY_ORDER, args);
    // Only a reader reaches a library: its row answers SmartEntry.library of these entries.
    const { user } = await ctx.auth.requireUser();
    ctx.loaders.readableLibraries(user.uId).prime(library.smartLibId, library);
    const tagName = args.tagName ?? null;
    const filter = { folderId: args.folderId ?? null, tagKey: tagName === null ? null : nameKey(tagName) };
    return ctx.loaders.smartEntryPages(entryPagesKey({ request, filter })).load(library.smartLibId);
  }

  @FieldResolver(() => Company, {
    nullable: true,
    description:
      "The library's company: null when the caller may not see it (a hidden wall or an inactive company is seen only by its connections and ADMINs).",
  })
  company(@Root() library: LibraryRow, @Ctx() ctx: Context): Promise<Company | null> {
    return visibleCompany(ctx, library.company);
  }

  @FieldResolver(() => [SmartTag], { description: 'Every tag of the library, by name.' })
  smartTags(@Root() library: LibraryRow, @Ctx() ctx: Context): Promise<SmartTag[]> {
    return ctx.loaders.libraryTags.load(library.smartLibId);
  }

  @FieldResolver(() => [SmartFolder], { description: 'Every folder of the library, by name.' })
  smartFolders(@Root() library: LibraryRow, @Ctx() ctx: Context): Promise<SmartFolder[]> {
    return ctx.loaders.libraryFolders.load(library.smartLibId);
  }

  @FieldResolver(() => [SmartFilter], { description: 'Every filter of the library, by name.' })
  smartFilters(@Root() library: LibraryRow, @Ctx() ctx: Context): Promise<SmartFilter[]> {
    return ctx.loaders.libraryFilters.load(library.smartLibId);
  }

  @FieldResolver(() => [SmartCategory], { description: 'Every category of the library, by name.' })
  smartCategories(@Root() library: LibraryRow, @Ctx() ctx: Context): Promise<SmartCategory[]> {
    return ctx.loaders.libraryCategories.load(library.smartLibId);
  }
}
