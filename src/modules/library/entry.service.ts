// createSmartEntry: one transaction that checks the library, the caller's publisher role, the
// limits, names and uploads, then stores the entry with its files (OUF and a THMB tile), links
// and classification and consumes the uploads in one statement (entry.write.ts), and notifies.
// Any failure leaves nothing behind. A URL entry is five statements: the caller, the library's
// lock, the publisher role, its Internet shortcut's blob and the entry with all it holds.
import { UniqueConstraintViolationException, type EntityManager } from '@mikro-orm/core';
import type { Hooks } from '../../core/hooks';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { readBlob, storeBuffer, StoredBlob, type BlobInfo } from '../storage';
import { SmartEntry, SmartLibrary } from './library.entity';
import { SmartFile, type SmartFileType } from './entry-content.entity';
import { ENTRY_TYPES } from './library.limits';
import { authorisationStep, isPublisher, nameKey } from './library.service';
import { rowOf, type EntryContents, type EntryRow, type FileRow } from './library.sql';
import { lockLibrary, nameTaken } from './library.queries';
import { storeEntry, type NewEntry, type NewFile, type TermChoice } from './entry.write';
import { entryDraft, type EntryDraft, type TermRef } from './entry.draft';
import type { CreateSmartEntryInput } from './library.inputs';
import { cleanFilename, findUpload } from './upload.service';
import type { SmartUpload } from './upload.entity';
import { placeholderTile, tileFrom, TILE_MIME } from './thumbnail';

const duplicateEntry = () =>
  new ServiceError('WSDuplicateSmartEntryException', 'The library already holds an entry with this name.', { field: 'smartEntryName' });
const duplicateFile = () =>
  new ServiceError('WSDuplicateSmartFileException', 'The library already holds an entry with this file.', { field: 'tempFilename' });

export async function createSmartEntry(ctx: Context, input: CreateSmartEntryInput): Promise<EntryRow> {
  const { user } = await authorisationStep(() => ctx.auth.requireUser());
  // Each field's own rules held before the resolver ran; the draft checks what spans fields.
  const draft = entryDraft(input);
  let created: { entry: EntryRow; contents: EntryContents };
  try {
    created = await ctx.em.transactional((em) => createInTransaction(em, ctx.services.hooks, user.uId, draft));
  } catch (err) {
    // Two creators racing past the checks: the unique constraints decide (raised by the driver, or by MikroORM's flush).
    if (err instanceof UniqueConstraintViolationException || (err as { code?: string }).code === '23505') {
      const message = (err as Error).message;
      if (/smart_entry_smart_lib_id_name_key_unique/.test(message)) throw duplicateEntry();
      if (/smart_file_smart_lib_id_dedupe_md5_unique/.test(message)) throw duplicateFile();
    }
    throw err;
  }
  // The response's lists are what was just stored: the loader answers them without reading.
  ctx.loaders.smartEntryContents.prime(created.entry.smartEntryId, created.contents);
  return created.entry;
}

interface Room {
  entries: number;
  nameTaken: boolean;
}

/** The library's room first, then the name: the order of the errors. */
function checkRoom(found: Room, maxEntries: number): void {
  if (found.entries >= maxEntries) {
    throw new ServiceError('WSLimitExceededException', `The library already holds its maximum of ${maxEntries} entries.`, {
      field: 'smartLibId',
    });
  }
  if (found.nameTaken) throw duplicateEntry();
}

async function createInTransaction(
  em: EntityManager,
  hooks: Hooks,
  userId: number,
  draft: EntryDraft,
): Promise<{ entry: EntryRow; contents: EntryContents }> {
  // The row lock orders creators of one library, so its room and names hold until commit.
  const [library] = await lockLibrary.run(em, { libraryId: draft.smartLibId });
  if (!library) throw new ServiceError('WSSmartLibNotFoundException', undefined, { field: 'smartLibId' });
  if (!(await authorisationStep(() => isPublisher(em, library.smartLibId, userId)))) {
    throw new ServiceError('WSInsufficientPrivilegesException', 'The caller is not a publisher of this library.');
  }
  // The insert checks the room and the name itself (entry.write.ts). Errors about uploads come after
  // those two, so an entry with uploads has them checked before its uploads are looked up.
  if (draft.tempFilename || draft.tempImageName)
    checkRoom(
      {
        entries: library.entryCount,
        nameTaken: (await nameTaken.run(em, { libraryId: library.smartLibId, nameKey: draft.nameKey }))[0].nameTaken,
      },
      library.maxEntries,
    );

  const file = draft.tempFilename ? await findUpload(em, userId, draft.tempFilename, 'FILE', 'tempFilename') : null;
  const tile = draft.tempImageName ? await findUpload(em, userId, draft.tempImageName, 'TILE', 'tempImageName') : null;
  const type = draft.entry.smartEntryType;
  if (file && !ENTRY_TYPES[type]!.includes(file.mimeType)) {
    throw new ServiceError('WSUnsupportedTypeException', `A ${type} entry cannot hold ${file.mimeType} content.`, {
      field: 'smartEntryType',
    });
  }
  if (file && (await em.count(SmartFile, { library: library.smartLibId, dedupeMd5: file.md5 }))) throw duplicateFile();

  const now = new Date();
  const original = file ? fromUpload(file, draft.originalFilename) : await internetShortcut(em, draft);
  const thumb = await thumbnail(em, draft, file, tile);
  const stored = await storeEntry(em, {
    lib: library.smartLibId,
    maxEntries: library.maxEntries,
    entry: {
      ...draft.entry,
      library: library.smartLibId,
      nameKey: draft.nameKey,
      notifyUserOfExternalUrl: type === 'URL' ? null : 'N',
      smartEntryCreated: now,
      smartEntryModified: now,
      createdBy: userId,
    },
    placeholder: thumb.placeholder ? thumb.blob.sha256 : null,
    files: [newFile(library.smartLibId, 'OUF', original, now), newFile(library.smartLibId, 'THMB', thumb, now)],
    urls: draft.urls.map((u, position) => ({ ...u, position })),
    tags: distinctTags(draft.tags),
    folders: choices(draft.folders),
    filters: choices(draft.filters.map((name) => ({ name }))),
    categories: choices(draft.categories),
    uploads: [file, tile].filter((used) => used !== null).map((used) => used.id),
  });
  if (!stored.entry) {
    checkRoom(stored, library.maxEntries);
    throw new Error('the entry was not stored though the library had room and the name was free');
  }
  const { entry, contents } = stored;
  // The placeholder's stored copy was purged since it was last used: stored again, with its file.
  if (!contents.files.some((f) => f.smartFileType === 'THMB')) contents.files.push(await storeTile(em, entry, thumb, now));

  if (draft.sendNotification) {
    await hooks.emit('smartEntryPublished', {
      em,
      library: { smartLibId: library.smartLibId, smartLibName: library.smartLibName, companyId: library.company, teamId: library.team },
      entry: {
        smartEntryId: entry.smartEntryId,
        smartEntryName: entry.smartEntryName,
        smartEntryType: entry.smartEntryType,
        smartEntryDesc: entry.smartEntryDesc,
      },
      publishedBy: userId,
    });
  }
  return { entry, contents };
}

