// Read models of the library (docs/development.md, "Reads are read models"): libraries, pages of
// entries, an entry's files, links and classification, as plain rows shaped for their GraphQL
// types. The entity classes stay the GraphQL object types and the write model; nothing here
// builds an entity. The library page over GraphQL is two statements whatever its size (after the
// caller's own): the library with the caller's right to read it, and the page with its total and
// every nested list of its entries; pages of many libraries (SmartLibrary.entries under
// Company.smartLibraries) share that one statement.
//
// Timestamps are selected as epoch milliseconds (floored, as the driver's own parsing keeps the
// milliseconds of a microsecond timestamp), so rows and the JSON of nested lists carry numbers
// that become the same Date the entities held.
import type { EntityManager } from '@mikro-orm/core';
import { epochMillis, intArray, readQuery, runSql, selectAs, tableOf, type NamesOf } from '../../db/lean';
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
import { readableBy } from './library.service';

export interface LibraryRow {
  smartLibId: number;
  smartLibName: string;
  maxEntries: number;
  smartLibCreated: Date;
  companyId: number;
  teamId: number | null;
}

export interface EntryRow {
  smartEntryId: number;
  smartLibId: number;
  smartEntryStatus: string;
  smartEntryType: string;
  smartEntryName: string;
  smartEntryDesc: string | null;
  smartEntryDownloadOrig: string;
  smartEntryDownloadPdf: string;
  notifyUserOfExternalUrl: string | null;
  smartEntryUrlLink: string | null;
  smartEntryAuthors: string | null;
  smartEntryCreated: Date;
  smartEntryModified: Date;
  smartEntryMetadataVersion: number;
  smartEntryFileVersion: number;
  aiIngestionFailures: number;
  aiIngestionError: string | null;
}

export interface FileRow {
  smartFileId: number;
  smartEntryId: number;
  smartFileType: string;
  smartFileName: string;
  smartFileBytes: number;
  smartFileMd5: string;
  mimeType: string;
  smartFileCreated: Date;
  smartFileModified: Date;
}

export interface UrlRow {
  smartEntryUrlId: number;
  smartEntryUrlName: string | null;
  smartEntryUrlValue: string;
}

/** Everything listed under an entry, each list in the order its field promises. */
export interface EntryContents {
  files: FileRow[];
  urls: UrlRow[];
  tags: { smartTagId: number; smartTagName: string }[];
  folders: { smartFolderId: number; smartFolderName: string }[];
  filters: { smartFilterId: number; smartFilterName: string }[];
  categories: { smartCategoryId: number; smartCategoryName: string }[];
}

/** Any entity's table names, for statements written once for several tables of one shape (links, terms). */
export interface AnyTable {
  table: string;
  column(prop: string): string;
}

/** A row as selected: its timestamps `K` as epoch milliseconds. */
type Selected<T, K extends keyof T> = Omit<T, K> & Record<K, number>;
export type SelectedEntry = Selected<EntryRow, 'smartEntryCreated' | 'smartEntryModified'>;
export type SelectedFile = Selected<FileRow, 'smartFileCreated' | 'smartFileModified'>;
type SelectedContents = Omit<EntryContents, 'files'> & { files: SelectedFile[] };

/** The columns of an entry row under alias `e`, named as its GraphQL fields. */
export function entryColumns(n: NamesOf, e = 'e'): string {
  const entry = n(SmartEntry);
  const c = (prop: keyof SmartEntry & string) => entry.column(prop);
  return [
    ...selectAs(entry, e, {
      smartEntryId: 'smartEntryId',
      smartLibId: 'library',
      smartEntryStatus: 'smartEntryStatus',
      smartEntryType: 'smartEntryType',
      smartEntryName: 'smartEntryName',
      smartEntryDesc: 'smartEntryDesc',
      smartEntryDownloadOrig: 'smartEntryDownloadOrig',
      smartEntryDownloadPdf: 'smartEntryDownloadPdf',
      notifyUserOfExternalUrl: 'notifyUserOfExternalUrl',
      smartEntryUrlLink: 'smartEntryUrlLink',
      smartEntryAuthors: 'smartEntryAuthors',
      smartEntryMetadataVersion: 'smartEntryMetadataVersion',
      smartEntryFileVersion: 'smartEntryFileVersion',
      aiIngestionFailures: 'aiIngestionFailures',
      aiIngestionError: 'aiIngestionError',
    }),
    `${epochMillis(`${e}.${c('smartEntryCreated')}`)} as "smartEntryCreated"`,
    `${epochMillis(`${e}.${c('smartEntryModified')}`)} as "smartEntryModified"`,
  ].join(', ');
}

