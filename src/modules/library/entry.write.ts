// The write of createSmartEntry: the entry with its files (OUF and THMB), URLs, tags (created
// when unknown), folders, filters and categories (existing ones only, by id or by name), and the
// uploads it consumed, in one statement of data-modifying CTEs, whatever the number of items. The
// statement checks the library's room and the name itself, after the caller's row lock on the
// library (so its snapshot sees every entry committed before), and answers what it stored as the
// read models do (library.sql.ts), so the response needs no further read.
//
// The new rows travel as one JSON document, each row a record by column name (recordOf: the
// values the service gives by property name, the entity's defaults for the rest), which
// PostgreSQL turns into rows of the table (jsonb_populate_record): the columns inserted are every
// column the entity maps, so a column added to the entity is stored without being named here.
import type { EntityManager, EntityName } from '@mikro-orm/core';
import { runSql, tableOf, type NamesOf } from '../../db/lean';
import { StoredBlob } from '../storage';
import { SmartEntry } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { SmartUpload } from './upload.entity';
import { insertedColumns, recordOf, rowJson, type AnyTable, type RowOf } from '../../db/rows';
import { entryMapper, TERMS, TERM_KINDS, type EntryContents, type EntryRow, type SelectedEntry, type TermKind } from './library.sql';
import { SmartLibrary } from './library.entity';

const termTables = (n: NamesOf, kind: TermKind): { term: AnyTable; link: AnyTable } => ({
  term: n(TERMS[kind].entity as EntityName<object>),
  link: n(TERMS[kind].link as EntityName<object>),
});
function keptEntryCount(n: NamesOf, lib: string): string {
  const l = n(SmartLibrary);
  return `(select l.${l.column('entryCount')} from ${l.table} l where l.${l.column('smartLibId')} = ${lib})`;
}
const fileOrder = (n: NamesOf, f = 'f') => `${f}.${n(SmartFile).column('smartFileType')}, ${f}.${n(SmartFile).column('smartFileId')}`;
const jsonList = (object: string, order: string, from: string) =>
  `(select coalesce(json_agg(${object} order by ${order}), '[]'::json) ${from})`;

/** A term named by id or by its nameKey, at its place in the request. */
export interface TermChoice {
  id: number | null;
  key: string | null;
  position: number;
}

/** A file of the entry: its values by property (but its id, and its entry: the new one), and whether it is a placeholder tile. */
export interface NewFile {
  values: Omit<RowOf<SmartFile>, 'smartFileId' | 'entry'>;
  /** A placeholder tile already stored once: stored with the entry only while its blob is still there. */
  placeholder: boolean;
}

/** What the statement stores. */
export interface NewEntry {
  /** The library, locked by the caller, and the most entries it may hold. */
  lib: number;
  maxEntries: number;
  /** The entry's values by property (the rest are the entity's defaults). */
  entry: Partial<EntryRow>;
  /** SHA-256 of the placeholder tile the entry points at, if any: marked used, as storing it again would. */
  placeholder: string | null;
  files: NewFile[];
  /** Links' values by property (their entry is the new one), in order. */
  urls: Partial<RowOf<SmartEntryUrl>>[];
  /** Distinct tags in the request's order (positions 0, 1, ...), with the name a new tag gets. */
  tags: { key: string; name: string; position: number }[];
  folders: TermChoice[];
  filters: TermChoice[];
  categories: TermChoice[];
  uploads: number[];
}

export type Stored = { entries: number; nameTaken: boolean } & ({ entry: EntryRow; contents: EntryContents } | { entry: null });

/** Chosen terms of the library (`list` in the document), each once, numbered from 0 by where the request first named it. */
function chosen(term: AnyTable, idProp: string, list: string): string {
  const id = `t.${term.column(idProp)}`;
  return `select ${term.columns('t')}, (row_number() over (order by min(r.position)) - 1)::int as position
    from d, jsonb_to_recordset(d.j->'${list}') as r(id int, key text, position int), ${term.table} t
    where t.${term.column('library')} = d.lib and (${id} = r.id or t.${term.column('nameKey')} = r.key)
    group by ${id}`;
}

/** Inserts rows of table `t` from `from` (whose `r` is a record of the table): every inserted column from `r` but those `set` gives. */
function insertRows(t: AnyTable, columns: string[], set: Record<string, string>, from: string): string {
  return `insert into ${t.table} (${columns.join(', ')}) select ${columns.map((c) => set[c] ?? `r.${c}`).join(', ')} ${from} returning *`;
}

