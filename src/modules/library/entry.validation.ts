// Checks a createSmartEntry input without touching the database, and returns it normalised.
// Errors name the field (leaf name, as GraphQL coercion errors do).
import { ServiceError, fieldTooLong, invalidParameter } from '../../graphql/errors';
import type { CreateSmartEntryInput } from './library.inputs';
import { ENTRY_TYPES, LIMITS } from './library.limits';
import { nameKey } from './library.service';

export interface TermRef {
  id?: number;
  name?: string;
}

export interface EntryDraft {
  smartLibId: number;
  type: string;
  name: string;
  nameKey: string;
  desc: string | null;
  downloadOrig: 'Y' | 'N';
  downloadPdf: 'Y' | 'N';
  urlLink: string | null;
  authors: string | null;
  sendNotification: boolean;
  urls: { name: string | null; value: string }[];
  tags: string[];
  folders: TermRef[];
  filters: string[];
  categories: TermRef[];
  originalFilename: string | null;
  tempFilename: string | null;
  tempImageName: string | null;
}

/** Characters as PostgreSQL counts them (code points), not UTF-16 units. */
const length = (s: string) => [...s].length;

function text(value: string | null | undefined, field: string, max: number, required = false): string | null {
  const v = value?.trim() ?? '';
  if (!v) {
    if (required) throw invalidParameter(field, `${field} is required.`);
    return null;
  }
  if (length(v) > max) throw fieldTooLong(field, max);
  return v;
}

function yn(value: string | null | undefined, field: string): 'Y' | 'N' {
  if (value === null || value === undefined || value === '') return 'N';
  const v = value.trim().toUpperCase();
  if (v !== 'Y' && v !== 'N') throw invalidParameter(field, `${field} must be Y or N.`);
  return v;
}

export function httpUrl(value: string | null | undefined, field: string, required: boolean): string | null {
  const v = text(value, field, LIMITS.url, required);
  if (v === null) return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw invalidParameter(field, `${field} must be an http or https URL.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) throw invalidParameter(field, `${field} must be an http or https URL.`);
  return v;
}

function list<T>(items: (T | null)[] | null | undefined, field: string, max: number): T[] {
  const all = items ?? [];
  if (all.length > max) throw new ServiceError('WSLimitExceededException', `${field} holds at most ${max} items.`, { field });
  return all.filter((i): i is T => i !== null && i !== undefined);
}

function termRefs(items: { id?: number | null; name?: string | null }[], idField: string, nameField: string, max: number): TermRef[] {
  return items.map((i) => {
    if (i.id !== null && i.id !== undefined) return { id: i.id };
    const name = text(i.name, nameField, max);
    if (name === null) throw invalidParameter(nameField, `Give ${idField} or ${nameField}.`);
    return { name };
  });
}

export function validateEntry(input: CreateSmartEntryInput): EntryDraft {
  const type = input.smartEntryType?.trim().toUpperCase() ?? '';
  if (!type) throw invalidParameter('smartEntryType', 'smartEntryType is required.');
  if (!Object.hasOwn(ENTRY_TYPES, type)) {
    throw new ServiceError('WSUnsupportedTypeException', `smartEntryType must be one of ${Object.keys(ENTRY_TYPES).join(', ')}.`, { field: 'smartEntryType' });
  }
  const isUrl = type === 'URL';
  const name = text(input.smartEntryName, 'smartEntryName', LIMITS.entryName, true)!;
  const info = input.smartFileInfo ?? {};
  const tempFilename = text(info.tempFilename, 'tempFilename', 64);
  const originalFilename = text(info.originalFilename, 'originalFilename', LIMITS.filename);
  if (isUrl && (tempFilename || originalFilename)) {
    throw invalidParameter(tempFilename ? 'tempFilename' : 'originalFilename', 'A URL entry may carry only tempImageName in smartFileInfo.');
  }
  if (!isUrl && !tempFilename) throw invalidParameter('tempFilename', `A ${type} entry needs smartFileInfo.tempFilename from uploadSmartFile.`);
  const urlLink = httpUrl(input.smartEntryUrlLink, 'smartEntryUrlLink', isUrl);
  if (!isUrl && urlLink) throw invalidParameter('smartEntryUrlLink', 'smartEntryUrlLink is only for URL entries.');
  if (input.smartFiles?.length) throw invalidParameter('smartFiles', 'Files are attached through smartFileInfo; smartFiles must be empty.');

  const urls = list(input.smartEntryURLs, 'smartEntryURLs', LIMITS.urlsPerEntry).map((u) => ({
    name: text(u.smartEntryUrlName, 'smartEntryUrlName', LIMITS.urlName),
    value: httpUrl(u.smartEntryUrlValue, 'smartEntryUrlValue', true)!,
  }));
  const tags = list(input.smartEntryTags, 'smartEntryTags', LIMITS.tagsPerEntry).map((t) => text(t.smartTagName, 'smartTagName', LIMITS.tagName, true)!);
  const filters = list(input.smartEntryFilters, 'smartEntryFilters', LIMITS.filtersPerEntry).map((f) => text(f.smartFilterName, 'smartFilterName', LIMITS.filterName, true)!);
  const folders = termRefs(
    list(input.smartEntryFolders, 'smartEntryFolders', LIMITS.foldersPerEntry).map((f) => ({ id: f.smartFolderId, name: f.smartFolderName })),
    'smartFolderId', 'smartFolderName', LIMITS.folderName,
  );
  const categories = termRefs(
    list(input.smartEntryCategories, 'smartEntryCategories', LIMITS.categoriesPerEntry).map((c) => ({ id: c.smartCategoryId, name: c.smartCategoryName })),
    'smartCategoryId', 'smartCategoryName', LIMITS.categoryName,
  );

  return {
    smartLibId: input.smartLibId,
    type,
    name,
    nameKey: nameKey(name),
    desc: text(input.smartEntryDesc, 'smartEntryDesc', LIMITS.entryDesc),
    downloadOrig: yn(input.smartEntryDownloadOrig, 'smartEntryDownloadOrig'),
    downloadPdf: yn(input.smartEntryDownloadPdf, 'smartEntryDownloadPdf'),
    urlLink,
    authors: text(input.smartEntryAuthors, 'smartEntryAuthors', LIMITS.entryAuthors),
    sendNotification: input.sendNotification === true,
    urls,
    tags,
    folders,
    filters,
    categories,
    originalFilename,
    tempFilename,
    tempImageName: text(info.tempImageName, 'tempImageName', 64),
  };
}
