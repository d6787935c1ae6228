// Per-request loaders of the library: every nested list of an entry (files, links, tags,
// folders, filters, categories) is one statement for any number of entries.
import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/core';
import { SmartEntry, SmartLibrary } from './library.entity';
import { keyed, once } from '../../core/loaders';
import { readableLibrariesLoader } from './library.access';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import {
  SmartCategory,
  SmartEntryCategory,
  SmartEntryFilter,
  SmartEntryFolder,
  SmartEntryTag,
  SmartFilter,
  SmartFolder,
  SmartTag,
} from './taxonomy.entity';

function byKey<T>(rows: T[], keys: readonly number[], keyOf: (row: T) => number): (T | null)[] {
  const map = new Map(rows.map((r) => [keyOf(r), r]));
  return keys.map((k) => map.get(k) ?? null);
}

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
  const entryIds = (ids: readonly number[]) => ({ entry: { $in: [...ids] } });
  const libraryIds = (ids: readonly number[]) => ({ library: { $in: [...ids] } });
  return {
    /** Which libraries a user may read, per user (library.access.ts). */
    readableLibraries: keyed((userId: number) => readableLibrariesLoader(em, userId)),
    /** The uploader admitted for this request (upload.service.ts admitUpload): checked once. */
    uploadAdmission: once<number>(),
    smartLibrary: new DataLoader<number, SmartLibrary | null>(async (ids) =>
      byKey(await em.find(SmartLibrary, { smartLibId: { $in: [...ids] } }), ids, (l) => l.smartLibId),
    ),
    smartEntry: new DataLoader<number, SmartEntry | null>(async (ids) =>
      byKey(await em.find(SmartEntry, { smartEntryId: { $in: [...ids] } }), ids, (e) => e.smartEntryId),
    ),
    /** OUF before THMB. */
    smartEntryFiles: new DataLoader<number, SmartFile[]>(async (ids) =>
      grouped(
        await em.find(SmartFile, entryIds(ids), { orderBy: { smartFileType: 'asc', smartFileId: 'asc' } }),
        ids,
        (f) => f.entry.smartEntryId,
      ),
    ),
    smartEntryUrls: new DataLoader<number, SmartEntryUrl[]>(async (ids) =>
      grouped(await em.find(SmartEntryUrl, entryIds(ids), { orderBy: { position: 'asc' } }), ids, (u) => u.entry.smartEntryId),
    ),
    smartEntryTags: new DataLoader<number, SmartTag[]>(async (ids) =>
      grouped(
        await em.find(SmartEntryTag, entryIds(ids), { populate: ['tag'], orderBy: { position: 'asc' } }),
        ids,
        (l) => l.entry.smartEntryId,
        (l) => l.tag,
      ),
    ),
    smartEntryFolders: new DataLoader<number, SmartFolder[]>(async (ids) =>
      grouped(
        await em.find(SmartEntryFolder, entryIds(ids), { populate: ['folder'], orderBy: { position: 'asc' } }),
        ids,
        (l) => l.entry.smartEntryId,
        (l) => l.folder,
      ),
    ),
    smartEntryFilters: new DataLoader<number, SmartFilter[]>(async (ids) =>
      grouped(
        await em.find(SmartEntryFilter, entryIds(ids), { populate: ['filter'], orderBy: { position: 'asc' } }),
        ids,
        (l) => l.entry.smartEntryId,
        (l) => l.filter,
      ),
    ),
    smartEntryCategories: new DataLoader<number, SmartCategory[]>(async (ids) =>
      grouped(
        await em.find(SmartEntryCategory, entryIds(ids), { populate: ['category'], orderBy: { position: 'asc' } }),
        ids,
        (l) => l.entry.smartEntryId,
        (l) => l.category,
      ),
    ),
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
