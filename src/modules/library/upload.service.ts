// uploadSmartFile / uploadTileImage: take the content into shared storage (a REST upload was
// staged while its form was read; a GraphQL one streams in now), check its type from its
// magic bytes, and keep a temporary upload row for the createSmartEntry that follows
// (on any instance). Expired uploads are purged with the blobs nothing else refers to.
import crypto from 'node:crypto';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/core';
import type { FileUpload } from 'graphql-upload-minimal';
import type { MiddlewareFn } from 'type-graphql';
import type { Config } from '../../config';
import type { Context } from '../../context';
import { ServiceError } from '../../core/errors';
import { User } from '../user';
import {
  adoptStaged,
  detectType,
  purgeUnusedBlobs,
  readBlob,
  stagedBlobOf,
  storeStream,
  StoredBlob,
  tooLarge,
  type BlobInfo,
  type DetectedType,
  type PurgeResult,
  type StoreStreamOptions,
} from '../storage';
import type { BlobReference } from '../../core/module';
import { authorisationStep, publishesAnyLibrary } from './library.service';
import { LIMITS, TILE_TYPES, UPLOAD_TTL_MS } from './library.limits';
import { SmartUpload, type UploadKind } from './upload.entity';
import { assertReadableImage } from './thumbnail';
import { consume } from '../../core/rate-limit';

/**
 * Characters a file name never keeps: controls (C0, DEL, C1), line and paragraph separators, and
 * the bidirectional marks, embeddings, overrides and isolates that make `invoice\u202Efdp.exe`
 * read as `invoiceexe.pdf`. Removed, not replaced: what is left is the name as a person reads it.
 */
const NOT_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * The client's file name as stored and echoed (docs/security.md, "Hostile input"): no directory
 * part, none of NOT_IN_NAMES, trimmed, at most LIMITS.filename characters with its extension (up
 * to 10 characters after the last dot) kept; `upload.<ext>` when nothing is left.
 */
export function cleanFilename(raw: string, ext: string): string {
  const base = path.posix.basename(raw.replace(/\\/g, '/').replace(NOT_IN_NAMES, '')).trim();
  const name = base || `upload.${ext}`;
  const chars = [...name];
  if (chars.length <= LIMITS.filename) return name;
  const dot = name.lastIndexOf('.');
  const suffix = dot > 0 && name.length - dot <= 11 ? name.slice(dot) : '';
  return (
    chars
      .slice(0, LIMITS.filename - [...suffix].length)
      .join('')
      .trim() + suffix
  );
}

const limitOf = (config: Config, kind: UploadKind) => (kind === 'FILE' ? config.uploadMaxBytes : config.tileMaxBytes);

/**
 * The multipart layer's own failures (file part missing, body cut short, too large) carry an
 * HTTP status; they surface while the Upload argument resolves, before the resolver runs.
 */
export function UploadFailures(kind: UploadKind): MiddlewareFn<Context> {
  return async ({ context }, next) => {
    try {
      return await next();
    } catch (err) {
      if (err instanceof ServiceError || typeof (err as { status?: unknown })?.status !== 'number') throw err;
      if ((err as { status: number }).status === 413) throw tooLarge(limitOf(context.config, kind), 'file');
      throw new ServiceError('WSInvalidParameterException', 'The file part is missing or could not be read.', { field: 'file' });
    }
  };
}

/**
 * Whether the caller may upload: a library publisher, within the upload rate limit. The REST
 * routes run it before the form is read (RouteDef.before), so nothing of a refused caller is
 * ever staged; the resolver runs it again at no cost (the answer is kept for the request).
 */
export function admitUpload(ctx: Context): Promise<number> {
  return ctx.loaders.uploadAdmission.get(async () => {
    const { user } = await authorisationStep(() => ctx.auth.requireUser());
    if (!(await authorisationStep(() => publishesAnyLibrary(ctx.em, user.uId)))) {
      throw new ServiceError('WSInsufficientPrivilegesException', 'Only library publishers may upload files.');
    }
    await consume(ctx, 'upload', user.uId);
    return user.uId;
  });
}

export async function acceptUpload(ctx: Context, upload: FileUpload, kind: UploadKind): Promise<SmartUpload> {
  // Credentials first: an upload of an unknown caller is never stored (its stream is drained,
  // or, on REST, refused before the form is read).
  const user = { uId: await admitUpload(ctx) };
  const allowed = kind === 'FILE' ? ctx.config.uploadAllowedTypes : TILE_TYPES;
  let detected: DetectedType | undefined;
  const options: StoreStreamOptions = {
    maxBytes: limitOf(ctx.config, kind),
    field: 'file',
    inspect: async (head) => {
      detected = await detectType(head);
      if (!detected || !allowed.includes(detected.mime)) {
        throw new ServiceError('WSUnsupportedTypeException', `The content is not one of the accepted types (${allowed.join(', ')}).`, {
          field: 'file',
        });
      }
    },
  };
  const record = async (em: EntityManager, blob: BlobInfo) => {
    if (kind === 'TILE') await assertReadableImage(await readBlob(em, blob.sha256), 'file');
    const now = Date.now();
    const row = em.create(SmartUpload, {
      tempName: `${crypto.randomBytes(18).toString('base64url')}.${detected!.ext}`,
      kind,
      user: em.getReference(User, user.uId),
      originalFilename: cleanFilename(upload.filename ?? '', detected!.ext),
      mimeType: detected!.mime,
      ext: detected!.ext,
      blob: em.getReference(StoredBlob, blob.sha256),
      bytes: blob.bytes,
      md5: blob.md5,
      createdAt: new Date(now),
      expiresAt: new Date(now + UPLOAD_TTL_MS),
    });
    await em.flush();
    return row;
  };
  // A REST upload is already staged: the blob row and the upload row are written together, so
  // a failure leaves the staged content unadopted (deleted by the multipart layer).
  const staged = stagedBlobOf(upload);
  if (staged) return ctx.em.transactional(async (tx) => record(tx, await adoptStaged(tx, staged, options)));
  // A GraphQL multipart upload streams in now, from the request's buffers, read by nothing else.
  return record(ctx.em, await storeStream(ctx.em, upload.createReadStream(), { ...options, consume: true }));
}

/** The caller's unexpired upload of this kind, or WSInvalidParameterException naming the field. */
export async function findUpload(
  em: EntityManager,
  userId: number,
  tempName: string,
  kind: UploadKind,
  field: string,
): Promise<SmartUpload> {
  const upload = await em.findOne(SmartUpload, { tempName, kind, user: userId, expiresAt: { $gt: new Date() } });
  if (!upload)
    throw new ServiceError(
      'WSInvalidParameterException',
      `${field} names no upload of yours (uploads expire after 24 hours and are used once).`,
      { field },
    );
  return upload;
}

/** Deletes expired uploads, then the blobs nothing refers to any more. Safe on every instance at once. */
export async function purgeExpiredUploads(
  em: EntityManager,
  references: readonly BlobReference[],
): Promise<PurgeResult & { uploads: number }> {
  const uploads = await em.nativeDelete(SmartUpload, { expiresAt: { $lte: new Date() } });
  return { uploads, ...(await purgeUnusedBlobs(em, references)) };
}
