// createSmartEntry: one transaction that checks the library, the caller's publisher role, the
// limits, names and uploads, then stores the entry with its files (OUF and a THMB tile), links
// and classification, consumes the uploads and notifies. Any failure leaves nothing behind.
import { LockMode, UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Hooks } from '../../core/hooks';
import type { Context } from '../../context';
import { ServiceError } from '../../graphql/errors';
import { User } from '../user';
import { StoredBlob } from '../storage';
import { readBlob, storeBuffer, type BlobInfo } from '../storage';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartEntryUrl, SmartFile } from './entry-content.entity';
import { SmartCategory, SmartEntryCategory, SmartEntryFilter, SmartEntryFolder, SmartEntryTag, SmartFolder } from './taxonomy.entity';
import { ENTRY_TYPES } from './library.limits';
import { authorisationStep, ensureTerms, findTerms, isPublisher, nameKey } from './library.service';
import { entryDraft, type EntryDraft, type TermRef } from './entry.draft';
import type { CreateSmartEntryInput } from './library.inputs';
import { findUpload } from './upload.service';
import type { SmartUpload } from './upload.entity';
import { placeholderTile, tileFrom, TILE_MIME } from './thumbnail';

const duplicateEntry = () =>
  new ServiceError('WSDuplicateSmartEntryException', 'The library already holds an entry with this name.', { field: 'smartEntryName' });
const duplicateFile = () =>
  new ServiceError('WSDuplicateSmartFileException', 'The library already holds an entry with this file.', { field: 'tempFilename' });

export async function createSmartEntry(ctx: Context, input: CreateSmartEntryInput): Promise<SmartEntry> {
  const { user } = await authorisationStep(() => ctx.auth.requireUser());
  // Each field's own rules held before the resolver ran; the draft checks what spans fields.
  const draft = entryDraft(input);
  try {
    return await ctx.em.transactional((em) => createInTransaction(em, ctx.services.hooks, user.uId, draft));
  } catch (err) {
    // Two creators racing past the checks: the unique constraints decide.
    if (err instanceof UniqueConstraintViolationException) {
      if (/smart_entry_smart_lib_id_name_key_unique/.test(err.message)) throw duplicateEntry();
      if (/smart_file_smart_lib_id_dedupe_md5_unique/.test(err.message)) throw duplicateFile();
    }
    throw err;
  }
}