/** An entry row as selected by entryColumns. */
export function entryRow(row: SelectedEntry): EntryRow {
  return { ...row, smartEntryCreated: new Date(row.smartEntryCreated), smartEntryModified: new Date(row.smartEntryModified) };
}

/** A file as built by the JSON of fileJson. */
export function fileRow(file: SelectedFile): FileRow {
  return { ...file, smartFileCreated: new Date(file.smartFileCreated), smartFileModified: new Date(file.smartFileModified) };
}

/** The nested lists as selected (JSON), with their files' timestamps as Dates. */
export function entryContentsOf(selected: SelectedContents): EntryContents {
  return { ...selected, files: selected.files.map(fileRow) };
}

/** The entries the library `lib` (an SQL expression of its id) holds, as its row keeps them (SmartEntry's triggers). */
export function keptEntryCount(n: NamesOf, lib: string): string {
  const l = n(SmartLibrary);
  return `(select l.${l.column('entryCount')} from ${l.table} l where l.${l.column('smartLibId')} = ${lib})`;
}

/** json_build_object of a smart_file row under alias `f`, named as the SmartFile fields. */
export function fileJson(n: NamesOf, f = 'f'): string {
  const file = n(SmartFile);
  const c = (prop: keyof SmartFile & string) => file.column(prop);
  return `json_build_object('smartFileId', ${f}.${c('smartFileId')}, 'smartEntryId', ${f}.${c('entry')},
    'smartFileType', ${f}.${c('smartFileType')}, 'smartFileName', ${f}.${c('smartFileName')}, 'smartFileBytes', ${f}.${c('smartFileBytes')},
    'smartFileMd5', ${f}.${c('smartFileMd5')}, 'mimeType', ${f}.${c('mimeType')},
    'smartFileCreated', ${epochMillis(`${f}.${c('smartFileCreated')}`)}, 'smartFileModified', ${epochMillis(`${f}.${c('smartFileModified')}`)})`;
}

/** OUF before THMB, then by id: the order of SmartEntry.smartFiles. */
export const fileOrder = (n: NamesOf, f = 'f') =>
  `${f}.${n(SmartFile).column('smartFileType')}, ${f}.${n(SmartFile).column('smartFileId')}`;

/** A JSON array (never null) of `object` over `from`, in `order`. */
const jsonList = (object: string, order: string, from: string) =>
  `(select coalesce(json_agg(${object} order by ${order}), '[]'::json) ${from})`;

/** The terms linked to entry `id` through `link` (key property `linkKey`), in the entry's order, named as their fields. */
function termList(id: string, link: AnyTable, linkKey: string, term: AnyTable, idProp: string, nameProp: string): string {
  return jsonList(
    `json_build_object('${idProp}', t.${term.column(idProp)}, '${nameProp}', t.${term.column(nameProp)})`,
    `x.${link.column('position')}`,
    `from ${link.table} x join ${term.table} t on t.${term.column(idProp)} = x.${link.column(linkKey)} where x.${link.column('entry')} = ${id}`,
  );
}

/** Every nested list of entry `id` (an SQL expression), as the JSON columns of SelectedContents. */
function listColumns(n: NamesOf, id: string): string {
  const f = n(SmartFile);
  const u = n(SmartEntryUrl);
  return `${jsonList(fileJson(n), fileOrder(n), `from ${f.table} f where f.${f.column('entry')} = ${id}`)} as files,
    ${jsonList(
      `json_build_object('smartEntryUrlId', u.${u.column('smartEntryUrlId')}, 'smartEntryUrlName', u.${u.column('smartEntryUrlName')},
        'smartEntryUrlValue', u.${u.column('smartEntryUrlValue')})`,
      `u.${u.column('position')}`,
      `from ${u.table} u where u.${u.column('entry')} = ${id}`,
    )} as urls,
    ${termList(id, n(SmartEntryTag), 'tag', n(SmartTag), 'smartTagId', 'smartTagName')} as tags,
    ${termList(id, n(SmartEntryFolder), 'folder', n(SmartFolder), 'smartFolderId', 'smartFolderName')} as folders,
    ${termList(id, n(SmartEntryFilter), 'filter', n(SmartFilter), 'smartFilterId', 'smartFilterName')} as filters,
    ${termList(id, n(SmartEntryCategory), 'category', n(SmartCategory), 'smartCategoryId', 'smartCategoryName')} as categories`;
}

