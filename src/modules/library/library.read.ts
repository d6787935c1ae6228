// Read models of the library (docs/development.md, "Reads and writes"): libraries, pages of
// entries, an entry's lists, a file to download, as rows of their entities (library.sql.ts). The
// entity classes stay the GraphQL object types and the write model; nothing here builds an
// entity. The library page over GraphQL is two statements whatever its size (after the caller's
// own): the library with the caller's right to read it, and the page with its total and every
// nested list of its entries; pages of many libraries (SmartLibrary.entries under
// Company.smartLibraries) share that one statement.
import type { EntityManager } from '@mikro-orm/core';
import { intArray, readModel, runSql, tableOf, type NamesOf } from '../../db/lean';
import {
  encodeCursor,
  keysetWindow,
  instantKeyColumns,
  INSTANT_COLUMN,
  pagesByGroup,
  type InstantKeyed,
  type OrderColumn,
  WINDOW_PAGE,
  WINDOW_PARENT,
  type ConnectionPage,
  type PageRequest,
} from '../../graphql/connection';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartFile } from './entry-content.entity';
import { SmartEntryFolder, SmartEntryTag, SmartTag } from './taxonomy.entity';
import { rowJson } from '../../db/rows';
import {
  contentsMapper,
  entryMapper,
  keptEntryCount,
  listColumns,
  type EntryContents,
  type EntryRow,
  type FileRow,
  type LibraryRow,
  type SelectedContents,
  type SelectedEntry,
} from './library.sql';
import { readableBy } from './library.service';

/**
 * Libraries with the user's right to read each (its audience, library.service.ts readableBy):
 * one statement for any number of libraries. Unknown ids have no row.
 */
const librariesFor = readModel<{ library: LibraryRow; readable: boolean }, [number, string], LibraryRow & { readable: boolean }>({
  entity: SmartLibrary,
  sql: (n) => {
    const l = n(SmartLibrary);
    return `select ${l.columns('l')}, ${readableBy(n, 'l', 'u.id')} as readable
      from (select ?::int as id) u, ${l.table} l where l.${l.column('smartLibId')} = any(?::int[])`;
  },
  shape: ({ readable, ...library }) => ({ library, readable }),
});