async function createInTransaction(em: EntityManager, hooks: Hooks, userId: number, draft: EntryDraft): Promise<SmartEntry> {
  // The row lock orders creators of one library, so the counts below hold until commit.
  const library = await em.findOne(SmartLibrary, { smartLibId: draft.smartLibId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!library) throw new ServiceError('WSSmartLibNotFoundException', undefined, { field: 'smartLibId' });
  if (!(await authorisationStep(() => isPublisher(em, library.smartLibId, userId)))) {
    throw new ServiceError('WSInsufficientPrivilegesException', 'The caller is not a publisher of this library.');
  }
  if ((await em.count(SmartEntry, { library })) >= library.maxEntries) {
    throw new ServiceError('WSLimitExceededException', `The library already holds its maximum of ${library.maxEntries} entries.`, {
      field: 'smartLibId',
    });
  }
  if (await em.count(SmartEntry, { library, nameKey: draft.nameKey })) throw duplicateEntry();

  const file = draft.tempFilename ? await findUpload(em, userId, draft.tempFilename, 'FILE', 'tempFilename') : null;
  const tile = draft.tempImageName ? await findUpload(em, userId, draft.tempImageName, 'TILE', 'tempImageName') : null;
  if (file && !ENTRY_TYPES[draft.type]!.includes(file.mimeType)) {
    throw new ServiceError('WSUnsupportedTypeException', `A ${draft.type} entry cannot hold ${file.mimeType} content.`, {
      field: 'smartEntryType',
    });
  }
  if (file && (await em.count(SmartFile, { library, dedupeMd5: file.md5 }))) throw duplicateFile();

  const now = new Date();
  const entry = em.create(SmartEntry, {
    library,
    smartEntryType: draft.type,
    smartEntryName: draft.name,
    nameKey: draft.nameKey,
    smartEntryDesc: draft.desc,
    smartEntryDownloadOrig: draft.downloadOrig,
    smartEntryDownloadPdf: draft.downloadPdf,
    notifyUserOfExternalUrl: draft.type === 'URL' ? null : 'N',
    smartEntryUrlLink: draft.urlLink,
    smartEntryAuthors: draft.authors,
    smartEntryCreated: now,
    smartEntryModified: now,
    createdBy: em.getReference(User, userId),
  });

  const original = file ? fromUpload(file, draft.originalFilename) : await internetShortcut(em, draft);
  addFile(em, entry, library, 'OUF', original, now);
  addFile(em, entry, library, 'THMB', await thumbnail(em, draft, file, tile), now);

  draft.urls.forEach((u, position) =>
    em.create(SmartEntryUrl, { entry, smartEntryUrlName: u.name, smartEntryUrlValue: u.value, position }),
  );
  const tags = await ensureTerms(em, 'tag', library.smartLibId, draft.tags);
  link(
    tags,
    (t) => t.nameKey,
    draft.tags.map(nameKey),
    (tag, position) => em.create(SmartEntryTag, { entry, tag, position }),
  );
  const filters = await findTerms(em, 'filter', library.smartLibId, draft.filters);
  link(
    filters,
    (f) => f.nameKey,
    draft.filters.map(nameKey),
    (filter, position) => em.create(SmartEntryFilter, { entry, filter, position }),
  );
  const folders = await resolveRefs(em, SmartFolder, 'smartFolderId', 'folder', library.smartLibId, draft.folders);
  folders.forEach((folder, position) => em.create(SmartEntryFolder, { entry, folder, position }));
  const categories = await resolveRefs(em, SmartCategory, 'smartCategoryId', 'category', library.smartLibId, draft.categories);
  categories.forEach((category, position) => em.create(SmartEntryCategory, { entry, category, position }));

  for (const used of [file, tile]) if (used) em.remove(used);
  await em.flush();

  if (draft.sendNotification) {
    await hooks.emit('smartEntryPublished', {
      em,
      library: {
        smartLibId: library.smartLibId,
        smartLibName: library.smartLibName,
        companyId: library.company.companyId,
        teamId: library.team?.teamId ?? null,
      },
      entry: {
        smartEntryId: entry.smartEntryId,
        smartEntryName: entry.smartEntryName,
        smartEntryType: entry.smartEntryType,
        smartEntryDesc: entry.smartEntryDesc ?? null,
      },
      publishedBy: userId,
    });
  }
  return entry;
}

interface FileContent {
  blob: BlobInfo;
  name: string;
  mimeType: string;
  /** Uploaded originals take part in duplicate detection. */
  dedupe: boolean;
}

function fromUpload(upload: SmartUpload, name: string | null): FileContent {
  return {
    blob: { sha256: upload.blob.sha256, md5: upload.md5, bytes: upload.bytes },
    name: name ?? upload.originalFilename,
    mimeType: upload.mimeType,
    dedupe: true,
  };
}

/** File name from the entry name: no path separators or control characters. */
function safeBase(name: string): string {
  return name.replace(/[\\/:*?"<>|\u0000-\u001f\u007f]+/g, '_').slice(0, 200) || 'entry';
}

/** The original of a URL entry: an Internet shortcut file, which any desktop opens as the link. */
async function internetShortcut(em: EntityManager, draft: EntryDraft): Promise<FileContent> {
  const blob = await storeBuffer(em, Buffer.from(`[InternetShortcut]\r\nURL=${draft.urlLink}\r\n`, 'utf8'));
  return { blob, name: `${safeBase(draft.name)}.url`, mimeType: 'application/internet-shortcut', dedupe: false };
}

async function thumbnail(em: EntityManager, draft: EntryDraft, file: SmartUpload | null, tile: SmartUpload | null): Promise<FileContent> {
  let image: Buffer;
  if (tile) image = await tileFrom(await readBlob(em, tile.blob.sha256), 'tempImageName');
  else if (file && draft.type === 'IMG') image = await tileFrom(await readBlob(em, file.blob.sha256), 'tempFilename');
  else image = await placeholderTile(draft.type);
  const blob = await storeBuffer(em, image);
  return { blob, name: `${safeBase(draft.name)}-tile.jpg`, mimeType: TILE_MIME, dedupe: false };
}

function addFile(em: EntityManager, entry: SmartEntry, library: SmartLibrary, type: 'OUF' | 'THMB', content: FileContent, now: Date): void {
  em.create(SmartFile, {
    entry,
    library,
    smartFileType: type,
    smartFileName: content.name,
    smartFileBytes: content.blob.bytes,
    smartFileMd5: content.blob.md5,
    mimeType: content.mimeType,
    blob: em.getReference(StoredBlob, content.blob.sha256),
    dedupeMd5: content.dedupe ? content.blob.md5 : null,
    smartFileCreated: now,
    smartFileModified: now,
  });
}

/** Links terms in the order the request named them, each once. */
function link<T>(terms: T[], keyOf: (t: T) => string, order: string[], create: (term: T, position: number) => void): void {
  const byKey = new Map(terms.map((t) => [keyOf(t), t]));
  const seen = new Set<T>();
  for (const key of order) {
    const term = byKey.get(key);
    if (term && !seen.has(term)) {
      seen.add(term);
      create(term, seen.size - 1);
    }
  }
}

/** Folders or categories named by id or by name, in request order; unknown ones are left out. */
async function resolveRefs<T extends SmartFolder | SmartCategory>(
  em: EntityManager,
  entity: new () => T,
  idProp: 'smartFolderId' | 'smartCategoryId',
  kind: 'folder' | 'category',
  smartLibId: number,
  refs: TermRef[],
): Promise<T[]> {
  const ids = refs.filter((r) => r.id !== undefined).map((r) => r.id!);
  const names = refs.filter((r) => r.name !== undefined).map((r) => r.name!);
  const byId = ids.length ? await em.find(entity, { library: smartLibId, [idProp]: { $in: ids } }) : [];
  const byName = (await findTerms(em, kind, smartLibId, names)) as T[];
  const found: T[] = [];
  for (const ref of refs) {
    const term = ref.id !== undefined ? byId.find((t) => t[idProp] === ref.id) : byName.find((t) => t.nameKey === nameKey(ref.name!));
    if (term && !found.includes(term)) found.push(term);
  }
  return found;
}