/** A library row as selected by libraryColumns. */
type SelectedLibrary = Selected<LibraryRow, 'smartLibCreated'>;

/** The columns of a library row under alias `l`, named as its GraphQL fields. */
function libraryColumns(n: NamesOf, l = 'l'): string {
  const library = n(SmartLibrary);
  return [
    ...selectAs(library, l, {
      smartLibId: 'smartLibId',
      smartLibName: 'smartLibName',
      maxEntries: 'maxEntries',
      companyId: 'company',
      teamId: 'team',
    }),
    `${epochMillis(`${l}.${library.column('smartLibCreated')}`)} as "smartLibCreated"`,
  ].join(', ');
}

const libraryRow = (row: SelectedLibrary): LibraryRow => ({ ...row, smartLibCreated: new Date(row.smartLibCreated) });

/**
 * Libraries with the user's right to read each (its audience, library.service.ts readableBy):
 * one statement for any number of libraries. Unknown ids have no row.
 */
const librariesFor = readQuery<LibraryRow & { readable: boolean }, [number, string], SelectedLibrary & { readable: boolean }>(
  (n) => {
    const l = n(SmartLibrary);
    return `select ${libraryColumns(n)}, ${readableBy('l', 'u.id')} as readable
      from (select ?::int as id) u, ${l.table} l where l.${l.column('smartLibId')} = any(?::int[])`;
  },
  ({ readable, ...row }) => ({ ...libraryRow(row), readable }),
);

