// The SQL vocabulary the library's read models (library.read.ts) share with the entry writer
// (entry.write.ts): the rows of the library's entities, the lists under an entry as JSON columns
// (read from their tables, or from the writer's CTEs) and how they map, the kept count of a
// library's entries, and the four kinds of terms. Every row is an entity's row (entity-rows.ts):
// its columns are selected from the entity's metadata (every column it maps) and arrive under
// their properties' names, so no field is named here.
import type { EntityManager, EntityName } from '@mikro-orm/core';
import { tableOf, type NamesOf } from '../../db/lean';
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
import { jsonRowsOf, rowJson, type AnyTable, type RowOf } from '../../db/rows';

export type LibraryRow = RowOf<SmartLibrary>;
export type EntryRow = RowOf<SmartEntry>;
export type FileRow = RowOf<SmartFile>;
export type UrlRow = RowOf<SmartEntryUrl>;

/**
 * The four kinds of terms that classify entries: the term's entity, its key and name properties,
 * the link of entries to it (ordered by `position`) with the link's relation to the term, and the
 * list of an entry's contents they make.
 */
export const TERMS = {
  tag: { entity: SmartTag, id: 'smartTagId', name: 'smartTagName', link: SmartEntryTag, key: 'tag', list: 'tags' },
  folder: { entity: SmartFolder, id: 'smartFolderId', name: 'smartFolderName', link: SmartEntryFolder, key: 'folder', list: 'folders' },
  filter: { entity: SmartFilter, id: 'smartFilterId', name: 'smartFilterName', link: SmartEntryFilter, key: 'filter', list: 'filters' },
  category: {
    entity: SmartCategory,
    id: 'smartCategoryId',
    name: 'smartCategoryName',
    link: SmartEntryCategory,
    key: 'category',
    list: 'categories',
  },
} as const;

export type TermKind = keyof typeof TERMS;
export const TERM_KINDS = Object.keys(TERMS) as TermKind[];
type TermList = (typeof TERMS)[TermKind]['list'];

/** Everything listed under an entry, each list in the order its field promises, as rows of its entity. */
export type EntryContents = { files: FileRow[]; urls: UrlRow[] } & {
  [K in TermKind as (typeof TERMS)[K]['list']]: RowOf<InstanceType<(typeof TERMS)[K]['entity']>>[];
};

/** The lists of an entry as selected: JSON arrays of rows (rowJson). */
export type SelectedContents = Record<keyof EntryContents, object[]>;

/** The table names of a term kind's entity and link, for statements written once for all four. */
export const termTables = (n: NamesOf, kind: TermKind): { term: AnyTable; link: AnyTable } => ({
  term: n(TERMS[kind].entity as EntityName<object>),
  link: n(TERMS[kind].link as EntityName<object>),
});

/** The entries the library `lib` (an SQL expression of its id) holds, as its row keeps them (SmartEntry's triggers). */
export function keptEntryCount(n: NamesOf, lib: string): string {
  const l = n(SmartLibrary);
  return `(select l.${l.column('entryCount')} from ${l.table} l where l.${l.column('smartLibId')} = ${lib})`;
}

/** OUF before THMB, then by id: the order of SmartEntry.smartFiles. */
export const fileOrder = (n: NamesOf, f = 'f') =>
  `${f}.${n(SmartFile).column('smartFileType')}, ${f}.${n(SmartFile).column('smartFileId')}`;

/** A JSON array (never null) of `object` over `from`, in `order`. */
export const jsonList = (object: string, order: string, from: string) =>
  `(select coalesce(json_agg(${object} order by ${order}), '[]'::json) ${from})`;

/** Every list of entry `id` (an SQL expression), read from its table, as the JSON columns of SelectedContents. */
export function listColumns(em: EntityManager, id: string): string {
  const n: NamesOf = (entity) => tableOf(em, entity);
  const f = n(SmartFile);
  const u = n(SmartEntryUrl);
  const terms = TERM_KINDS.map((kind) => {
    const { term: t, link: x } = termTables(n, kind);
    const { entity, id: idProp, key, list } = TERMS[kind];
    return `${jsonList(
      rowJson(em, entity as EntityName<object>, 't'),
      `x.${x.column('position')}`,
      `from ${x.table} x join ${t.table} t on t.${t.column(idProp)} = x.${x.column(key)} where x.${x.column('entry')} = ${id}`,
    )} as ${list}`;
  });
  return [
    `${jsonList(rowJson(em, SmartFile, 'f'), fileOrder(n), `from ${f.table} f where f.${f.column('entry')} = ${id}`)} as files`,
    `${jsonList(rowJson(em, SmartEntryUrl, 'u'), `u.${u.column('position')}`, `from ${u.table} u where u.${u.column('entry')} = ${id}`)} as urls`,
    ...terms,
  ].join(',\n    ');
}

/** The lists of a row as selected (SelectedContents) to rows of their entities (their instants made Dates, in place). */
export function contentsMapper(em: EntityManager): (selected: SelectedContents) => EntryContents {
  const maps: [keyof EntryContents, (row: object) => object][] = [
    ['files', jsonRowsOf(em, SmartFile)],
    ['urls', jsonRowsOf(em, SmartEntryUrl)],
    ...TERM_KINDS.map((kind): [TermList, (row: object) => object] => [
      TERMS[kind].list,
      jsonRowsOf(em, TERMS[kind].entity as EntityName<object>),
    ]),
  ];
  return (selected) => {
    const contents = {} as Record<keyof EntryContents, object[]>;
    for (const [list, map] of maps) contents[list] = selected[list].map(map);
    return contents as EntryContents;
  };
}

/** A row of entries as selected: the entry as one JSON object (rowJson), its lists, and the statement's own columns. */
export type SelectedEntry = { entry: object } & SelectedContents;

/** A row as selected (SelectedEntry) to the entry and its contents, rows of their entities. */
export function entryMapper(em: EntityManager): (row: SelectedEntry) => { entry: EntryRow; contents: EntryContents } {
  const entry = jsonRowsOf(em, SmartEntry);
  const contents = contentsMapper(em);
  return (row) => ({ entry: entry(row.entry), contents: contents(row) });
}
