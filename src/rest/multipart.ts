// Multipart bodies for REST routes whose GraphQL document takes Upload variables. The whole form
// is read before the operation runs, so its parts may come in any order (text after files,
// interleaved asset by asset, files first): text parts become strings, and each declared file
// part is staged in shared storage as it arrives (blob-store.ts stageStream: 1 MiB chunks, one
// part at a time, the request paused while a chunk is written), then reaches the operation as
// a graphql-upload-minimal Upload of a FileUpload the storage layer adopts without copying
// (stagedBlobOf); its createReadStream() streams the staged content back for any other reader.
// After the operation, cleanup() deletes the staged content it did not adopt; a body that
// breaks off or is malformed deletes everything staged before parseMultipart rejects.
// Text parts are bounded by the route (form-parts.ts): a part it does not declare, a part over its
// own bound, more text than its parts together, or more parts than it declares is refused at
// once, the rest of the body discarded as it comes and the connection closed after the answer,
// and busboy buffers nothing of an undeclared part
// (patches/busboy+1.6.0.patch: a text part's limit is a function of its name, 0 for those).
import { isUtf8 } from 'node:buffer';
import crypto from 'node:crypto';
import type Koa from 'koa';
import { closeAfterAnswer } from '../http/linger';
import type { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/core';
import { Upload, type FileUpload } from 'graphql-upload-minimal';
import type { Config } from '../config';
import { ServiceError } from '../core/errors';
import { isText } from '../core/text';

// busboy is also graphql-upload-minimal's parser; both resolve to the one hoisted copy.
const busboy: (options: unknown) => NodeJS.WritableStream & NodeJS.EventEmitter = require('busboy');

/**
 * Where a form's file parts are kept as they arrive, in chunks (the storage module's staging): each
 * part is staged, handed to the operation as an Upload, and what the operation did not adopt is discarded.
 */
export interface UploadStaging<Staged = unknown> {
  stage(em: EntityManager, source: Readable, options: { maxBytes: number; contentId: string; field: string }): Promise<Staged>;
  upload(em: EntityManager, file: Omit<FileUpload, 'createReadStream'>, staged: Staged): FileUpload;
  discard(em: EntityManager, contentIds: string[]): Promise<void>;
  /** The SHA-256 (hex) of a staged file's content (an Idempotency-Key's fingerprint counts it). */
  digestOf(file: unknown): string | undefined;
}

export interface MultipartSpec {
  /** Names of the file parts; each reaches `variables(req)` as an Upload in `req.body`. */
  files: string[];
  /** Where the file parts are staged. */
  staging: UploadStaging;
  /**
   * Largest file part accepted, from configuration, for the part named `field` (routes whose
   * parts share one limit may ignore it). A larger part stops being stored as soon as it goes
   * over: its Upload rejects with an error of status 413, which the operation reports as
   * WSMaxFileUploadSizeException with its own limit.
   */
  maxFileSize: (config: Config, field: string) => number;
  /**
   * Characters of the text parts whose input fields carry no length rule because the service
   * checks the bound itself (a flat form's numbered parts, by prefix): they bound the part as a
   * rule would (form-parts.ts). A text part neither names is held to 1 MiB.
   */
  maxLength?: Record<string, number>;
}

/** The text parts a route admits (form-parts.ts works them out from its document). */
export interface TextParts {
  /** Bytes the text part `name` may hold; undefined for a part the route does not declare as text. */
  bound(name: string): number | undefined;
  /** Parts a form may hold: its declared text parts and file parts. */
  maxParts: number;
  /** Bytes of text a form may hold: the bounds of its declared text parts together. */
  maxTextBytes: number;
}

export interface ParsedMultipart {
  /** The text parts and an Upload for each declared file part that came. */
  body: Record<string, unknown>;
  /**
   * Deletes the staged content of every file part the operation did not adopt (all of it when
   * the operation failed: its transaction rolled the adoption back). Call once the operation
   * has finished, whatever its outcome; never rejects (what a failing database keeps is purged
   * as orphan chunks after a day).
   */
  cleanup(): Promise<void>;
}

/** The runtime Upload settles through these; its type declarations leave them out. */
type PendingUpload = Upload & { resolve(file: FileUpload): void; reject(error: Error): void };

const missing = (name: string) => new ServiceError('WSInvalidParameterException', `The file part ${name} is missing.`, { field: name });
const malformed = () =>
  new ServiceError('WSInvalidParameterException', 'The multipart body is malformed or incomplete.', { field: 'body' });
const repeated = (name: string) => new ServiceError('WSInvalidParameterException', `The part ${name} is repeated.`, { field: name });
const unreadCharset = (name: string, charset: string) =>
  new ServiceError(
    'WSInvalidParameterException',
    `${name} is in a charset the service does not read (${charset.slice(0, 40)}); send UTF-8.`,
    {
      field: name,
    },
  );
const notUtf8 = (name: string) =>
  new ServiceError('WSInvalidParameterException', `${name} holds bytes that are not UTF-8.`, { field: name });
const undeclared = (name: string, files: readonly string[]) =>
  new ServiceError(
    'WSInvalidParameterException',
    files.includes(name) ? `The part ${name} must be a file (a part with a filename).` : `The form has no part named ${name}.`,
    { field: name },
  );
const tooLong = (name: string, bytes: number) =>
  new ServiceError('WSFieldLengthException', `The part ${name} is longer than the ${bytes} bytes it may hold.`, { field: name });
const tooMuchText = (bytes: number) =>
  new ServiceError('WSLimitExceededException', `The form's text parts hold more than ${bytes} bytes together.`, {
    field: 'body',
    status: 413,
  });
const tooManyParts = (parts: number) =>
  new ServiceError('WSLimitExceededException', `The form holds more than ${parts} parts.`, { field: 'body', status: 400 });
const notText = (name: string) =>
  new ServiceError('WSInvalidParameterException', `${name} holds a character that is not text (NUL or an unpaired surrogate).`, {
    field: name,
  });

const NOT_UTF8 = Symbol('not UTF-8');
const UNREAD_CHARSET = Symbol('charset not read');

/**
 * A text part's value: a part that declares no charset is UTF-8, its bytes (busboy's latin1 of
 * them) read strictly, so that bytes that are not UTF-8 are refused rather than replaced with
 * U+FFFD. A part that declares one was decoded by busboy in it (UTF-8, ISO-8859-1 and
 * windows-1252, UTF-16LE); busboy answers nothing for a charset it does not know.
 */
function textOfPart(raw: string | undefined, declared: string | undefined): string | typeof NOT_UTF8 | typeof UNREAD_CHARSET {
  if (raw === undefined) return UNREAD_CHARSET;
  if (declared !== undefined) return raw;
  const bytes = Buffer.from(raw, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : NOT_UTF8;
}

/**
 * Reads the whole form, staging its declared file parts in storage through `em` (outside any
 * transaction: the operation adopts them in its own). Rejects with WSInvalidParameterException
 * (field body) for a body that is not multipart (415), has no boundary, is malformed or breaks
 * off, and naming the part for a part given twice or a text part that is not UTF-8 text, having
 * deleted whatever it staged.
 */
export function parseMultipart(
  ctx: Koa.Context,
  spec: MultipartSpec,
  text: TextParts,
  config: Config,
  em: EntityManager,
): Promise<ParsedMultipart> {
  if (!ctx.request.is('multipart/form-data')) {
    throw new ServiceError('WSInvalidParameterException', 'The body must be multipart/form-data.', { field: 'body', status: 415 });
  }
  const req = ctx.req;
  const store = em.fork();
  const uploads = new Map(spec.files.map((name) => [name, new Upload() as PendingUpload]));
  const limits = new Map(spec.files.map((name) => [name, spec.maxFileSize(config, name)]));
  // No prototype: a part named __proto__ is a property like any other.
  const body: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  /** Content ids of every part staged or being staged, adopted or not. */
  const contentIds: string[] = [];
  /** File parts accepted and not yet read to their end (the one being staged, those queued behind it). */
  const open = new Set<Readable>();
  const received = new Set<string>();
  let textBytes = 0;
  /** Parts are staged one after the other: one chunk buffer at a time, whatever the number of parts. */
  let staging: Promise<void> = Promise.resolve();
  let cleaned: Promise<void> | undefined;
  const { staging: stager } = spec;
  const cleanup = () =>
    (cleaned ??= stager.discard(store, contentIds).catch((err) => {
      (ctx.state.logger as { warn?: (o: unknown, m: string) => void } | undefined)?.warn?.(
        { err },
        'staged uploads not deleted; the purge removes them',
      );
    }));

  return new Promise((resolve, reject) => {
    let settled = false;
    /** The first part that makes the form unusable (repeated, not text): answered once the body is read. */
    let refusal: ServiceError | undefined;
    let parser: NodeJS.WritableStream & NodeJS.EventEmitter;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // A text part that declares no charset keeps its bytes (latin1 maps each to one
        // character), read as UTF-8 strictly below.
        defCharset: 'latin1',
        // One byte over the largest limit marks a part as too large (busboy flags a file that
        // reaches the limit and discards the rest); each part's own limit is checked while it is staged.
        // A text part's limit is its bound and a byte (busboy flags a part that reaches it), 0 for
        // one the route does not declare; one part past the declared ones is one too many.
        limits: {
          fileSize: Math.max(0, ...limits.values()) + 1,
          files: spec.files.length + 1,
          fieldSize: (name: string | undefined) => {
            const bound = name === undefined ? undefined : text.bound(name);
            return bound === undefined ? 0 : bound + 1;
          },
          parts: text.maxParts + 1,
        },
      });
    } catch {
      // No boundary, or a content type busboy cannot read: nothing was staged; the body is
      // discarded and the answer closes the connection.
      closeAfterAnswer(ctx);
      reject(malformed());
      return;
    }
    // `charset`: the charset the part declared (patches/busboy+1.6.0.patch), which busboy decoded it by.
    parser.on('field', (name: string, raw: string | undefined, info: { charset?: string; valueTruncated: boolean }) => {
      if (settled) return;
      const bound = text.bound(name);
      if (bound === undefined) return refuse(undeclared(name, spec.files));
      if (info.valueTruncated) return refuse(tooLong(name, bound));
      textBytes += raw?.length ?? 0;
      if (textBytes > text.maxTextBytes) return refuse(tooMuchText(text.maxTextBytes));
      if (Object.hasOwn(body, name) || received.has(name)) refusal ??= repeated(name);
      const value = textOfPart(raw, info.charset);
      if (typeof value !== 'string') refusal ??= value === NOT_UTF8 ? notUtf8(name) : unreadCharset(name, info.charset!);
      else if (!isText(value)) refusal ??= notText(name);
      else body[name] = value;
    });
    parser.on('file', (name: string, stream: Readable, info: { filename?: string; encoding: string; mimeType: string }) => {
      // Its reader, if any, sees an error through its own listener; a body that breaks off
      // destroys the part being read with one, which must not be an unhandled 'error' event.
      stream.on('error', () => undefined);
      const upload = uploads.get(name);
      if (upload && (received.has(name) || Object.hasOwn(body, name))) refusal ??= repeated(name);
      // Undeclared parts, repeats of a part and parts after a refusal are read and dropped.
      if (settled || !upload || received.has(name) || refusal) {
        stream.resume();
        return;
      }
      received.add(name);
      open.add(stream);
      const contentId = crypto.randomUUID();
      contentIds.push(contentId);
      const file = { fieldName: name, filename: info.filename ?? '', mimetype: info.mimeType, encoding: info.encoding };
      staging = staging.then(async () => {
        try {
          // Failed while queued behind the previous part (the body broke off).
          if (stream.destroyed) throw malformed();
          const staged = await stager.stage(store, stream, { maxBytes: limits.get(name)!, contentId, field: name });
          upload.resolve(stager.upload(store, file, staged));
        } catch (err) {
          // Over its limit, or storage failing: the operation reports it when it takes the part.
          upload.reject(err as Error);
        } finally {
          open.delete(stream);
          // Whatever the stager left unread is dropped, so that the form goes on to its next part.
          if (!stream.readableEnded) stream.resume();
        }
      });
    });
    parser.once('close', () => {
      if (settled) return;
      void staging.then(() => {
        if (settled) return;
        settled = true;
        if (refusal) {
          const refused = refusal;
          for (const [, u] of uploads) if (!u.file) u.reject(refused);
          void cleanup().then(() => reject(refused));
          return;
        }
        // The form is complete: a part that did not come is absent (not in the body), as an
        // optional field left out; its Upload rejects for any caller still holding it.
        for (const [n, u] of uploads) {
          if (received.has(n)) body[n] = u;
          else u.reject(missing(n));
        }
        resolve({ body, cleanup });
      });
    });
    /**
     * A body that broke off or is malformed (answered as malformed), or a part past the route's
     * bounds (answered as `refused`): the part being read fails and those queued behind it too
     * (stageStream deletes their chunks), the rest of the body is discarded as it comes, and
     * everything staged is deleted before the failure is answered (a refusal on a connection
     * then closed).
     */
    function fail(err: Error, refused?: ServiceError): void {
      if (settled) return;
      settled = true;
      const answer = refused ?? malformed();
      for (const [, u] of uploads) if (!u.file) u.reject(answer);
      for (const stream of open) {
        if (!stream.readableEnded) stream.destroy(err);
      }
      req.unpipe(parser);
      if (refused) closeAfterAnswer(ctx);
      else req.resume();
      void staging.then(cleanup).then(() => reject(answer));
    }
    function refuse(err: ServiceError): void {
      fail(err, err);
    }
    // One part past those declared: a repeated part, if that is what it is, is named.
    parser.on('partsLimit', () => refuse(refusal ?? tooManyParts(text.maxParts)));
    parser.on('error', (err: Error) => fail(err));
    // A client that goes away mid-body never ends the stream: fail the parse rather than
    // wait for parts that will not come.
    req.once('close', () => {
      if (!req.readableEnded) fail(new Error('The request body broke off.'));
    });
    req.pipe(parser);
  });
}

/**
 * After a GraphQL multipart request: reads and discards the file streams no resolver took, so
 * the request can finish (graphqlUploadKoa waits for it) even when an operation failed before
 * reading its upload.
 */
export function drainUploads(value: unknown, depth = 0): void {
  if (!value || typeof value !== 'object' || depth > 8) return;
  if (value instanceof Upload) {
    value.promise.then(
      (file) => {
        try {
          file.createReadStream().resume();
        } catch {
          // Already taken by a resolver, which reads it to the end.
        }
      },
      () => undefined,
    );
    return;
  }
  for (const v of Object.values(value)) drainUploads(v, depth + 1);
}
