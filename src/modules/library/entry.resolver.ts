// Nested fields of libraries, entries and files, all through the request's loaders. The roots are
// the plain rows of library.read.ts; the entity classes give the GraphQL types.
import { Arg, Ctx, FieldResolver, Int, Resolver, Root, UseMiddleware } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { invalidParameter } from '../../graphql/errors';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { SmartCategory, SmartFilter, SmartFolder, SmartTag } from './taxonomy.entity';
import { SmartEntryPage } from './library.types';
import { LIMITS } from './library.limits';
import { entryPage, type EntryContents, type EntryRow, type FileRow, type LibraryRow } from './library.read';

@Resolver(() => SmartLibrary)
@UseMiddleware(ServiceBoundary('WSSmartLibraryServiceException'))
export class SmartLibraryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the library's company." })
  companyId(@Root() library: LibraryRow): number {
    return library.companyId;
  }

  @FieldResolver(() => Int, { nullable: true, description: "Id of the library's team, when it belongs to one." })
  teamId(@Root() library: LibraryRow): number | null {
    return library.teamId;
  }

  @FieldResolver(() => SmartEntryPage, { description: "The library's entries, newest first, one page at a time." })
  async entries(
    @Root() library: LibraryRow,
    @Ctx() ctx: Context,
    @Arg('pageNum', () => Int, { defaultValue: 1, description: 'Page, from 1.' }) pageNum: number,
    @Arg('pageSize', () => Int, { defaultValue: LIMITS.defaultPageSize, description: `Entries per page, 1 to ${LIMITS.maxPageSize}.` })
    pageSize: number,
  ): Promise<SmartEntryPage> {
    if (pageNum < 1) throw invalidParameter('pageNum', 'pageNum starts at 1.');
    if (pageSize < 1 || pageSize > LIMITS.maxPageSize)
      throw invalidParameter('pageSize', `pageSize must be from 1 to ${LIMITS.maxPageSize}.`);
    const { items, totalCount } = await entryPage(ctx.em, library.smartLibId, pageSize, (pageNum - 1) * pageSize);
    // The lists came with the page: the entries' list fields find them in the loader.
    for (const { entry, contents } of items) ctx.loaders.smartEntryContents.prime(entry.smartEntryId, contents);
    return { items: items.map((i) => i.entry), totalCount, pageNum, pageSize };
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
@UseMiddleware(ServiceBoundary('WSSmartLibraryServiceException'))
export class SmartEntryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the entry's library." })
  smartLibId(@Root() entry: EntryRow): number {
    return entry.smartLibId;
  }

  @FieldResolver(() => [SmartFile], { description: "The entry's files: OUF (original) then THMB (tile)." })
  async smartFiles(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<EntryContents['files']> {
    return (await ctx.loaders.smartEntryContents.load(entry.smartEntryId)).files;
  }

  @FieldResolver(() => [SmartCategory], { description: 'Categories of the entry.' })
  async smartEntryCategories(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<EntryContents['categories']> {
    return (await ctx.loaders.smartEntryContents.load(entry.smartEntryId)).categories;
  }

  @FieldResolver(() => [SmartEntryUrl], { description: 'Named links of the entry.' })
  async smartEntryURLs(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<EntryContents['urls']> {
    return (await ctx.loaders.smartEntryContents.load(entry.smartEntryId)).urls;
  }

  @FieldResolver(() => [SmartTag], { description: 'Tags of the entry.' })
  async smartEntryTags(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<EntryContents['tags']> {
    return (await ctx.loaders.smartEntryContents.load(entry.smartEntryId)).tags;
  }

  @FieldResolver(() => [SmartFolder], { description: 'Folders the entry is in.' })
  async smartEntryFolders(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<EntryContents['folders']> {
    return (await ctx.loaders.smartEntryContents.load(entry.smartEntryId)).folders;
  }

  @FieldResolver(() => [SmartFilter], { description: 'Filters of the entry.' })
  async smartEntryFilters(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<EntryContents['filters']> {
    return (await ctx.loaders.smartEntryContents.load(entry.smartEntryId)).filters;
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
