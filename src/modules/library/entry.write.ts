// The write of createSmartEntry: the entry with its files (OUF and THMB), URLs, tags (created
// when unknown), folders, filters and categories (existing ones only, by id or by name), and the
// uploads it consumed, in one statement of data-modifying CTEs (library.queries.ts storeEntry),
// whatever the number of items. The
// statement checks the library's room and the name itself, after the caller's row lock on the
// library (so its snapshot sees every entry committed before), and answers what it stored as the
// read models do (library.sql.ts), so the response needs no further read.
//
// The new rows travel as one JSON document, each row a record by column name (recordOf: the
// values the service gives by property name, the entity's defaults for the rest), which
// PostgreSQL turns into rows of the table (jsonb_populate_record): the columns inserted are every
// column the entity maps, so a column added to the entity is stored without being named here.
import type { Constructor, EntityManager } from '@mikro-orm/core';
import { columnProps, type RowOf } from '../../db/sql';
import { SmartEntry } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { storeEntry as store } from './library.queries';
import { entryMapper, type EntryContents, type EntryRow, type SelectedEntry } from './library.sql';

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

/**
 * A new row of the entity as a JSON object by column name (for `jsonb_populate_record(null::table, ...)`):
 * each column is the value `values` gives its property, else the entity's own default (what a new
 * instance holds), else null. Relations are given as the related entity's key.
 */
function recordOf<T extends object>(em: EntityManager, entity: Constructor<T>, values: Partial<RowOf<T>>): Record<string, unknown> {
  const defaults = new entity() as Record<string, unknown>;
  const given = values as Record<string, unknown>;
  const record: Record<string, unknown> = {};
  for (const p of columnProps(em.getMetadata().get(entity)))
    if (p.fieldNames.length === 1) record[p.fieldNames[0]] = (given[p.name] !== undefined ? given[p.name] : defaults[p.name]) ?? null;
  return record;
}

/** The statement's one row: the room it found, the entry (null when not stored) and its lists, as JSON. */
type StoredRow = { entries: number; nameTaken: boolean } & SelectedEntry;

/** Stores the entry unless the library is full or holds the name (then `entry` is null); runs in `em`'s transaction. */
export async function storeEntry(em: EntityManager, entry: NewEntry): Promise<Stored> {
  const document = {
    ...entry,
    entry: recordOf(em, SmartEntry, entry.entry),
    files: entry.files.map((file) => ({ values: recordOf(em, SmartFile, file.values), placeholder: file.placeholder })),
    urls: entry.urls.map((url) => recordOf(em, SmartEntryUrl, url)),
  };
  const [row] = (await store.run(em, {
    document: JSON.stringify(document),
    lib: entry.lib,
    maxEntries: entry.maxEntries,
    nameKey: entry.entry.nameKey!,
    placeholder: entry.placeholder,
    uploads: entry.uploads,
  })) as unknown as StoredRow[];
  const { entries, nameTaken } = row;
  if (!row.entry) return { entries, nameTaken, entry: null };
  return { entries, nameTaken, ...entryMapper(em)(row) };
}
