// Per-request loaders of the library: every nested list of an entry (files, links, tags,
// folders, filters, categories) is one statement for any number of entries, all lists together.
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { keyed, once } from '../../core/loaders';
import { readableLibrariesLoader } from './library.access';
import { entriesByIds, entryContents, type EntryContents, type EntryRow } from './library.read';
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

export function createLibraryLoaders(em: EntityManager) {
  const libraryIds = (ids: readonly number[]) => ({ library: { $in: [...ids] } });
  return {
    /** Per user, the libraries they may read, with the library (library.access.ts). */
    readableLibraries: keyed((userId: number) => readableLibrariesLoader(em, userId)),
    /** The uploader admitted for this request (upload.service.ts admitUpload): checked once. */
    uploadAdmission: once<number>(),
    /** Entries by id (plain rows, library.read.ts). */
    smartEntry: new DataLoader<number, EntryRow | null>((ids) => entriesByIds(em, ids)),
    /** Every nested list of an entry (files, links, tags, folders, filters, categories): one statement for a page. */
    smartEntryContents: new DataLoader<number, EntryContents>((ids) => entryContents(em, ids)),
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
