// Content-addressed blob storage in the service's own PostgreSQL database.
//
// Writing: the bytes stream into stored_blob_chunk rows of 1 MiB (BLOB_CHUNK_BYTES) under a fresh content id
// while SHA-256 and MD5 are computed on the way; at the end one upsert names the blob by its
// SHA-256. When that hash is already stored, the new chunks are dropped and the existing
// blob is reused. Memory stays at about one chunk whatever the file size.
// Staging (multipart forms read before their operation runs): the same chunks under a content id
// the caller knows, with no stored_blob row yet; the operation adopts the content (one upsert,
// no copy) inside its own transaction, and whatever was not adopted is deleted afterwards
// (discardStaged). Chunks no stored_blob row names are the purge's orphans if even that fails.
// Reading: chunk by chunk, one statement per chunk.
// Purging: blobs no declared table refers to (a module definition's blobReferences) are deleted once they
// have not been used for a grace period; chunks of writes that never finished are deleted
// after a day.
// The statements are in storage.queries.ts (schema/sql/storage.sql), except the purge of
// unreferenced blobs, whose predicates are the tables the modules declare.
import type { BlobReference } from '../../core/module';
import crypto from 'node:crypto';
import type { ReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import type { FileUpload } from 'graphql-upload-minimal';
import { ServiceError } from '../../core/errors';
import { StoredBlob, StoredBlobChunk } from './blob.entity';
import { insertChunkUncopied, zeroCopyPool } from './chunk-insert';
import { chunkAt, chunksOf, deleteOrphanChunks, deleteUnnamedChunks, insertChunk, upsertBlob } from './storage.queries';

export const BLOB_CHUNK_BYTES = 1024 * 1024;
/** How much of the start of a stream is handed to `inspect` (type detection) before anything is stored. */
export const HEAD_BYTES = 64 * 1024;

export interface BlobInfo {
  sha256: string;
  md5: string;
  bytes: number;
}

const sqlEm = (em: EntityManager) => em as unknown as SqlEntityManager;

class ChunkWriter {
  bytes = 0;
  private readonly sha = crypto.createHash('sha256');
  private readonly md5 = crypto.createHash('md5');
  /**
   * One buffer, filled and written again and again: no allocation per chunk. A stream gets a
   * whole chunk at once; content whose size is known (storeBuffer) gets a buffer of that size when
   * smaller: a 50-byte shortcut took a 1 MiB buffer, half the CPU of creating a URL entry.
   */
  private readonly chunk: Buffer;
  private filled = 0;
  private seq = 0;

  constructor(
    private readonly em: EntityManager,
    readonly contentId: string = crypto.randomUUID(),
    knownBytes = BLOB_CHUNK_BYTES,
  ) {
    this.chunk = Buffer.allocUnsafeSlow(Math.max(1, Math.min(BLOB_CHUNK_BYTES, knownBytes)));
  }

  async write(data: Buffer): Promise<void> {
    this.sha.update(data);
    this.md5.update(data);
    this.bytes += data.length;
    let offset = 0;
    while (offset < data.length) {
      const n = data.copy(this.chunk, this.filled, offset, Math.min(data.length, offset + this.chunk.length - this.filled));
      this.filled += n;
      offset += n;
      if (this.filled === this.chunk.length) await this.flush();
    }
  }

  /**
   * Sent as a bound binary parameter, written to the socket as it is where it can be
   * (chunk-insert.ts), otherwise as a bound parameter of insertChunk (MikroORM's own insert would
   * inline the bytes into the SQL text as hex, several copies per chunk). Either way the server or
   * the driver has all of it once the insert resolved, so the buffer can be refilled.
   */
  private async flush(): Promise<void> {
    const data = this.chunk.subarray(0, this.filled);
    const seq = this.seq++;
    this.filled = 0;
    const pool = zeroCopyPool(this.em);
    if (pool) await insertChunkUncopied(pool, this.contentId, seq, data);
    else await insertChunk.run(this.em, { contentId: this.contentId, seq, data });
  }

  /** Writes what is left and answers the content's hashes; no blob row yet. */
  async close(): Promise<BlobInfo> {
    if (this.filled) await this.flush();
    return { sha256: this.sha.digest('hex'), md5: this.md5.digest('hex'), bytes: this.bytes };
  }

  async finish(): Promise<BlobInfo> {
    const info = await this.close();
    if ((await nameBlob(this.em, this.contentId, info)) !== this.contentId) await this.discard();
    return info;
  }

  async discard(): Promise<void> {
    await this.em.nativeDelete(StoredBlobChunk, { contentId: this.contentId });
  }
}

/**
 * Names content by its hash: the blob row for these chunks, or, when the hash is already
 * stored, the existing blob (marked used). Answers the content id the blob reads from.
 */
async function nameBlob(em: EntityManager, contentId: string, info: BlobInfo): Promise<string> {
  const [row] = await upsertBlob.run(em, { contentId, ...info });
  return row.contentId;
}

export function tooLarge(maxBytes: number, field: string): ServiceError {
  return new ServiceError('WSMaxFileUploadSizeException', `The file exceeds the maximum upload size of ${maxBytes} bytes.`, { field });
}

export interface StoreStreamOptions {
  maxBytes: number;
  /** The field named in errors about this content. */
  field: string;
  /** Sees the first HEAD_BYTES (or the whole content when shorter) before anything is stored; throws to refuse it. */
  inspect?: (head: Buffer) => Promise<void> | void;
  /**
   * The source hands over buffers that nothing else reads afterwards (a multipart part's):
   * each is released once written (see release).
   */
  consume?: boolean;
}

interface Pumped {
  failure?: unknown;
  /** The source itself broke off or failed (as opposed to `handle` refusing or failing). */
  sourceFailed: boolean;
}

/**
 * Feeds `source` to `handle` one chunk at a time (the source is paused while a chunk is
 * handled: memory stays at one chunk). After the first failure the rest of the source is read
 * and discarded, so that a multipart body can go on to its next part.
 */
function pump(source: Readable, handle: (chunk: Buffer) => Promise<void>): Promise<Pumped> {
  let failure: unknown;
  let sourceFailed = false;
  return new Promise<Pumped>((resolve) => {
    // Its 'close' has come and gone: nothing more will be read from it.
    if (source.destroyed) return resolve({ failure: source.errored ?? new Error('upload stream closed early'), sourceFailed: true });
    let inflight: Promise<void> = Promise.resolve();
    const done = () => void inflight.then(() => resolve({ failure, sourceFailed }));
    source.on('data', (chunk: Buffer) => {
      if (failure) return;
      source.pause();
      inflight = handle(chunk).then(
        () => void source.resume(),
        (err) => {
          failure = err;
          source.resume();
        },
      );
    });
    source.once('end', done);
    source.once('error', (err) => {
      failure ??= err;
      sourceFailed = true;
      done();
    });
    source.once('close', () => {
      if (!source.readableEnded && !failure) {
        failure = new Error('upload stream closed early');
        sourceFailed = true;
      }
      done();
    });
  });
}

type Detachable = ArrayBuffer & { readonly detached: boolean; transfer(newByteLength?: number): ArrayBuffer };

/**
 * Frees a chunk's memory now instead of at V8's next collection. A multipart part arrives in
 * buffers the HTTP parser allocates per socket read (up to 64 KiB) and busboy hands on whole;
 * they are external memory, which hardly hastens a collection: left to it, they raised the peak
 * RSS of a 25 MB upload by 11-15 MB (bench/upload-rss.ts, the driver's copies already gone).
 * Detaching a buffer releases its memory at once. Only a chunk that spans its whole buffer is
 * released: a buffer shared with anything else (the node pool's small buffers, a read that also
 * held a boundary or another part) is left to the collector.
 */
function release(chunk: Buffer): void {
  const buffer = chunk.buffer as Detachable;
  if (chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength && buffer instanceof ArrayBuffer && !buffer.detached) {
    buffer.transfer(0);
  }
}

/**
 * Streams `source` into storage. On any failure the rest of the source is read and discarded
 * (a multipart request can only finish once every file part was read), the chunks written so
 * far are deleted, and the error is thrown.
 */
export async function storeStream(em: EntityManager, source: Readable, options: StoreStreamOptions): Promise<BlobInfo> {
  const writer = new ChunkWriter(em);
  let head: Buffer[] | null = [];
  let headBytes = 0;
  let failure: unknown;

  const releaseHead = async () => {
    const bytes = Buffer.concat(head!, headBytes);
    if (options.consume) head!.forEach(release);
    head = null;
    headBytes = 0;
    await options.inspect?.(bytes);
    if (bytes.length) await writer.write(bytes);
  };
  const handle = async (chunk: Buffer) => {
    if (writer.bytes + headBytes + chunk.length > options.maxBytes) throw tooLarge(options.maxBytes, options.field);
    if (!head) {
      await writer.write(chunk);
      if (options.consume) release(chunk);
      return;
    }
    head.push(chunk);
    headBytes += chunk.length;
    if (headBytes >= HEAD_BYTES) await releaseHead();
  };

  const pumped = await pump(source, handle);
  failure = pumped.failure;
  const { sourceFailed } = pumped;
  if (!failure && (source as { truncated?: boolean }).truncated) failure = tooLarge(options.maxBytes, options.field);
  if (!failure && head) await releaseHead().catch((err) => (failure = err));
  if (failure) {
    await writer.discard().catch(() => undefined);
    if (failure instanceof ServiceError) throw failure;
    if ((failure as { status?: number }).status === 413) throw tooLarge(options.maxBytes, options.field);
    if (sourceFailed) throw new ServiceError('WSInvalidParameterException', 'The upload did not complete.', { field: options.field });
    // Every failure here is an Error (stream errors, database errors, inspect's refusals); anything else is wrapped.
    throw failure instanceof Error ? failure : new Error('upload failed', { cause: failure });
  }
  try {
    return await writer.finish();
  } catch (err) {
    await writer.discard().catch(() => undefined);
    throw err;
  }
}

/** Stores bytes already in memory (generated tiles and small documents). */
export async function storeBuffer(em: EntityManager, content: Buffer): Promise<BlobInfo> {
  const writer = new ChunkWriter(em, undefined, content.length);
  await writer.write(content);
  return writer.finish();
}

// ---- staging: content stored before the operation that takes it runs ----

/** Content in chunks that no blob row names yet (see stageStream). */
export interface StagedBlob extends BlobInfo {
  contentId: string;
  /** The first HEAD_BYTES (all of it when shorter): the type is checked when the content is adopted. */
  head: Buffer;
}

/** A part over its size limit while it streamed in; each taker names its own limit (HTTP status as in graphql-upload-minimal). */
export class ContentTooLargeError extends Error {
  readonly status = 413;
  constructor(readonly maxBytes: number) {
    super(`The content exceeds ${maxBytes} bytes.`);
  }
}

export interface StageStreamOptions {
  maxBytes: number;
  /** The chunks' content id, known to the caller before the first byte is written (so it can delete them whatever happens). */
  contentId: string;
  field: string;
}

/**
 * Streams `source` into chunks under `contentId` without naming a blob: the content waits for
 * an operation to adopt it (adoptStaged) or to be deleted (discardStaged). Over `maxBytes` it
 * stops writing, reads the rest of the source and throws ContentTooLargeError; a source that
 * breaks off throws WSInvalidParameterException; either way its chunks are deleted first.
 * The source's chunks are consumed: each one's memory is released once it is written, so the
 * source must hand over buffers nothing else reads afterwards (a multipart part's, as
 * src/rest/multipart.ts passes).
 */
export async function stageStream(em: EntityManager, source: Readable, options: StageStreamOptions): Promise<StagedBlob> {
  const writer = new ChunkWriter(em, options.contentId);
  const head: Buffer[] = [];
  let headBytes = 0;
  const { failure, sourceFailed } = await pump(source, async (chunk) => {
    if (writer.bytes + chunk.length > options.maxBytes) throw new ContentTooLargeError(options.maxBytes);
    if (headBytes < HEAD_BYTES) {
      // A copy: the chunk may be a view of the socket's buffer.
      const part = Buffer.from(chunk.subarray(0, HEAD_BYTES - headBytes));
      head.push(part);
      headBytes += part.length;
    }
    await writer.write(chunk);
    release(chunk);
  });
  let error = failure;
  if (!error && (source as { truncated?: boolean }).truncated) error = new ContentTooLargeError(options.maxBytes);
  if (!error) {
    try {
      return { contentId: options.contentId, ...(await writer.close()), head: Buffer.concat(head, headBytes) };
    } catch (err) {
      error = err;
    }
  }
  await writer.discard().catch(() => undefined);
  if (sourceFailed && !(error instanceof ServiceError))
    throw new ServiceError('WSInvalidParameterException', 'The upload did not complete.', { field: options.field });
  throw error;
}

/**
 * Takes staged content into storage inside `em`'s transaction: the same checks as storeStream
 * (size, then `inspect` on the head), then the blob row names the staged chunks, or the blob
 * already stored under the same hash (the staged chunks are then left to discardStaged).
 * Nothing is copied.
 */
export async function adoptStaged(em: EntityManager, staged: StagedBlob, options: StoreStreamOptions): Promise<BlobInfo> {
  // In storeStream's order: a size over the limit within the head is refused before the type.
  if (Math.min(staged.bytes, HEAD_BYTES) > options.maxBytes) throw tooLarge(options.maxBytes, options.field);
  await options.inspect?.(staged.head);
  if (staged.bytes > options.maxBytes) throw tooLarge(options.maxBytes, options.field);
  const info = { sha256: staged.sha256, md5: staged.md5, bytes: staged.bytes };
  await nameBlob(em, staged.contentId, info);
  return info;
}

/**
 * Deletes the chunks of these staged contents that no blob row names (not adopted, adopted by
 * a transaction that rolled back, or duplicates of a blob already stored). Safe to repeat.
 */
export async function discardStaged(em: EntityManager, contentIds: string[]): Promise<void> {
  if (!contentIds.length) return;
  await deleteUnnamedChunks.run(em, { contentIds });
}

/** Staged content as a stream, read one chunk per statement. */
export function stagedStream(em: EntityManager, contentId: string): Readable {
  return chunkStream(em, async () => contentId);
}

const STAGED = Symbol('staged blob');

/**
 * A file upload whose content is already staged: storage adopts it (stagedBlobOf) rather than
 * read it again; createReadStream() streams it back for any other reader.
 */
export function stagedFileUpload(em: EntityManager, file: Omit<FileUpload, 'createReadStream'>, staged: StagedBlob): FileUpload {
  return Object.assign({ ...file, createReadStream: () => stagedStream(em, staged.contentId) as ReadStream }, { [STAGED]: staged });
}

/** The staged content behind a file upload, if the multipart layer staged it. */
export function stagedBlobOf(file: unknown): StagedBlob | undefined {
  return file && typeof file === 'object' ? (file as { [STAGED]?: StagedBlob })[STAGED] : undefined;
}

/** The embedded driver answers bytea as Uint8Array, the server driver as Buffer: a view, no copy. */
const asBuffer = (data: Uint8Array) => (Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));

