// The createSmartEntry input as the service stores it: the entry's own values (every input field
// that is a field of SmartEntry, stored as its rule reads it: text trimmed, codes in their listed
// spelling, absent as the entity's default; none is named here), its links and terms, and the
// uploads it names. Each field's own rules (required, lengths, codes, number of items) are declared
// on the input (library.inputs.ts) and hold before the resolver runs; what is checked here spans
// fields (a URL entry vs a file entry, a folder by id or by name), parses (http(s) URLs) or
// concerns a whole list (smartFiles must be empty). Errors name the field by its leaf name.
import { invalidParameter } from '../../core/errors';
import { allRules, type FieldRule } from '../../graphql/rules';
import { getMetadataStorage } from 'type-graphql';
import { SmartEntry } from './library.entity';
import { CreateSmartEntryInput } from './library.inputs';
import { YES_NO } from './library.limits';
import type { EntryRow } from './library.sql';
import { fieldsOf } from '../../graphql/graph-fields';
import { nameKey } from './library.service';

export interface TermRef {
  id?: number;
  name?: string;
}

/** The input's fields that are the entry's own: a field of the same name on SmartEntry. */
export type EntryField = keyof CreateSmartEntryInput & keyof EntryRow;

/** The entry's own values the input gives, by property, as stored. */
export type EntryValues = Pick<EntryRow, EntryField>;

export interface EntryDraft {
  smartLibId: number;
  /** The entry's own values (its type, name, description, flags, link, authors...). */
  entry: EntryValues;
  nameKey: string;
  sendNotification: boolean;
  urls: { smartEntryUrlName: string | null; smartEntryUrlValue: string }[];
  tags: string[];
  folders: TermRef[];
  filters: string[];
  categories: TermRef[];
  originalFilename: string | null;
  tempFilename: string | null;
  tempImageName: string | null;
}

/** Trimmed text; blank is absent. */
const clean = (value: string | null | undefined): string | null => value?.trim() || null;

/** Text the input's rules require: present once they have passed. */
const given = (value: string | null | undefined): string => clean(value)!;

interface OwnField {
  property: EntryField;
  rule: FieldRule | undefined;
  /** What the entry stores when the input gives nothing: the entity's default (a new instance's value), else null. */
  absent: unknown;
}

let ownFields: OwnField[] | undefined;

/** The input's fields that are fields of SmartEntry's own (its columns), with their rules. */
function entryFields(): OwnField[] {
  if (ownFields) return ownFields;
  const ofEntry = new Set(
    fieldsOf(SmartEntry)
      .filter((f) => f.own)
      .map((f) => f.name),
  );
  const inputType = getMetadataStorage().inputTypes.find((t) => t.target === CreateSmartEntryInput)!;
  const rules = new Map(allRules().flatMap((r) => (r.kind === 'input' && r.typeName === inputType.name ? [[r.property, r.rule]] : [])));
  const defaults = new SmartEntry() as unknown as Record<string, unknown>;
  return (ownFields = fieldsOf(CreateSmartEntryInput)
    .filter((f) => ofEntry.has(f.name))
    .map((f) => ({ property: f.property as EntryField, rule: rules.get(f.property), absent: defaults[f.property] ?? null })));
}

/**
 * A value as the entry stores it, by its field's rule: text trimmed (blank is absent), a code of a
 * oneOf in its listed spelling (the rule may accept any case), and absent as the entity's default.
 */
function stored(field: OwnField, value: unknown): unknown {
  const text = typeof value === 'string' ? clean(value) : value;
  if (text === null || text === undefined) return field.absent;
  const codes = field.rule?.anyCase ? field.rule.oneOf : undefined;
  if (typeof text !== 'string' || !codes) return text;
  return codes.find((code) => code.toUpperCase() === text.toUpperCase()) ?? text;
}

/** The entry's own values of an input (its fields that are SmartEntry's), as the entry stores them. */
export function entryValues(input: Partial<CreateSmartEntryInput>): EntryValues {
  const values: Record<string, unknown> = {};
  for (const field of entryFields()) values[field.property] = stored(field, input[field.property]);
  return values as EntryValues;
}

/** Every Y/N flag of the entry (the input's fields whose rule is a oneOf of Y and N) set to `value`. */
export function everyFlag(value: (typeof YES_NO)[number]): Partial<CreateSmartEntryInput> {
  const flags = entryFields().filter((f) => f.rule?.oneOf === YES_NO);
  return Object.fromEntries(flags.map((f) => [f.property, value]));
}

function httpUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidParameter(field, `${field} must be an http or https URL.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname)
    throw invalidParameter(field, `${field} must be an http or https URL.`);
  return value;
}

/** The items of a list that are there (GraphQL lists may hold nulls). */
const items = <T>(list: (T | null)[] | null | undefined): T[] => (list ?? []).filter((i): i is T => i !== null && i !== undefined);

function termRefs(refs: { id?: number | null; name?: string | null }[], idField: string, nameField: string): TermRef[] {
  return refs.map((r) => {
    if (r.id !== null && r.id !== undefined) return { id: r.id };
    const name = clean(r.name);
    if (name === null) throw invalidParameter(nameField, `Give ${idField} or ${nameField}.`);
    return { name };
  });
}

export function entryDraft(input: CreateSmartEntryInput): EntryDraft {
  const entry = entryValues(input);
  const isUrl = entry.smartEntryType === 'URL';
  const info = input.smartFileInfo ?? {};
  const tempFilename = clean(info.tempFilename);
  const originalFilename = clean(info.originalFilename);
  if (isUrl && (tempFilename || originalFilename)) {
    throw invalidParameter(
      tempFilename ? 'tempFilename' : 'originalFilename',
      'A URL entry may carry only tempImageName in smartFileInfo.',
    );
  }
  if (!isUrl && !tempFilename)
    throw invalidParameter('tempFilename', `A ${entry.smartEntryType} entry needs smartFileInfo.tempFilename from uploadSmartFile.`);
  const link = entry.smartEntryUrlLink;
  if (link !== null) httpUrl(link, 'smartEntryUrlLink');
  if (isUrl && !link) throw invalidParameter('smartEntryUrlLink', 'smartEntryUrlLink is required.');
  if (!isUrl && link) throw invalidParameter('smartEntryUrlLink', 'smartEntryUrlLink is only for URL entries.');
  if (input.smartFiles?.length) throw invalidParameter('smartFiles', 'Files are attached through smartFileInfo; smartFiles must be empty.');

  return {
    smartLibId: input.smartLibId,
    entry,
    nameKey: nameKey(entry.smartEntryName),
    sendNotification: input.sendNotification === true,
    urls: items(input.smartEntryURLs).map((u) => ({
      smartEntryUrlName: clean(u.smartEntryUrlName),
      smartEntryUrlValue: httpUrl(given(u.smartEntryUrlValue), 'smartEntryUrlValue'),
    })),
    tags: items(input.smartEntryTags).map((t) => given(t.smartTagName)),
    filters: items(input.smartEntryFilters).map((f) => given(f.smartFilterName)),
    folders: termRefs(
      items(input.smartEntryFolders).map((f) => ({ id: f.smartFolderId, name: f.smartFolderName })),
      'smartFolderId',
      'smartFolderName',
    ),
    categories: termRefs(
      items(input.smartEntryCategories).map((c) => ({ id: c.smartCategoryId, name: c.smartCategoryName })),
      'smartCategoryId',
      'smartCategoryName',
    ),
    originalFilename,
    tempFilename,
    tempImageName: clean(info.tempImageName),
  };
}