/** Each library (in key order) with whether the user may read it; null when there is no such library. */
export async function librariesReadableBy(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<({ library: LibraryRow; readable: boolean } | null)[]> {
  const rows = await librariesFor(em, userId, intArray(ids));
  const byId = new Map(rows.map(({ readable, ...library }) => [library.smartLibId, { library, readable }]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The libraries of the companies that the user may read, by company, then name (and id, for equal names). */
const companyLibraries = readQuery<LibraryRow, [number, string], SelectedLibrary>((n) => {
  const l = n(SmartLibrary);
  return `select ${libraryColumns(n)} from (select ?::int as id) u, ${l.table} l
      where l.${l.column('company')} = any(?::int[]) and ${readableBy('l', 'u.id')}
      order by l.${l.column('company')}, l.${l.column('smartLibName')}, l.${l.column('smartLibId')}`;
}, libraryRow);

/** For each company (in key order), its libraries the user may read, by name: one statement for any number of companies. */
export async function companyLibrariesReadableBy(
  em: EntityManager,
  userId: number,
  companyIds: readonly number[],
): Promise<LibraryRow[][]> {
  const byCompany = new Map<number, LibraryRow[]>(companyIds.map((id) => [id, []]));
  for (const row of await companyLibraries(em, userId, intArray(companyIds))) byCompany.get(row.companyId)?.push(row);
  return companyIds.map((id) => byCompany.get(id)!);
}

/**
 * Every library each user may read, whatever its company, by name (and id): one statement for any
 * number of users. The rule is evaluated on every library; libraries are few (one per company or
 * team), so this stays a scan of a small table.
 */
const userLibraries = readQuery<LibraryRow & { userId: number }, [string], SelectedLibrary & { userId: number }>(
  (n) => {
    const l = n(SmartLibrary);
    return `select u.id as "userId", ${libraryColumns(n)} from unnest(?::int[]) as u(id), ${l.table} l
      where ${readableBy('l', 'u.id')} order by u.id, l.${l.column('smartLibName')}, l.${l.column('smartLibId')}`;
  },
  ({ userId, ...row }) => ({ ...libraryRow(row), userId }),
);

/** For each user (in key order), every library they may read, by name. */
export async function librariesOfReaders(em: EntityManager, userIds: readonly number[]): Promise<LibraryRow[][]> {
  const byUser = new Map<number, LibraryRow[]>(userIds.map((id) => [id, []]));
  for (const { userId, ...row } of await userLibraries(em, intArray(userIds))) byUser.get(userId)?.push(row);
  return userIds.map((id) => byUser.get(id)!);
}

/** Entries by id, in no particular order. */
const entriesById = readQuery<EntryRow, [string], SelectedEntry>(
  (n) => `select ${entryColumns(n)} from ${n(SmartEntry).table} e where e.${n(SmartEntry).column('smartEntryId')} = any(?::int[])`,
  entryRow,
);

export async function entriesByIds(em: EntityManager, ids: readonly number[]): Promise<(EntryRow | null)[]> {
  const byId = new Map((await entriesById(em, intArray(ids))).map((e) => [e.smartEntryId, e]));
  return ids.map((id) => byId.get(id) ?? null);
}

/** The name of the entries' cursors (a cursor of another list is refused). */
export const ENTRY_LIST = 'SmartLibrary.entries';

/**
 * Newest first: the creation instant (the column itself, `_at`, so the index on library and creation
 * time gives each library's page; the cursor holds its microseconds, `_us`), then the id, which makes
 * the key unique.
 */
export const ENTRY_ORDER: readonly OrderColumn[] = [
  { column: INSTANT_COLUMN, desc: true, kind: 'micros' },
  { column: 'smartEntryId', desc: true, kind: 'int' },
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

/** A row of the window: the entry, its lists, its order key, and keysetWindow's own columns (its library's total, its place). */
type WindowRow = SelectedEntry & SelectedContents & InstantKeyed & { _total: number; _page: boolean; _parent: number };

const entryCursor = (row: WindowRow) => encodeCursor(ENTRY_LIST, [String(row._us), row.smartEntryId]);

// The window's own columns are left out of the entry; the rest is the entry and its lists.
const entryWithContents = ({
  _at,
  _us,
  _total,
  _page,
  _parent,
  files,
  urls,
  tags,
  folders,
  filters,
  categories,
  ...row
}: WindowRow): EntryWithContents => ({
  entry: entryRow(row),
  contents: entryContentsOf({ files, urls, tags, folders, filters, categories }),
});

/**
 * A page of entries of each library (in key order), newest first, each entry with its nested lists
 * and each page with its library's count of matching entries (the kept count when nothing is
 * filtered): one statement for any number of
 * libraries (keysetWindow picks the first `first + 1` entries of each library after the cursor; the
 * lists are read for those rows only).
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
  const candidates = `select ${entryColumns(n)}, ${key} from ${e.table} e where ${where.join(' and ')}`;
  // Unfiltered, a library's total is the count its row keeps, not a count of its entries.
  const filtered = filter.folderId !== null || filter.tagKey !== null;
  const total = filtered ? undefined : keptEntryCount(n, WINDOW_PARENT);
  const window = keysetWindow(candidates, params, smartLibIds, ENTRY_ORDER, request, total);
  const rows = await runSql<WindowRow>(
    em,
    `select w.*, ${listColumns(n, 'w."smartEntryId"')} from (${window.sql}) w
      order by w."_parent", w."${WINDOW_PAGE}", w."${INSTANT_COLUMN}" desc, w."smartEntryId" desc`,
    window.params,
  );
  return pagesByGroup(smartLibIds, rows, request, entryCursor, entryWithContents);
}

/** Every nested list of each entry: one statement for any number of entries, one row per entry. */
const contents = readQuery<{ smartEntryId: number; contents: EntryContents }, [string], SelectedContents & { smartEntryId: number }>(
  (n) => `select k.id as "smartEntryId", ${listColumns(n, 'k.id')} from unnest(?::int[]) as k(id)`,
  ({ smartEntryId, ...selected }) => ({ smartEntryId, contents: entryContentsOf(selected) }),
);

export async function entryContents(em: EntityManager, ids: readonly number[]): Promise<EntryContents[]> {
  const byId = new Map((await contents(em, intArray(ids))).map((r) => [r.smartEntryId, r.contents]));
  return ids.map((id) => byId.get(id)!);
}

/** A file with what deciding its download needs: its library and whether readers may have the original. */
const fileWithEntry = readQuery<
  FileRow & { smartLibId: number; downloadOrig: string },
  [number],
  { file: SelectedFile; smartLibId: number; downloadOrig: string }
>(
  (n) => {
    const f = n(SmartFile);
    const e = n(SmartEntry);
    return `select ${fileJson(n)} as file, f.${f.column('library')} as "smartLibId", e.${e.column('smartEntryDownloadOrig')} as "downloadOrig"
      from ${f.table} f join ${e.table} e on e.${e.column('smartEntryId')} = f.${f.column('entry')} where f.${f.column('smartFileId')} = ?`;
  },
  (row) => ({ ...fileRow(row.file), smartLibId: row.smartLibId, downloadOrig: row.downloadOrig }),
);

export async function fileForDownload(em: EntityManager, smartFileId: number) {
  return (await fileWithEntry(em, smartFileId))[0] ?? null;
}
