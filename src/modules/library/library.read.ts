// Read models of the library (docs/development.md, "Reads are read models"): libraries, pages of
// entries, an entry's files, links and classification, as plain rows shaped for their GraphQL
// types. The entity classes stay the GraphQL object types and the write model; nothing here
// builds an entity. The library page over GraphQL is two statements whatever its size (after the
// caller's own): the library with the caller's right to read it, and the page with its total and
// every nested list of its entries.
//
// Timestamps are selected as epoch milliseconds (floored, as the driver's own parsing keeps the
// milliseconds of a microsecond timestamp), so rows and the JSON of nested lists carry numbers
// that become the same Date the entities held.
import type { EntityManager } from '@mikro-orm/core';
import { epochMillis, intArray, readQuery, selectAs, type NamesOf } from '../../db/lean';
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

/**
 * Libraries with the user's right to read each (its audience, library.service.ts readableBy):
 * one statement for any number of libraries. Unknown ids have no row.
 */
const librariesFor = readQuery<
  LibraryRow & { readable: boolean },
  [number, string],
  Selected<LibraryRow, 'smartLibCreated'> & { readable: boolean }
>(
  (n) => {
    const l = n(SmartLibrary);
    return `select l.${l.column('smartLibId')} as "smartLibId", l.${l.column('smartLibName')} as "smartLibName",
        l.${l.column('maxEntries')} as "maxEntries", ${epochMillis(`l.${l.column('smartLibCreated')}`)} as "smartLibCreated",
        l.${l.column('company')} as "companyId", l.${l.column('team')} as "teamId", ${readableBy('l', 'u.id')} as readable
      from (select ?::int as id) u, ${l.table} l where l.${l.column('smartLibId')} = any(?::int[])`;
  },
  (row) => ({ ...row, smartLibCreated: new Date(row.smartLibCreated) }),
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

/** Entries by id, in no particular order. */
const entriesById = readQuery<EntryRow, [string], SelectedEntry>(
  (n) => `select ${entryColumns(n)} from ${n(SmartEntry).table} e where e.${n(SmartEntry).column('smartEntryId')} = any(?::int[])`,
  entryRow,
);

export async function entriesByIds(em: EntityManager, ids: readonly number[]): Promise<(EntryRow | null)[]> {
  const byId = new Map((await entriesById(em, intArray(ids))).map((e) => [e.smartEntryId, e]));
  return ids.map((id) => byId.get(id) ?? null);
}

/**
 * A page of a library's entries, newest first, each with its nested lists and the library's entry
 * count (an uncorrelated subquery evaluated once, an index-only count, where a window count would
 * read every entry of the library). The lists come with the page, rather than through the loader
 * after it, because a page is read to show them: one statement and one round trip fewer.
 */
const page = readQuery<
  { entry: EntryRow; contents: EntryContents; total: number },
  [number, number, number, number],
  SelectedEntry & SelectedContents & { totalCount: number; rowNumber: string }
>(
  (n) => {
    const e = n(SmartEntry);
    const order = `e.${e.column('smartEntryCreated')} desc, e.${e.column('smartEntryId')} desc`;
    return `select p.*, ${listColumns(n, 'p."smartEntryId"')}
      from (select ${entryColumns(n)}, (select count(*) from ${e.table} c where c.${e.column('library')} = ?)::int as "totalCount",
          row_number() over (order by ${order}) as "rowNumber"
        from ${e.table} e where e.${e.column('library')} = ? order by ${order} limit ? offset ?) p
      order by p."rowNumber"`;
  },
  // rowNumber only orders the page.
  ({ totalCount, rowNumber, files, urls, tags, folders, filters, categories, ...row }) => ({
    entry: entryRow(row),
    contents: entryContentsOf({ files, urls, tags, folders, filters, categories }),
    total: totalCount,
  }),
);

const entryCount = readQuery<number, [number], { n: number }>(
  (n) => `select count(*)::int as n from ${n(SmartEntry).table} where ${n(SmartEntry).column('library')} = ?`,
  (row) => row.n,
);

export async function entryPage(
  em: EntityManager,
  smartLibId: number,
  limit: number,
  offset: number,
): Promise<{ items: { entry: EntryRow; contents: EntryContents }[]; totalCount: number }> {
  const rows = await page(em, smartLibId, smartLibId, limit, offset);
  if (rows.length) return { items: rows, totalCount: rows[0].total };
  // A page past the end has no row to carry the count (the first page of an empty library needs none).
  return { items: [], totalCount: offset ? (await entryCount(em, smartLibId))[0] : 0 };
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
