// The rows the library's reads (library.read.ts) and the entry writer (entry.write.ts) answer: the
// rows of the library's entities, the lists under an entry as selected (JSON arrays of rows,
// library.queries.ts rowJson) and how they map to rows of their entities. Every row is an
// entity's row: its columns come from the entity's metadata and arrive under their properties'
// names, so no field is named here.
import { ReferenceKind, wrap, type EntityManager } from '@mikro-orm/core';
import { columnProps, type RowOf } from '../../db/sql';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { TERMS, TERM_KINDS, type TermKind } from './library.queries';

export { TERMS, TERM_KINDS, type TermKind };

export type LibraryRow = RowOf<SmartLibrary>;
export type EntryRow = RowOf<SmartEntry>;
export type FileRow = RowOf<SmartFile>;
export type UrlRow = RowOf<SmartEntryUrl>;

type TermList = (typeof TERMS)[TermKind]['list'];

/** Everything listed under an entry, each list in the order its field promises, as rows of its entity. */
export type EntryContents = { files: FileRow[]; urls: UrlRow[] } & {
  [K in TermKind as (typeof TERMS)[K]['list']]: RowOf<InstanceType<(typeof TERMS)[K]['entity']>>[];
};

/** The lists of an entry as selected: JSON arrays of rows (rowJson). */
export type SelectedContents = Record<keyof EntryContents, object[]>;

/**
 * Rows of the entity as rowJson (library.queries.ts) wrote them (parsed JSON) to rows of the entity:
 * their instants (epoch milliseconds) made Dates, in place. As cheap as a row can be mapped: lists
 * under a page's entries are many.
 */
function jsonRowsOf<T extends object>(em: EntityManager, entity: abstract new (...args: never[]) => T): (row: object) => RowOf<T> {
  const instants = columnProps(em.getMetadata().get(entity))
    .filter((p) => p.runtimeType === 'Date')
    .map((p) => p.name);
  return (row) => {
    const r = row as Record<string, unknown>;
    for (const p of instants) if (r[p] !== null) r[p] = new Date(r[p] as number);
    return row as RowOf<T>;
  };
}

/** The lists of a row as selected (SelectedContents) to rows of their entities (their instants made Dates, in place). */
export function contentsMapper(em: EntityManager): (selected: SelectedContents) => EntryContents {
  const maps: [keyof EntryContents, (row: object) => object][] = [
    ['files', jsonRowsOf(em, SmartFile)],
    ['urls', jsonRowsOf(em, SmartEntryUrl)],
    ...TERM_KINDS.map((kind): [TermList, (row: object) => object] => [TERMS[kind].list, jsonRowsOf(em, TERMS[kind].entity as never)]),
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

/** An entity (a managed instance) as its row: what a read would read of it, a relation as the related entity's key. */
export function rowOf<T extends object>(em: EntityManager, entity: abstract new (...args: never[]) => T, instance: T): RowOf<T> {
  const row: Record<string, unknown> = {};
  for (const p of columnProps(em.getMetadata().get(entity))) {
    const value = (instance as Record<string, unknown>)[p.name] ?? null;
    row[p.name] = p.kind === ReferenceKind.SCALAR || value === null ? value : wrap(value, true).getPrimaryKey();
  }
  return row as RowOf<T>;
}