/** Each tag once (by nameKey), in the request's order, named as first given. */
function distinctTags(names: string[]): NewEntry['tags'] {
  const byKey = new Map<string, string>();
  for (const name of names) if (!byKey.has(nameKey(name))) byKey.set(nameKey(name), name);
  return [...byKey].map(([key, name], position) => ({ key, name, position }));
}

/** Folders, filters or categories named by id or by name, at their place in the request. */
const choices = (refs: TermRef[]): TermChoice[] =>
  refs.map((r, position) => ({ id: r.id ?? null, key: r.name === undefined ? null : nameKey(r.name), position }));

interface FileContent {
  blob: BlobInfo;
  name: string;
  mimeType: string;
  /** Uploaded originals take part in duplicate detection. */
  dedupe: boolean;
  /** A placeholder tile, not stored again (its stored copy is used, entry.write.ts): its bytes, for when that copy is gone. */
  placeholder?: Buffer;
}

function fromUpload(upload: SmartUpload, name: string | null): FileContent {
  return {
    blob: { sha256: upload.blob.sha256, md5: upload.md5, bytes: upload.bytes },
    // A name the entry gives is cleaned as an uploaded one is (controls, bidirectional overrides).
    name: name === null ? upload.originalFilename : cleanFilename(name, upload.ext),
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
  const blob = await storeBuffer(em, Buffer.from(`[InternetShortcut]\r\nURL=${draft.entry.smartEntryUrlLink}\r\n`, 'utf8'));
  return { blob, name: `${safeBase(draft.entry.smartEntryName)}.url`, mimeType: 'application/internet-shortcut', dedupe: false };
}

async function thumbnail(em: EntityManager, draft: EntryDraft, file: SmartUpload | null, tile: SmartUpload | null): Promise<FileContent> {
  const name = `${safeBase(draft.entry.smartEntryName)}-tile.jpg`;
  let image: Buffer;
  if (tile) image = await tileFrom(await readBlob(em, tile.blob.sha256), 'tempImageName');
  else if (file && draft.entry.smartEntryType === 'IMG') image = await tileFrom(await readBlob(em, file.blob.sha256), 'tempFilename');
  else {
    const placeholder = placeholderTile(draft.entry.smartEntryType);
    return { blob: placeholder.blob, name, mimeType: TILE_MIME, dedupe: false, placeholder: placeholder.image };
  }
  return { blob: await storeBuffer(em, image), name, mimeType: TILE_MIME, dedupe: false };
}

function newFile(library: number, type: SmartFileType, content: FileContent, now: Date): NewFile {
  return {
    values: {
      library,
      smartFileType: type,
      smartFileName: content.name,
      smartFileBytes: content.blob.bytes,
      smartFileMd5: content.blob.md5,
      mimeType: content.mimeType,
      blob: content.blob.sha256,
      dedupeMd5: content.dedupe ? content.blob.md5 : null,
      smartFileCreated: now,
      smartFileModified: now,
    },
    placeholder: content.placeholder !== undefined,
  };
}

/** The THMB file of a placeholder whose stored copy is gone: the bytes stored again, then the file (its values as newFile gives them). */
async function storeTile(em: EntityManager, entry: EntryRow, thumb: FileContent, now: Date): Promise<FileRow> {
  const blob = await storeBuffer(em, thumb.placeholder!);
  const { values } = newFile(entry.library, 'THMB', { ...thumb, blob }, now);
  const file = em.create(SmartFile, {
    ...values,
    entry: em.getReference(SmartEntry, entry.smartEntryId),
    library: em.getReference(SmartLibrary, entry.library),
    blob: em.getReference(StoredBlob, blob.sha256),
  });
  await em.flush();
  return rowOf(em, SmartFile, file);
}
