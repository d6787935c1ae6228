// Read models of the library (docs/development.md, "Reads and writes"): libraries, pages of
// entries, an entry's lists, a file to download, as rows of their entities (library.sql.ts). The
// entity classes stay the GraphQL object types and the write model; nothing here builds an
// entity. The library page over GraphQL is two statements whatever its size (after the caller's
// own): the library with the caller's right to read it, and the page with its total and every
// nested list of its entries; pages of many libraries (SmartLibrary.entries under
// Company.smartLibraries) share that one statement.
import type { EntityManager } from '@mikro-orm/core';
import { intArray } from '../../db/sql';
import type { Windowed } from '../../db/keyset';
import { encodeCursor, pagesByGroup, type InstantKeyed, type ConnectionPage, type PageRequest } from '../../graphql/connection';
import {
  companyLibraries,
  ENTRY_KEY,
  entriesById,
  entryContents as contentsOf,
  entryWindowAll,
  entryWindowInFolder,
  entryWindowInFolderWithTag,
  entryWindowWithTag,
  filesWithEntry,
  librariesFor,
  userLibraries,
} from './library.queries';
import {
  contentsMapper,
  entryMapper,
  type EntryContents,
  type EntryRow,
  type FileRow,
  type LibraryRow,
  type SelectedContents,
  type SelectedEntry,
} from './library.sql';

export { ENTRY_ORDER } from './library.queries';

/** Each library (in key order) with whether the user may read it; null when there is no such library. */
export async function librariesReadableBy(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<({ library: LibraryRow; readable: boolean } | null)[]> {
  const rows = await librariesFor.run(em, { userId, ids: intArray(ids) });
  const byId = new Map(rows.map(({ readable, ...library }) => [library.smartLibId, { library, readable }]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** For each company (in key order), its libraries the user may read, by name: one statement for any number of companies. */
export async function companyLibrariesReadableBy(
  em: EntityManager,
  userId: number,
  companyIds: readonly number[],
): Promise<LibraryRow[][]> {
  const byCompany = new Map<number, LibraryRow[]>(companyIds.map((id) => [id, []]));
  for (const row of await companyLibraries.run(em, { userId, companyIds: intArray(companyIds) })) byCompany.get(row.company)?.push(row);
  return companyIds.map((id) => byCompany.get(id)!);
}

/** For each user (in key order), every library they may read, by name. */
export async function librariesOfReaders(em: EntityManager, userIds: readonly number[]): Promise<LibraryRow[][]> {
  const byUser = new Map<number, LibraryRow[]>(userIds.map((id) => [id, []]));
  for (const { _user, ...library } of await userLibraries.run(em, { userIds: intArray(userIds) })) byUser.get(_user)?.push(library);
  return userIds.map((id) => byUser.get(id)!);
}

export async function entriesByIds(em: EntityManager, ids: readonly number[]): Promise<(EntryRow | null)[]> {
  const byId = new Map((await entriesById.run(em, { ids: intArray(ids) })).map((e) => [e.smartEntryId, e]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The name of the entries' cursors (a cursor of another list is refused). */
export const ENTRY_LIST = 'SmartLibrary.entries';

/** Which entries of a library a page lists: all, or only those in a folder and/or with a tag (by nameKey). */
export interface EntryFilter {
  folderId: number | null;
  tagKey: string | null;
}

/** An entry of a page with its nested lists (read with the page, for the loader of the lists). */
export interface EntryWithContents {
  entry: EntryRow;
  contents: EntryContents;
}

/** A row of the window: the entry and its lists, its order key, and the window's own columns (its library's total, its place). */
type WindowRow = Windowed<SelectedEntry & InstantKeyed & { [ENTRY_KEY]: number }>;

const entryCursor = (row: WindowRow) => encodeCursor(ENTRY_LIST, [String(row._us), row[ENTRY_KEY]]);

/**
 * A page of entries of each library (in key order), newest first, each entry with its nested lists
 * and each page with its library's count of matching entries (the kept count when nothing is
 * filtered): one statement for any number of libraries (the window picks the first `first + 1`
 * entries of each library after the cursor, or the last `last + 1` before it; the entries' rows
 * and lists are built for those only).
 */
export async function entryPages(
  em: EntityManager,
  smartLibIds: readonly number[],
  request: PageRequest,
  filter: EntryFilter,
): Promise<ConnectionPage<EntryWithContents>[]> {
  const folder = filter.folderId !== null;
  const tag = filter.tagKey !== null;
  const window = folder ? (tag ? entryWindowInFolderWithTag : entryWindowInFolder) : tag ? entryWindowWithTag : entryWindowAll;
  const rows = (await window.run(em, smartLibIds, { folderId: filter.folderId ?? 0, tagKey: filter.tagKey ?? '' }, request)) as WindowRow[];
  return pagesByGroup(smartLibIds, rows, request, entryCursor, entryMapper(em));
}

/** Every nested list of each entry (in key order): one statement for any number of entries, one row per entry. */
export async function entryContents(em: EntityManager, ids: readonly number[]): Promise<EntryContents[]> {
  const rows = (await contentsOf.run(em, { ids: intArray(ids) })) as unknown as (SelectedContents & { _entry: number })[];
  const mapContents = contentsMapper(em);
  const byId = new Map(rows.map((row) => [row._entry, mapContents(row)]));
  return ids.map((id) => byId.get(id)!);
}

/** A file with what deciding its download needs besides its own row: whether readers may have its entry's original. */
export type DownloadRow = FileRow & Pick<EntryRow, 'smartEntryDownloadOrig'>;

/** Each file (in key order) with its entry's download rule; null when there is no such file. */
export async function filesForDownload(em: EntityManager, ids: readonly number[]): Promise<(DownloadRow | null)[]> {
  const byId = new Map((await filesWithEntry.run(em, { ids: intArray(ids) })).map((f) => [f.smartFileId, f]));
  return ids.map((id) => byId.get(id) ?? null);
}