async function contentIdOf(em: EntityManager, sha256: string): Promise<string> {
  const blob = await em.findOne(StoredBlob, { sha256 }, { fields: ['contentId'], disableIdentityMap: true });
  if (!blob) throw new Error(`blob ${sha256} is not stored`);
  return blob.contentId;
}

/** The blob's bytes as a stream, read one chunk per statement. */
export function blobStream(em: EntityManager, sha256: string): Readable {
  return chunkStream(em, () => contentIdOf(em, sha256));
}

function chunkStream(em: EntityManager, contentIdOf: () => Promise<string>): Readable {
  async function* chunks() {
    const contentId = await contentIdOf();
    for (let seq = 0; ; seq++) {
      const [row] = await chunkAt.run(em, { contentId, seq });
      if (!row) return;
      yield asBuffer(row.data);
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

/** The whole blob in memory: only for content already bounded in size (tiles, thumbnails). */
export async function readBlob(em: EntityManager, sha256: string): Promise<Buffer> {
  const contentId = await contentIdOf(em, sha256);
  const rows = await chunksOf.run(em, { contentId });
  return Buffer.concat(rows.map((r) => asBuffer(r.data)));
}

// ---- purge ----

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

export interface PurgeResult {
  blobs: number;
  orphanChunks: number;
}

/**
 * Deletes blobs nothing refers to and that were not used for `graceMs` (an upload that just
 * stored a blob has not written the row referring to it yet), then chunks of writes that
 * never completed (older than `orphanAgeMs`).
 */
export async function purgeUnusedBlobs(
  em: EntityManager,
  references: readonly BlobReference[],
  graceMs = 60 * 60 * 1000,
  orphanAgeMs = 24 * 60 * 60 * 1000,
): Promise<PurgeResult> {
  // The modules declare these (blobReferences); they are spliced into SQL, so held to identifiers.
  for (const r of references)
    if (!IDENTIFIER.test(r.table) || !IDENTIFIER.test(r.column)) throw new Error(`invalid blob reference ${r.table}.${r.column}`);
  const unreferenced =
    references.map((r) => `not exists (select 1 from "${r.table}" x where x."${r.column}" = b.sha256)`).join(' and ') || 'true';
  const deleted = await sqlEm(em).execute<{ content_id: string }[]>(
    `delete from stored_blob b where b.last_used_at < now() - make_interval(secs => ?) and ${unreferenced} returning b.content_id`,
    [graceMs / 1000],
  );
  if (deleted.length) await em.nativeDelete(StoredBlobChunk, { contentId: { $in: deleted.map((d) => d.content_id) } });
  const [orphans] = await deleteOrphanChunks.run(em, { seconds: orphanAgeMs / 1000 });
  return { blobs: deleted.length, orphanChunks: orphans.deleted };
}
