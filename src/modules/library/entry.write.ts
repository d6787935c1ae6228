// The statement that stores a new entry with all it holds, set-wise: the entry, its files, links,
// tags (created when unknown), folders, filters and categories (existing ones only, by id or by
// name), and the uploads it consumed, in one statement of data-modifying CTEs, whatever the number
// of items. The statement checks the library's room and the name itself, after the caller's row
// lock on the library (so its snapshot sees every entry committed before), and answers what it
// stored in the shapes of library.read.ts, so the response needs no further read.
import type { EntityManager } from '@mikro-orm/core';
import { runSql, sqlOnce, type NamesOf } from '../../db/lean';
import { StoredBlob } from '../storage';
import { SmartEntry } from './library.entity';
import { SmartEntryUrl, SmartFile, type SmartFileType } from './entry-content.entity';
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
import { SmartUpload } from './upload.entity';
import {
  entryColumns,
  entryContentsOf,
  entryRow,
  fileJson,
  fileOrder,
  keptEntryCount,
  type AnyTable,
  type EntryContents,
  type EntryRow,
  type SelectedEntry,
  type SelectedFile,
} from './library.read';

/** A term named by id or by its nameKey, at its place in the request. */
export interface TermChoice {
  id: number | null;
  key: string | null;
  position: number;
}

export interface NewFile {
  type: SmartFileType;
  name: string;
  bytes: number;
  md5: string;
  mime: string;
  sha256: string;
  dedupe: string | null;
  /** A placeholder tile already stored once: stored with the entry only while its blob is still there. */
  placeholder: boolean;
}

/** What the statement stores (sent as one JSON document). */
export interface NewEntry {
  lib: number;
  maxEntries: number;
  userId: number;
  now: string;
  type: string;
  name: string;
  nameKey: string;
  desc: string | null;
  downloadOrig: string;
  downloadPdf: string;
  notify: string | null;
  urlLink: string | null;
  authors: string | null;
  /** SHA-256 of the placeholder tile the entry points at, if any: marked used, as storing it again would. */
  placeholder: string | null;
  files: NewFile[];
  urls: { name: string | null; value: string; position: number }[];
  /** Distinct tags in the request's order (positions 0, 1, ...), with the name a new tag gets. */
  tags: { key: string; name: string; position: number }[];
  folders: TermChoice[];
  filters: TermChoice[];
  categories: TermChoice[];
  uploads: number[];
}

export type Stored = { entries: number; nameTaken: boolean } & ({ entry: EntryRow; contents: EntryContents } | { entry: null });

/** Chosen terms of the library (`list` in the document), each once, numbered from 0 by where the request first named it. */
function chosen(term: AnyTable, idProp: string, nameProp: string, list: string): string {
  const id = `t.${term.column(idProp)}`;
  return `select ${id} as id, t.${term.column(nameProp)} as name, (row_number() over (order by min(r.position)) - 1)::int as position
    from d, jsonb_to_recordset(d.j->'${list}') as r(id int, key text, position int), ${term.table} t
    where t.${term.column('library')} = d.lib and (${id} = r.id or t.${term.column('nameKey')} = r.key)
    group by ${id}, t.${term.column(nameProp)}`;
}

/** Links the new entry to the terms of CTE `terms`. */
const linked = (link: AnyTable, termProp: string, terms: string, entryId: string) =>
  `insert into ${link.table} (${link.column('entry')}, ${link.column(termProp)}, ${link.column('position')})
    select entry.${entryId}, x.id, x.position from entry, ${terms} x returning 1`;

/** A JSON list of CTE `terms` as `{ idField, nameField }`, in position order. */
const termJson = (terms: string, idField: string, nameField: string) =>
  `(select coalesce(json_agg(json_build_object('${idField}', x.id, '${nameField}', x.name) order by x.position), '[]'::json) from ${terms} x)`;

