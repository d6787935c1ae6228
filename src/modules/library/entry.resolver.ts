// Nested fields of libraries, entries and files, all through the request's loaders. The roots are
// the plain rows of library.read.ts; the entity classes give the GraphQL types.
import { Args, Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError } from '../../graphql/errors';
import { pageRequest, type ConnectionPage } from '../../graphql/connection';
import { Company, visibleCompany } from '../company';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { SmartCategory, SmartFilter, SmartFolder, SmartTag } from './taxonomy.entity';
import { SmartEntriesArgs, SmartEntryConnection } from './library.types';
import { ENTRY_LIST, ENTRY_ORDER, type EntryContents, type EntryRow, type FileRow, type LibraryRow } from './library.read';
import { entryPagesKey } from './library.loaders';
import { readableLibrary } from './library.access';
import { nameKey } from './library.service';

type Answer<T> = T | Promise<T>;

/** One of an entry's lists: at once when its page brought them (most reads), else through the loader. */
function contentsOf<K extends keyof EntryContents>(ctx: Context, entry: EntryRow, key: K): Answer<EntryContents[K]> {
  const contents = ctx.loaders.smartEntryContents.now(entry.smartEntryId);
  return contents instanceof Promise ? contents.then((c) => c[key]) : contents[key];
}

@Resolver(() => SmartLibrary)
@ServiceBoundary('WSSmartLibraryServiceException')
export class SmartLibraryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the library's company." })
  companyId(@Root() library: LibraryRow): number {
    return library.companyId;
  }

  @FieldResolver(() => Int, { nullable: true, description: "Id of the library's team, when it belongs to one." })
  teamId(@Root() library: LibraryRow): number | null {
    return library.teamId;
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
    return visibleCompany(ctx, library.companyId);
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

@Resolver(() => SmartEntry)
@ServiceBoundary('WSSmartLibraryServiceException')
export class SmartEntryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the entry's library." })
  smartLibId(@Root() entry: EntryRow): number {
    return entry.smartLibId;
  }

  @FieldResolver(() => SmartLibrary, { description: "The entry's library (whoever reads an entry reads its library)." })
  async library(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<LibraryRow> {
    const library = await readableLibrary(ctx, entry.smartLibId);
    // Unreachable: an entry is handed out only to readers of its library, and this request decided that already.
    if (!library) throw new ServiceError('WSSmartLibNotFoundException', undefined, { field: 'smartLibId' });
    return library;
  }

  @FieldResolver(() => [SmartFile], { description: "The entry's files: OUF (original) then THMB (tile)." })
  smartFiles(@Root() entry: EntryRow, @Ctx() ctx: Context): Answer<EntryContents['files']> {
    return contentsOf(ctx, entry, 'files');
  }

  @FieldResolver(() => [SmartCategory], { description: 'Categories of the entry.' })
  smartEntryCategories(@Root() entry: EntryRow, @Ctx() ctx: Context): Answer<EntryContents['categories']> {
    return contentsOf(ctx, entry, 'categories');
  }

  @FieldResolver(() => [SmartEntryUrl], { description: 'Named links of the entry.' })
  smartEntryURLs(@Root() entry: EntryRow, @Ctx() ctx: Context): Answer<EntryContents['urls']> {
    return contentsOf(ctx, entry, 'urls');
  }

  @FieldResolver(() => [SmartTag], { description: 'Tags of the entry.' })
  smartEntryTags(@Root() entry: EntryRow, @Ctx() ctx: Context): Answer<EntryContents['tags']> {
    return contentsOf(ctx, entry, 'tags');
  }

  @FieldResolver(() => [SmartFolder], { description: 'Folders the entry is in.' })
  smartEntryFolders(@Root() entry: EntryRow, @Ctx() ctx: Context): Answer<EntryContents['folders']> {
    return contentsOf(ctx, entry, 'folders');
  }

  @FieldResolver(() => [SmartFilter], { description: 'Filters of the entry.' })
  smartEntryFilters(@Root() entry: EntryRow, @Ctx() ctx: Context): Answer<EntryContents['filters']> {
    return contentsOf(ctx, entry, 'filters');
  }
}

@Resolver(() => SmartFile)
export class SmartFileFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the file's entry." })
  smartEntryId(@Root() file: FileRow): number {
    return file.smartEntryId;
  }

  @FieldResolver(() => String, { description: 'Where the file is downloaded (GET, with x-service-authtoken).' })
  downloadUrl(@Root() file: FileRow, @Ctx() ctx: Context): string {
    return `${ctx.config.publicBaseUrl}/rest/smartlib/files/${file.smartFileId}/content`;
  }
}
