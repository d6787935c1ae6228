// Nested fields of libraries, entries and files, all through the request's loaders.
import { Arg, Ctx, FieldResolver, Int, Resolver, Root, UseMiddleware } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { invalidParameter } from '../../graphql/errors';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { SmartCategory, SmartFilter, SmartFolder, SmartTag } from './taxonomy.entity';
import { SmartEntryPage } from './library.types';
import { LIMITS } from './library.limits';

@Resolver(() => SmartLibrary)
@UseMiddleware(ServiceBoundary('WSSmartLibraryServiceException'))
export class SmartLibraryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the library's company." })
  companyId(@Root() library: SmartLibrary): number {
    return library.company.companyId;
  }

  @FieldResolver(() => Int, { nullable: true, description: "Id of the library's team, when it belongs to one." })
  teamId(@Root() library: SmartLibrary): number | null {
    return library.team?.teamId ?? null;
  }

  @FieldResolver(() => SmartEntryPage, { description: "The library's entries, newest first, one page at a time." })
  async entries(
    @Root() library: SmartLibrary,
    @Ctx() ctx: Context,
    @Arg('pageNum', () => Int, { defaultValue: 1, description: 'Page, from 1.' }) pageNum: number,
    @Arg('pageSize', () => Int, { defaultValue: LIMITS.defaultPageSize, description: `Entries per page, 1 to ${LIMITS.maxPageSize}.` })
    pageSize: number,
  ): Promise<SmartEntryPage> {
    if (pageNum < 1) throw invalidParameter('pageNum', 'pageNum starts at 1.');
    if (pageSize < 1 || pageSize > LIMITS.maxPageSize)
      throw invalidParameter('pageSize', `pageSize must be from 1 to ${LIMITS.maxPageSize}.`);
    const [items, totalCount] = await ctx.em.findAndCount(
      SmartEntry,
      { library },
      { orderBy: { smartEntryCreated: 'desc', smartEntryId: 'desc' }, limit: pageSize, offset: (pageNum - 1) * pageSize },
    );
    return { items, totalCount, pageNum, pageSize };
  }

  @FieldResolver(() => [SmartTag], { description: 'Every tag of the library, by name.' })
  smartTags(@Root() library: SmartLibrary, @Ctx() ctx: Context): Promise<SmartTag[]> {
    return ctx.loaders.libraryTags.load(library.smartLibId);
  }

  @FieldResolver(() => [SmartFolder], { description: 'Every folder of the library, by name.' })
  smartFolders(@Root() library: SmartLibrary, @Ctx() ctx: Context): Promise<SmartFolder[]> {
    return ctx.loaders.libraryFolders.load(library.smartLibId);
  }

  @FieldResolver(() => [SmartFilter], { description: 'Every filter of the library, by name.' })
  smartFilters(@Root() library: SmartLibrary, @Ctx() ctx: Context): Promise<SmartFilter[]> {
    return ctx.loaders.libraryFilters.load(library.smartLibId);
  }

  @FieldResolver(() => [SmartCategory], { description: 'Every category of the library, by name.' })
  smartCategories(@Root() library: SmartLibrary, @Ctx() ctx: Context): Promise<SmartCategory[]> {
    return ctx.loaders.libraryCategories.load(library.smartLibId);
  }
}

@Resolver(() => SmartEntry)
@UseMiddleware(ServiceBoundary('WSSmartLibraryServiceException'))
export class SmartEntryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the entry's library." })
  smartLibId(@Root() entry: SmartEntry): number {
    return entry.library.smartLibId;
  }

  @FieldResolver(() => [SmartFile], { description: "The entry's files: OUF (original) then THMB (tile)." })
  smartFiles(@Root() entry: SmartEntry, @Ctx() ctx: Context): Promise<SmartFile[]> {
    return ctx.loaders.smartEntryFiles.load(entry.smartEntryId);
  }

  @FieldResolver(() => [SmartCategory], { description: 'Categories of the entry.' })
  smartEntryCategories(@Root() entry: SmartEntry, @Ctx() ctx: Context): Promise<SmartCategory[]> {
    return ctx.loaders.smartEntryCategories.load(entry.smartEntryId);
  }

  @FieldResolver(() => [SmartEntryUrl], { description: 'Named links of the entry.' })
  smartEntryURLs(@Root() entry: SmartEntry, @Ctx() ctx: Context): Promise<SmartEntryUrl[]> {
    return ctx.loaders.smartEntryUrls.load(entry.smartEntryId);
  }

  @FieldResolver(() => [SmartTag], { description: 'Tags of the entry.' })
  smartEntryTags(@Root() entry: SmartEntry, @Ctx() ctx: Context): Promise<SmartTag[]> {
    return ctx.loaders.smartEntryTags.load(entry.smartEntryId);
  }

  @FieldResolver(() => [SmartFolder], { description: 'Folders the entry is in.' })
  smartEntryFolders(@Root() entry: SmartEntry, @Ctx() ctx: Context): Promise<SmartFolder[]> {
    return ctx.loaders.smartEntryFolders.load(entry.smartEntryId);
  }

  @FieldResolver(() => [SmartFilter], { description: 'Filters of the entry.' })
  smartEntryFilters(@Root() entry: SmartEntry, @Ctx() ctx: Context): Promise<SmartFilter[]> {
    return ctx.loaders.smartEntryFilters.load(entry.smartEntryId);
  }
}

@Resolver(() => SmartFile)
export class SmartFileFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the file's entry." })
  smartEntryId(@Root() file: SmartFile): number {
    return file.entry.smartEntryId;
  }

  @FieldResolver(() => String, { description: 'Where the file is downloaded (GET, with x-service-authtoken).' })
  downloadUrl(@Root() file: SmartFile, @Ctx() ctx: Context): string {
    return `${ctx.config.publicBaseUrl}/rest/smartlib/files/${file.smartFileId}/content`;
  }
}