function build(em: EntityManager): string {
  const n: NamesOf = (entity) => tableOf(em, entity);
  const e = n(SmartEntry);
  const f = n(SmartFile);
  const u = n(SmartEntryUrl);
  const blob = n(StoredBlob);
  const upload = n(SmartUpload);
  const entryId = `entry.${e.column('smartEntryId')}`;
  const termCte = (kind: TermKind) => `${TERMS[kind].list}_chosen`;
  const { term: tag } = termTables(n, 'tag');
  return `with d as (select s.j, (s.j->>'lib')::int as lib from (select ?::jsonb as j) s),
  v as (select r.* from d, jsonb_populate_record(null::${e.table}, d.j->'entry') r),
  room as (
    select ${keptEntryCount(n, 'd.lib')} as entries,
      exists (select 1 from ${e.table} c where c.${e.column('library')} = d.lib and c.${e.column('nameKey')} = v.${e.column('nameKey')}) as "nameTaken"
    from d, v),
  entry as (
    ${insertRows(e, insertedColumns(em, SmartEntry), {}, `from v r, d, room where room.entries < (d.j->>'maxEntries')::int and not room."nameTaken"`)}),
  -- Marked used under its row lock, as storing the bytes again would (which orders this against a purge).
  touched as (
    update ${blob.table} b set ${blob.column('lastUsedAt')} = now() from d where b.${blob.column('sha256')} = d.j->>'placeholder'
    returning b.${blob.column('sha256')}),
  files as (
    ${insertRows(
      f,
      insertedColumns(em, SmartFile),
      { [f.column('entry')]: entryId },
      `from entry, d, jsonb_array_elements(d.j->'files') as x(j), jsonb_populate_record(null::${f.table}, x.j->'values') r
      where not (x.j->>'placeholder')::boolean or exists (select 1 from touched)`,
    )}),
  urls as (
    ${insertRows(
      u,
      insertedColumns(em, SmartEntryUrl),
      { [u.column('entry')]: entryId },
      `from entry, d, jsonb_populate_recordset(null::${u.table}, d.j->'urls') r`,
    )}),
  -- An existing tag is set to itself so that it is returned too (do nothing would return only new ones).
  tags as (
    insert into ${tag.table} (${tag.column('library')}, ${tag.column('nameKey')}, ${tag.column(TERMS.tag.name)})
    select d.lib, r.key, r.name from d, jsonb_to_recordset(d.j->'tags') as r(key text, name text, position int)
    on conflict (${tag.column('library')}, ${tag.column('nameKey')}) do update set ${tag.column('nameKey')} = excluded.${tag.column('nameKey')}
    returning *),
  ${termCte('tag')} as (
    select ${tag.columns('tags')}, r.position from d, jsonb_to_recordset(d.j->'tags') as r(key text, name text, position int), tags
    where tags.${tag.column('nameKey')} = r.key),
  ${TERM_KINDS.filter((kind) => kind !== 'tag')
    .map((kind) => `${termCte(kind)} as (${chosen(termTables(n, kind).term, TERMS[kind].id, TERMS[kind].list)})`)
    .join(',\n  ')},
  ${TERM_KINDS.map((kind) => {
    const { term, link } = termTables(n, kind);
    return `${kind}_links as (
    insert into ${link.table} (${link.column('entry')}, ${link.column(TERMS[kind].key)}, ${link.column('position')})
    select ${entryId}, x.${term.column(TERMS[kind].id)}, x.position from entry, ${termCte(kind)} x returning 1)`;
  }).join(',\n  ')},
  used as (
    delete from ${upload.table} x using d
    where x.${upload.column('id')} in (select jsonb_array_elements_text(d.j->'uploads')::int) returning 1)
  select room.entries, room."nameTaken",
    (select ${rowJson(em, SmartEntry, 'x')} from entry x) as entry,
    ${jsonList(rowJson(em, SmartFile, 'f'), fileOrder(n), 'from files f')} as files,
    ${jsonList(rowJson(em, SmartEntryUrl, 'u'), `u.${u.column('position')}`, 'from urls u')} as urls,
    ${TERM_KINDS.map((kind) => `${jsonList(rowJson(em, TERMS[kind].entity as EntityName<object>, 'x'), 'x.position', `from ${termCte(kind)} x`)} as ${TERMS[kind].list}`).join(',\n    ')}
  from room`;
}

/** The statement's one row: the room it found, the entry (null when not stored) and its lists, as JSON. */
type StoredRow = { entries: number; nameTaken: boolean } & SelectedEntry;

let statement: string | undefined;

/** Stores the entry unless the library is full or holds the name (then `entry` is null); runs in `em`'s transaction. */
export async function storeEntry(em: EntityManager, entry: NewEntry): Promise<Stored> {
  const document = {
    ...entry,
    entry: recordOf(em, SmartEntry, entry.entry),
    files: entry.files.map((file) => ({ values: recordOf(em, SmartFile, file.values), placeholder: file.placeholder })),
    urls: entry.urls.map((url) => recordOf(em, SmartEntryUrl, url)),
  };
  const [row] = await runSql<StoredRow>(em, (statement ??= build(em)), [JSON.stringify(document)]);
  const { entries, nameTaken } = row;
  if (!row.entry) return { entries, nameTaken, entry: null };
  return { entries, nameTaken, ...entryMapper(em)(row) };
}
