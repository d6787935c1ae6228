// The createSmartEntry input as the service stores it: text trimmed, codes in their listed
// spelling. Each field's own rules (required, lengths, codes, number of items) are declared on
// the input (library.inputs.ts) and hold before the resolver runs; what is checked here spans
// fields (a URL entry vs a file entry, a folder by id or by name), parses (http(s) URLs) or
// concerns a whole list (smartFiles must be empty). Errors name the field by its leaf name.
import { invalidParameter } from '../../graphql/errors';
import type { CreateSmartEntryInput } from './library.inputs';
import type { YesNo } from './library.limits';
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
  downloadOrig: YesNo;
  downloadPdf: YesNo;
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

/** Trimmed text; blank is absent. */
const clean = (value: string | null | undefined): string | null => value?.trim() || null;

/** Text the input's rules require: present once they have passed. */
const given = (value: string | null | undefined): string => clean(value)!;

/** Y or N in the listed spelling (the rule accepts any case); absent is N. */
const flag = (value: string | null | undefined): YesNo => (clean(value)?.toUpperCase() as YesNo | undefined) ?? 'N';

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
  const type = given(input.smartEntryType).toUpperCase();
  const isUrl = type === 'URL';
  const name = given(input.smartEntryName);
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
    throw invalidParameter('tempFilename', `A ${type} entry needs smartFileInfo.tempFilename from uploadSmartFile.`);
  const link = clean(input.smartEntryUrlLink);
  const urlLink = link === null ? null : httpUrl(link, 'smartEntryUrlLink');
  if (isUrl && !urlLink) throw invalidParameter('smartEntryUrlLink', 'smartEntryUrlLink is required.');
  if (!isUrl && urlLink) throw invalidParameter('smartEntryUrlLink', 'smartEntryUrlLink is only for URL entries.');
  if (input.smartFiles?.length) throw invalidParameter('smartFiles', 'Files are attached through smartFileInfo; smartFiles must be empty.');

  return {
    smartLibId: input.smartLibId,
    type,
    name,
    nameKey: nameKey(name),
    desc: clean(input.smartEntryDesc),
    downloadOrig: flag(input.smartEntryDownloadOrig),
    downloadPdf: flag(input.smartEntryDownloadPdf),
    urlLink,
    authors: clean(input.smartEntryAuthors),
    sendNotification: input.sendNotification === true,
    urls: items(input.smartEntryURLs).map((u) => ({
      name: clean(u.smartEntryUrlName),
      value: httpUrl(given(u.smartEntryUrlValue), 'smartEntryUrlValue'),
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
