// Multipart bodies for REST routes whose GraphQL document takes Upload variables: text parts
// become strings, the declared file parts become graphql-upload-minimal Upload values, so a
// resolver streams a REST upload exactly as it streams a GraphQL multipart upload. Nothing is
// buffered: the body is handed over when the first file part starts (text parts go first,
// as in the GraphQL multipart request spec), and the file streams straight to the resolver.
import type Koa from 'koa';
import type { Readable } from 'node:stream';
import { Upload, type FileUpload } from 'graphql-upload-minimal';
import type { Config } from '../config';
import { ServiceError } from '../graphql/errors';

// busboy is also graphql-upload-minimal's parser; both resolve to the one hoisted copy.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const busboy: (options: unknown) => NodeJS.WritableStream & NodeJS.EventEmitter = require('busboy');

export interface MultipartSpec {
  /** Names of the file parts; each reaches `variables(req)` as an Upload in `req.body`. */
  files: string[];
  /** Largest file part accepted, from configuration (larger ones fail with WSMaxFileUploadSizeException). */
  maxFileSize: (config: Config) => number;
}

export interface ParsedMultipart {
  body: Record<string, unknown>;
  /** Settles once the whole request body has been read (answering earlier resets the client's upload). */
  finished: Promise<void>;
  /** Reads and discards every file part no resolver consumed, so that `finished` can settle. */
  drain(): void;
}

/** The runtime Upload settles through these; its type declarations leave them out. */
type PendingUpload = Upload & { resolve(file: FileUpload): void; reject(error: Error): void };

const MISSING = Symbol('missing part');
const missing = (name: string) => Object.assign(new ServiceError('WSInvalidParameterException', `The file part ${name} is missing.`, { field: name }), { [MISSING]: true });
const malformed = () => new ServiceError('WSInvalidParameterException', 'The multipart body is malformed or incomplete.', { field: 'body' });

/** True for the rejection of a part the client did not send, as opposed to a body that broke off
 * or was malformed: only the former may be read as "absent" by routes whose files are optional. */
export function isMissingPart(err: unknown): boolean {
  return Boolean(err && typeof err === 'object' && (err as Record<symbol, unknown>)[MISSING]);
}

export function parseMultipart(ctx: Koa.Context, spec: MultipartSpec, config: Config): Promise<ParsedMultipart> {
  if (!ctx.request.is('multipart/form-data')) {
    throw new ServiceError('WSInvalidParameterException', 'The body must be multipart/form-data.', { field: 'body', status: 415 });
  }
  const req = ctx.req;
  const finished = new Promise<void>((resolve) => {
    if (req.readableEnded) return resolve();
    req.once('end', resolve);
    req.once('close', resolve);
  });
  const uploads = new Map(spec.files.map((name) => [name, new Upload() as PendingUpload]));
  const streams: Readable[] = [];
  const body: Record<string, unknown> = {};
  let draining = false;
  const drain = () => {
    draining = true;
    for (const s of streams) if (!s.readableEnded) s.resume();
  };

  return new Promise((resolve, reject) => {
    let published = false;
    const publish = () => {
      if (published) return;
      published = true;
      resolve({ body, finished, drain });
    };
    const parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      // One byte over the limit marks a file as too large (busboy flags a file that reaches the limit).
      limits: { fileSize: spec.maxFileSize(config) + 1, files: spec.files.length, fields: 100, fieldSize: 1_000_000 },
    });
    parser.on('field', (name: string, value: string) => {
      if (!published && !Object.hasOwn(body, name)) body[name] = value;
    });
    parser.on('file', (name: string, stream: Readable, info: { filename?: string; encoding: string; mimeType: string }) => {
      const upload = uploads.get(name);
      if (!upload || upload.file || draining) {
        stream.resume();
        return;
      }
      streams.push(stream);
      upload.resolve({ fieldName: name, filename: info.filename ?? '', mimetype: info.mimeType, encoding: info.encoding, createReadStream: () => stream as any });
      if (!published) {
        for (const [n, u] of uploads) body[n] = u;
        publish();
      }
    });
    parser.once('close', () => {
      for (const [n, u] of uploads) if (!u.file) u.reject(missing(n));
      publish();
    });
    let failed = false;
    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      // A body that broke off or is malformed: parts not yet received are failures, not
      // absences, and a part being read fails too, so nothing half-received is stored.
      for (const [, u] of uploads) if (!u.file) u.reject(malformed());
      for (const st of streams) {
        if (st.readableEnded) continue;
        // The reader sees the error through its own iterator or pipeline; this listener only
        // keeps an unread stream's error from being an unhandled 'error' event.
        st.on('error', () => undefined);
        st.destroy(err);
      }
      req.unpipe(parser);
      req.resume();
      if (!published) {
        published = true;
        reject(malformed());
      }
    };
    parser.on('error', fail);
    // A client that goes away mid-body never ends the stream: fail the parse rather than
    // leave the operation waiting on a part that will not come.
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
