// The fields of SmartEntry that are not its own columns: its library (and the library's id), and
// the lists under it (files, categories, links, tags, folders, filters), at once when the entry's
// page brought them (most reads), else through the request's loader. The roots are entry rows
// (library.sql.ts).
import { Ctx, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import type { Context } from '../../context';
import { ServiceBoundary } from '../../graphql/service-boundary';
import { ServiceError } from '../../core/errors';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { SmartCategory, SmartFilter, SmartFolder, SmartTag } from './taxonomy.entity';
import type { EntryContents, EntryRow, LibraryRow } from './library.sql';
import { readableLibrary } from './library.access';

type Answer<T> = T | Promise<T>;

/** One of an entry's lists: at once when its page brought them (most reads), else through the loader. */
function contentsOf<K extends keyof EntryContents>(ctx: Context, entry: EntryRow, key: K): Answer<EntryContents[K]> {
  const contents = ctx.loaders.smartEntryContents.now(entry.smartEntryId);
  return contents instanceof Promise ? contents.then((c) => c[key]) : contents[key];
}

@Resolver(() => SmartEntry)
@ServiceBoundary('WSSmartLibraryServiceException')
export class SmartEntryFieldsResolver {
  @FieldResolver(() => Int, { description: "Id of the entry's library." })
  smartLibId(@Root() entry: EntryRow): number {
    return entry.library;
  }

  @FieldResolver(() => SmartLibrary, { description: "The entry's library (whoever reads an entry reads its library)." })
  async library(@Root() entry: EntryRow, @Ctx() ctx: Context): Promise<LibraryRow> {
    const library = await readableLibrary(ctx, entry.library);
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