function build(n: NamesOf): string {
  const e = n(SmartEntry);
  const f = n(SmartFile);
  const u = n(SmartEntryUrl);
  const tag = n(SmartTag);
  const blob = n(StoredBlob);
  const upload = n(SmartUpload);
  const entryId = e.column('smartEntryId');
  return `with d as (select s.j, (s.j->>'lib')::int as lib from (select ?::jsonb as j) s),
  room as (
    select ${keptEntryCount(n, 'd.lib')} as entries,
      exists (select 1 from ${e.table} c where c.${e.column('library')} = d.lib and c.${e.column('nameKey')} = d.j->>'nameKey') as "nameTaken"
    from d),
  entry as (
    insert into ${e.table} (${e.column('library')}, ${e.column('smartEntryType')}, ${e.column('smartEntryName')}, ${e.column('nameKey')},
      ${e.column('smartEntryDesc')}, ${e.column('smartEntryDownloadOrig')}, ${e.column('smartEntryDownloadPdf')},
      ${e.column('notifyUserOfExternalUrl')}, ${e.column('smartEntryUrlLink')}, ${e.column('smartEntryAuthors')},
      ${e.column('smartEntryCreated')}, ${e.column('smartEntryModified')}, ${e.column('createdBy')})
    select d.lib, d.j->>'type', d.j->>'name', d.j->>'nameKey', d.j->>'desc', d.j->>'downloadOrig', d.j->>'downloadPdf', d.j->>'notify',
      d.j->>'urlLink', d.j->>'authors', (d.j->>'now')::timestamptz, (d.j->>'now')::timestamptz, (d.j->>'userId')::int
    from d, room where room.entries < (d.j->>'maxEntries')::int and not room."nameTaken"
    returning *),
  -- Marked used under its row lock, as storing the bytes again would (which orders this against a purge).
  touched as (
    update ${blob.table} b set ${blob.column('lastUsedAt')} = now() from d where b.${blob.column('sha256')} = d.j->>'placeholder'
    returning b.${blob.column('sha256')}),
  files as (
    insert into ${f.table} (${f.column('entry')}, ${f.column('library')}, ${f.column('smartFileType')}, ${f.column('smartFileName')},
      ${f.column('smartFileBytes')}, ${f.column('smartFileMd5')}, ${f.column('mimeType')}, ${f.column('blob')}, ${f.column('dedupeMd5')},
      ${f.column('smartFileCreated')}, ${f.column('smartFileModified')})
    select entry.${entryId}, d.lib, r.type, r.name, r.bytes, r.md5, r.mime, r.sha256, r.dedupe,
      entry.${e.column('smartEntryCreated')}, entry.${e.column('smartEntryCreated')}
    from entry, d, jsonb_to_recordset(d.j->'files')
      as r(type text, name text, bytes int, md5 text, mime text, sha256 text, dedupe text, placeholder boolean)
    where not r.placeholder or exists (select 1 from touched)
    returning *),
  urls as (
    insert into ${u.table} (${u.column('entry')}, ${u.column('smartEntryUrlName')}, ${u.column('smartEntryUrlValue')}, ${u.column('position')})
    select entry.${entryId}, r.name, r.value, r.position from entry, d, jsonb_to_recordset(d.j->'urls') as r(name text, value text, position int)
    returning *),
  -- An existing tag is set to itself so that it is returned too (do nothing would return only new ones).
  tags as (
    insert into ${tag.table} (${tag.column('library')}, ${tag.column('nameKey')}, ${tag.column('smartTagName')})
    select d.lib, r.key, r.name from d, jsonb_to_recordset(d.j->'tags') as r(key text, name text, position int)
    on conflict (${tag.column('library')}, ${tag.column('nameKey')}) do update set ${tag.column('nameKey')} = excluded.${tag.column('nameKey')}
    returning ${tag.column('smartTagId')} as id, ${tag.column('smartTagName')} as name, ${tag.column('nameKey')} as key),
  tag_list as (
    select tags.id, tags.name, r.position from d, jsonb_to_recordset(d.j->'tags') as r(key text, name text, position int), tags
    where tags.key = r.key),
  folders as (${chosen(n(SmartFolder), 'smartFolderId', 'smartFolderName', 'folders')}),
  filters as (${chosen(n(SmartFilter), 'smartFilterId', 'smartFilterName', 'filters')}),
  categories as (${chosen(n(SmartCategory), 'smartCategoryId', 'smartCategoryName', 'categories')}),
  tag_links as (${linked(n(SmartEntryTag), 'tag', 'tag_list', entryId)}),
  folder_links as (${linked(n(SmartEntryFolder), 'folder', 'folders', entryId)}),
  filter_links as (${linked(n(SmartEntryFilter), 'filter', 'filters', entryId)}),
  category_links as (${linked(n(SmartEntryCategory), 'category', 'categories', entryId)}),
  used as (
    delete from ${upload.table} x using d
    where x.${upload.column('id')} in (select jsonb_array_elements_text(d.j->'uploads')::int) returning 1)
  select room.entries, room."nameTaken",
    (select row_to_json(x) from (select ${entryColumns(n)} from entry e) x) as entry,
    (select coalesce(json_agg(${fileJson(n)} order by ${fileOrder(n)}), '[]'::json) from files f) as files,
    (select coalesce(json_agg(json_build_object('smartEntryUrlId', u.${u.column('smartEntryUrlId')},
      'smartEntryUrlName', u.${u.column('smartEntryUrlName')}, 'smartEntryUrlValue', u.${u.column('smartEntryUrlValue')})
      order by u.${u.column('position')}), '[]'::json) from urls u) as urls,
    ${termJson('tag_list', 'smartTagId', 'smartTagName')} as tags,
    ${termJson('folders', 'smartFolderId', 'smartFolderName')} as folders,
    ${termJson('filters', 'smartFilterId', 'smartFilterName')} as filters,
    ${termJson('categories', 'smartCategoryId', 'smartCategoryName')} as categories
  from room`;
}

/** The statement's one row: the room it found, the entry (null when not stored) and its lists, as JSON. */
type StoredRow = { entries: number; nameTaken: boolean; entry: SelectedEntry | null } & Omit<EntryContents, 'files'> & {
    files: SelectedFile[];
  };

const statement = sqlOnce(build);

/** Stores the entry unless the library is full or holds the name (then `entry` is null); runs in `em`'s transaction. */
export async function storeEntry(em: EntityManager, entry: NewEntry): Promise<Stored> {
  const [row] = await runSql<StoredRow>(em, statement(em), [JSON.stringify(entry)]);
  const { entries, nameTaken, entry: stored, ...contents } = row;
  if (!stored) return { entries, nameTaken, entry: null };
  return { entries, nameTaken, entry: entryRow(stored), contents: entryContentsOf(contents) };
}