/** Each library (in key order) with whether the user may read it; null when there is no such library. */
export async function librariesReadableBy(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<({ library: LibraryRow; readable: boolean } | null)[]> {
  const rows = await librariesFor(em, userId, intArray(ids));
  const byId = new Map(rows.map((row) => [row.library.smartLibId, row]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The libraries of the companies that the user may read, by company, then name (and id, for equal names). */
const companyLibraries = readModel<LibraryRow, [number, string]>({
  entity: SmartLibrary,
  sql: (n) => {
    const l = n(SmartLibrary);
    return `select ${l.columns('l')} from (select ?::int as id) u, ${l.table} l
      where l.${l.column('company')} = any(?::int[]) and ${readableBy(n, 'l', 'u.id')}
      order by l.${l.column('company')}, l.${l.column('smartLibName')}, l.${l.column('smartLibId')}`;
  },
});

/** For each company (in key order), its libraries the user may read, by name: one statement for any number of companies. */
export async function companyLibrariesReadableBy(
  em: EntityManager,
  userId: number,
  companyIds: readonly number[],
): Promise<LibraryRow[][]> {
  const byCompany = new Map<number, LibraryRow[]>(companyIds.map((id) => [id, []]));
  for (const row of await companyLibraries(em, userId, intArray(companyIds))) byCompany.get(row.company)?.push(row);
  return companyIds.map((id) => byCompany.get(id)!);
}

/**
 * Every library each user may read, whatever its company, by name (and id): one statement for any
 * number of users. The rule is evaluated on every library; libraries are few (one per company or
 * team), so this stays a scan of a small table.
 */
const userLibraries = readModel<{ userId: number; library: LibraryRow }, [string], LibraryRow & { _user: number }>({
  entity: SmartLibrary,
  sql: (n) => {
    const l = n(SmartLibrary);
    return `select u.id as "_user", ${l.columns('l')} from unnest(?::int[]) as u(id), ${l.table} l
      where ${readableBy(n, 'l', 'u.id')} order by u.id, l.${l.column('smartLibName')}, l.${l.column('smartLibId')}`;
  },
  shape: ({ _user, ...library }) => ({ userId: _user, library }),
});

/** For each user (in key order), every library they may read, by name. */
export async function librariesOfReaders(em: EntityManager, userIds: readonly number[]): Promise<LibraryRow[][]> {
  const byUser = new Map<number, LibraryRow[]>(userIds.map((id) => [id, []]));
  for (const { userId, library } of await userLibraries(em, intArray(userIds))) byUser.get(userId)?.push(library);
  return userIds.map((id) => byUser.get(id)!);
}

/** Entries by id, in no particular order. */
const entriesById = readModel<EntryRow, [string]>({
  entity: SmartEntry,
  sql: (n) => {
    const e = n(SmartEntry);
    return `select ${e.columns()} from ${e.table} where ${e.column('smartEntryId')} = any(?::int[])`;
  },
});

export async function entriesByIds(em: EntityManager, ids: readonly number[]): Promise<(EntryRow | null)[]> {
  const byId = new Map((await entriesById(em, intArray(ids))).map((e) => [e.smartEntryId, e]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The name of the entries' cursors (a cursor of another list is refused). */
export const ENTRY_LIST = 'SmartLibrary.entries';

/** The entry's id in the window's rows, beside the entry (one JSON column), under a name of the window's own. */
const ENTRY_KEY = '_id';

/**
 * Newest first: the creation instant (the column itself, `_at`, so the index on library and creation
 * time gives each library's page; the cursor holds its microseconds, `_us`), then the id, which makes
 * the key unique.
 */
export const ENTRY_ORDER: readonly OrderColumn[] = [
  { column: INSTANT_COLUMN, desc: true, kind: 'micros' },
  { column: ENTRY_KEY, desc: true, kind: 'int' },
];

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

/** A row of the window: the entry and its lists, its order key, and keysetWindow's own columns (its library's total, its place). */
type WindowRow = SelectedEntry & InstantKeyed & { [ENTRY_KEY]: number; _total: number; _page: boolean; _parent: number; _beyond?: boolean };

const entryCursor = (row: WindowRow) => encodeCursor(ENTRY_LIST, [String(row._us), row[ENTRY_KEY]]);

/** The parts of a page's statement written from the entities' metadata, once: the entry and its lists as JSON. */
let pageParts: { entry: string; lists: string } | undefined;

/**
 * A page of entries of each library (in key order), newest first, each entry with its nested lists
 * and each page with its library's count of matching entries (the kept count when nothing is
 * filtered): one statement for any number of libraries (keysetWindow picks the first `first + 1`
 * entries of each library after the cursor, or the last `last + 1` before it; the entries' rows
 * and lists are built for those only).
 */
export async function entryPages(
  em: EntityManager,
  smartLibIds: readonly number[],
  request: PageRequest,
  filter: EntryFilter,
): Promise<ConnectionPage<EntryWithContents>[]> {
  const n: NamesOf = (entity) => tableOf(em, entity);
  const e = n(SmartEntry);
  const id = `e.${e.column('smartEntryId')}`;
  const where = [`e.${e.column('library')} = ${WINDOW_PARENT}`];
  const params: unknown[] = [];
  if (filter.folderId !== null) {
    const f = n(SmartEntryFolder);
    where.push(`exists (select 1 from ${f.table} f where f.${f.column('entry')} = ${id} and f.${f.column('folder')} = ?)`);
    params.push(filter.folderId);
  }
  if (filter.tagKey !== null) {
    const x = n(SmartEntryTag);
    const tag = n(SmartTag);
    where.push(`exists (select 1 from ${x.table} x join ${tag.table} t on t.${tag.column('smartTagId')} = x.${x.column('tag')}
      where x.${x.column('entry')} = ${id} and t.${tag.column('nameKey')} = ?)`);
    params.push(filter.tagKey);
  }
  const key = instantKeyColumns(`e.${e.column('smartEntryCreated')}`);
  pageParts ??= { entry: rowJson(em, SmartEntry, 'e'), lists: listColumns(em, `w."${ENTRY_KEY}"`) };
  const candidates = `select ${pageParts.entry} as entry, ${id} as "${ENTRY_KEY}", ${key} from ${e.table} e where ${where.join(' and ')}`;
  // Unfiltered, a library's total is the count its row keeps, not a count of its entries.
  const filtered = filter.folderId !== null || filter.tagKey !== null;
  const total = filtered ? undefined : keptEntryCount(n, WINDOW_PARENT);
  const window = keysetWindow(candidates, params, smartLibIds, ENTRY_ORDER, request, total);
  // Prepared: its text is one of a few (filters, cursor, count), its values apart. Planning it took
  // as long as running it, 1.5 of 2.7 ms of PostgreSQL's time (docs/performance.md).
  const rows = await runSql<WindowRow>(
    em,
    `select w.*, ${pageParts.lists} from (${window.sql}) w
      order by w."_parent", w."${WINDOW_PAGE}", w."${INSTANT_COLUMN}" desc, w."${ENTRY_KEY}" desc`,
    window.params,
    { prepared: true },
  );
  return pagesByGroup(smartLibIds, rows, request, entryCursor, entryMapper(em));
}

/** The statement of entryContents, written from the entities' metadata on first use. */
let contents: string | undefined;

/** Every nested list of each entry (in key order): one statement for any number of entries, one row per entry. */
export async function entryContents(em: EntityManager, ids: readonly number[]): Promise<EntryContents[]> {
  contents ??= `select k.id as "_entry", ${listColumns(em, 'k.id')} from unnest(?::int[]) as k(id)`;
  const rows = await runSql<SelectedContents & { _entry: number }>(em, contents, [intArray(ids)]);
  const mapContents = contentsMapper(em);
  const byId = new Map(rows.map((row) => [row._entry, mapContents(row)]));
  return ids.map((id) => byId.get(id)!);
}

/** A file with what deciding its download needs besides its own row: whether readers may have its entry's original. */
export type DownloadRow = FileRow & Pick<EntryRow, 'smartEntryDownloadOrig'>;

/** Files by id, each with its entry's download rule: one statement for any number of files. */
const filesWithEntry = readModel<DownloadRow, [string]>({
  entity: SmartFile,
  sql: (n) => {
    const f = n(SmartFile);
    const e = n(SmartEntry);
    return `select ${f.columns('f')}, ${e.fields('e', ['smartEntryDownloadOrig'])}
      from ${f.table} f join ${e.table} e on e.${e.column('smartEntryId')} = f.${f.column('entry')}
      where f.${f.column('smartFileId')} = any(?::int[])`;
  },
});

/** Each file (in key order) with its entry's download rule; null when there is no such file. */
export async function filesForDownload(em: EntityManager, ids: readonly number[]): Promise<(DownloadRow | null)[]> {
  const byId = new Map((await filesWithEntry(em, intArray(ids))).map((f) => [f.smartFileId, f]));
  return ids.map((id) => byId.get(id) ?? null);
}
