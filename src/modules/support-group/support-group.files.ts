// The form's file parts, taken into storage inside the operation's transaction. A REST form's
// parts were staged while the form was read (rest/multipart.ts): each is adopted without
// copying. A GraphQL multipart request delivers its files one after the other, the next one
// only once the current one has been read, so parts are taken in arrival order (whichever
// upload settles first), never in a fixed order that could wait for a part stuck behind an
// unread one. Types and sizes follow the library's upload rules.
import type { EntityManager } from '@mikro-orm/core';
import type { FileUpload } from 'graphql-upload-minimal';
import type { Config } from '../../config';
import { ServiceError, invalidParameter } from '../../core/errors';
import { isDependencyFailure } from '../../core/error-mapping';
import { adoptStaged, readBlob, stagedBlobOf, storeStream, tooLarge, type BlobInfo, type StoreStreamOptions } from '../storage';
import { detectType, type DetectedType } from '../storage';
import { TILE_TYPES } from '../library';
import { assertReadableImage } from '../library';
import { cleanFilename } from '../library';
import type { UploadValue } from './support-group.inputs';

/** image: team and asset images (tile rules); version: asset version files (file rules). */
export type PartKind = 'image' | 'version';

export interface FilePart {
  /** The form field (REST part name) errors name. */
  field: string;
  kind: PartKind;
  upload: UploadValue;
  /** Version files of html assets may also be an HTML page or a ZIP bundle of pages. */
  html?: boolean;
  /** Set on the parts of an asset that has no text fields: such a file arriving is an error naming this field. */
  nameField?: string;
}

export interface StoredPart extends BlobInfo {
  mimeType: string;
  fileName: string;
}

export const HTML_VERSION_TYPES = ['text/html', 'application/zip'];

// HTML has no magic bytes: a document starts, after an optional BOM, blanks and comments,
// with a doctype or an <html> tag.
const HTML_START = /^\ufeff?\s*(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html)[\s>]/i;

function sniffHtml(head: Buffer): DetectedType | undefined {
  return HTML_START.test(head.toString('utf8')) ? { ext: 'html', mime: 'text/html' } : undefined;
}

const limitOf = (config: Config, part: FilePart) => (part.kind === 'image' ? config.tileMaxBytes : config.uploadMaxBytes);

function allowedTypes(config: Config, part: FilePart): string[] {
  if (part.kind === 'image') return TILE_TYPES;
  return part.html ? [...config.uploadAllowedTypes, ...HTML_VERSION_TYPES] : config.uploadAllowedTypes;
}

/**
 * The transport's own failures (a mapped part never sent, a part over the transport's size
 * limit, a part that could not be read). Storage that failed while a REST part was staged
 * stays itself, for the service boundary to answer as the service being unavailable.
 */
function transportFailure(err: unknown, part: FilePart, config: Config): unknown {
  if (err instanceof ServiceError) return err;
  if ((err as { status?: unknown })?.status === 413) return tooLarge(limitOf(config, part), part.field);
  if (isDependencyFailure(err)) return err;
  return invalidParameter(part.field, `The file part ${part.field} is missing or could not be read.`);
}

async function storePart(em: EntityManager, config: Config, part: FilePart, file: FileUpload): Promise<StoredPart> {
  const allowed = allowedTypes(config, part);
  let detected: DetectedType | undefined;
  const options: StoreStreamOptions = {
    maxBytes: limitOf(config, part),
    field: part.field,
    inspect: async (head) => {
      detected = (await detectType(head)) ?? (part.html ? sniffHtml(head) : undefined);
      if (!detected || !allowed.includes(detected.mime)) {
        throw new ServiceError('WSUnsupportedTypeException', `${part.field} is not one of the accepted types (${allowed.join(', ')}).`, {
          field: part.field,
        });
      }
    },
  };
  const staged = stagedBlobOf(file);
  let blob: BlobInfo;
  if (staged) {
    blob = await adoptStaged(em, staged, options);
  } else {
    let source;
    try {
      source = file.createReadStream();
    } catch (err) {
      throw transportFailure(err, part, config);
    }
    blob = await storeStream(em, source, options);
  }
  if (part.kind === 'image') await assertReadableImage(await readBlob(em, blob.sha256), part.field);
  return { ...blob, mimeType: detected!.mime, fileName: cleanFilename(file.filename ?? '', detected!.ext) };
}

type Settled = { part: FilePart; file: FileUpload | null } | { part: FilePart; error: unknown };

/**
 * Stores every part that arrives, in arrival order, inside `em`'s transaction; an absent part
 * (null) is skipped. The first failure is thrown at once: the request's remaining file
 * streams are drained by the GraphQL upload middleware; REST parts not adopted are deleted by
 * the multipart layer once the operation is over.
 */
export async function receiveParts(em: EntityManager, config: Config, parts: FilePart[]): Promise<Map<string, StoredPart>> {
  const stored = new Map<string, StoredPart>();
  const waiting = new Map<string, Promise<Settled>>();
  for (const part of parts) {
    if (part.upload === undefined || part.upload === null) continue;
    waiting.set(
      part.field,
      Promise.resolve(part.upload).then(
        (file) => ({ part, file }),
        (error: unknown) => ({ part, error }),
      ),
    );
  }
  while (waiting.size) {
    const settled = await Promise.race(waiting.values());
    const { part } = settled;
    waiting.delete(part.field);
    if ('error' in settled) throw transportFailure(settled.error, part, config);
    if (!settled.file) continue;
    if (part.nameField) {
      throw invalidParameter(part.nameField, `${part.nameField} is required: ${part.field} belongs to an asset without a name and a type.`);
    }
    stored.set(part.field, await storePart(em, config, part, settled.file));
  }
  return stored;
}
