// Per-request loaders of the library: every nested list of an entry (files, links, tags,
// folders, filters, categories) is one statement for any number of entries, all lists together;
// pages of entries are one statement for any number of libraries (per argument set), and the
// libraries of any number of companies one statement per reader. What a loader reads that another
// loader answers (a page's lists, a company's readable libraries) primes that loader.
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { keyed, once, PrimedLoader } from '../../core/loaders';
import { readableLibrariesLoader } from './library.access';
import type { ConnectionPage, PageRequest } from '../../graphql/connection';
import {
  companyLibrariesReadableBy,
  entriesByIds,
  entryContents,
  entryPages,
  filesForDownload,
  librariesOfReaders,
  type DownloadRow,
  type EntryFilter,
} from './library.read';
import type { EntryContents, EntryRow, LibraryRow } from './library.sql';
import { SmartCategory, SmartFilter, SmartFolder, SmartTag } from './taxonomy.entity';

function grouped<T, V = T>(
  rows: T[],
  keys: readonly number[],
  keyOf: (row: T) => number,
  value: (row: T) => V = (r) => r as unknown as V,
): V[][] {
  const map = new Map<number, V[]>(keys.map((k) => [k, []]));
  for (const r of rows) map.get(keyOf(r))?.push(value(r));
  return keys.map((k) => map.get(k)!);
}

/** The arguments of one page of entries per library, as the key of its loader (entryPagesKey). */
export interface EntryPageArgs {
  request: PageRequest;
  filter: EntryFilter;
}

/** The key of the entry pages loader of these arguments: equal arguments share one loader, so one statement. */
export const entryPagesKey = (args: EntryPageArgs): string => JSON.stringify(args);

export function createLibraryLoaders(em: EntityManager) {
  const libraryIds = (ids: readonly number[]) => ({ library: { $in: [...ids] } });
  /** Per user, the libraries they may read, with the library (library.access.ts). */
  const readableLibraries = keyed((userId: number) => readableLibrariesLoader(em, userId));
  /**
   * Every nested list of an entry (files, links, tags, folders, filters, categories): one statement
   * for a page; a page's entries come with theirs, read at once (`now`).
   */
  const smartEntryContents = new PrimedLoader<number, EntryContents>((ids) => entryContents(em, ids));
  /** Entries by id (rows of SmartEntry, library.read.ts). */
  const smartEntry = new DataLoader<number, EntryRow | null>((ids) => entriesByIds(em, ids));
  /** Libraries a user may read, in hand: the readableLibraries loader answers them without a statement. */
  const primeReadable = (userId: number, libraries: LibraryRow[][]) => {
    const loader = readableLibraries(userId);
    for (const list of libraries) for (const library of list) loader.prime(library.smartLibId, library);
    return libraries;
  };
  return {
    readableLibraries,
    /**
     * Per argument set (entryPagesKey), a page of each library's entries, newest first: one
     * statement for any number of libraries; the entries and their lists prime smartEntry and
     * smartEntryContents, so the entries' fields cost nothing more.
     */
    smartEntryPages: keyed(
      (key: string) =>
        new DataLoader<number, ConnectionPage<EntryRow>>(async (ids) => {
          const { request, filter } = JSON.parse(key) as EntryPageArgs;
          const pages = await entryPages(em, ids, request, filter);
          return pages.map((page) => ({
            ...page,
            edges: page.edges.map(({ cursor, node: { entry, contents } }) => {
              smartEntry.prime(entry.smartEntryId, entry);
              smartEntryContents.prime(entry.smartEntryId, contents);
              return { cursor, node: entry };
            }),
          }));
        }),
    ),
    /** Per reader, each company's libraries they may read, by name (Company.smartLibraries). */
    companyLibraries: keyed(
      (userId: number) =>
        new DataLoader<number, LibraryRow[]>(async (companyIds) =>
          primeReadable(userId, await companyLibrariesReadableBy(em, userId, companyIds)),
        ),
    ),
    /** Every library each user may read, by name (User.smartLibraries). */
    librariesOfReader: new DataLoader<number, LibraryRow[]>(async (userIds) => {
      const lists = await librariesOfReaders(em, userIds);
      userIds.forEach((userId, i) => primeReadable(userId, [lists[i]]));
      return lists;
    }),
    /**
     * Files with their entry's download rule, by id: read once per request, by Query.smartFile,
     * and answered again from here to the download that streams the file's bytes (download.service.ts).
     */
    smartFileDownload: new DataLoader<number, DownloadRow | null>((ids) => filesForDownload(em, ids)),
    /** The uploader admitted for this request (upload.service.ts admitUpload): checked once. */
    uploadAdmission: once<number>(),
    smartEntry,
    smartEntryContents,
    libraryTags: new DataLoader<number, SmartTag[]>(async (ids) =>
      grouped(await em.find(SmartTag, libraryIds(ids), { orderBy: { smartTagName: 'asc' } }), ids, (t) => t.library.smartLibId),
    ),
    libraryFolders: new DataLoader<number, SmartFolder[]>(async (ids) =>
      grouped(await em.find(SmartFolder, libraryIds(ids), { orderBy: { smartFolderName: 'asc' } }), ids, (t) => t.library.smartLibId),
    ),
    libraryFilters: new DataLoader<number, SmartFilter[]>(async (ids) =>
      grouped(await em.find(SmartFilter, libraryIds(ids), { orderBy: { smartFilterName: 'asc' } }), ids, (t) => t.library.smartLibId),
    ),
    libraryCategories: new DataLoader<number, SmartCategory[]>(async (ids) =>
      grouped(await em.find(SmartCategory, libraryIds(ids), { orderBy: { smartCategoryName: 'asc' } }), ids, (t) => t.library.smartLibId),
    ),
  };
}

declare module '../../context' {
  // This module's loaders on ctx.loaders (src/context.ts).
  interface Loaders extends ReturnType<typeof createLibraryLoaders> {}
}
