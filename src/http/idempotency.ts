// What REST (src/rest/idempotency.ts) and GraphQL (src/graphql/plugins/idempotency.ts) share of
// the Idempotency-Key header (IETF httpapi draft "The Idempotency-Key HTTP Header Field"): the
// key as sent, whose key it is, and the request's fingerprint. The keys' protocol itself is the
// idempotency module's, reached as ctx.services.idempotency (IdempotencyKeys).
import { createHash } from 'node:crypto';
import { Upload } from 'graphql-upload-minimal';
import type { Context } from '../context';
import { ServiceError } from '../core/errors';
import type { EntityManager } from '@mikro-orm/core';

export const IDEMPOTENCY_LIMITS = {
  /** Characters of a key: the draft leaves the bound to the server. */
  key: 255,
  /** Characters of a scope: `user:<id>`, `company:<id>`, `system:<scope>`, `credential:<SHA-256 hex>`. */
  scope: 100,
};

/** A keyed mutation as the protocol compares it. */
export interface KeyedRequest {
  /** Whose key it is. */
  scope: string;
  key: string;
  /** SHA-256 (hex) of what the request asks. */
  fingerprint: string;
}

/** An answer as stored and replayed: every kept answer is JSON text, or empty. */
export interface KeptAnswer {
  status: number;
  contentType: string | null;
  body: string | null;
}

/** A key opened for a first request: its transaction is open until `keep` or `abandon`. */
export interface PendingKey {
  /** Writes the answer (null: nothing worth keeping) and commits the mutation with it. */
  keep(answer: KeptAnswer | null): Promise<void>;
  /** Rolls the mutation back; nothing is stored. Safe to call after `keep` failed, or twice. */
  abandon(): Promise<void>;
}

export type OpenedKey = { replay: KeptAnswer } | { pending: PendingKey };

/** The request header (the IETF httpapi draft's name). */
export const KEY_HEADER = 'Idempotency-Key';

/** The keys' protocol, which a module provides (ctx.services.idempotency). */
export interface IdempotencyKeys {
  /** Holds the key in a transaction on `em` and answers its stored answer, or the pending first request. */
  open(em: EntityManager, now: Date, request: KeyedRequest): Promise<OpenedKey>;
}

/** The response header of a replayed answer (the draft names none; Stripe's name, which clients know). */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

const invalidKey = () =>
  new ServiceError(
    'WSInvalidParameterException',
    `${KEY_HEADER} must be 1 to ${IDEMPOTENCY_LIMITS.key} printable ASCII characters, sent once (optionally as a quoted string).`,
    { field: KEY_HEADER },
  );

const PRINTABLE = /^[\x20-\x7e]+$/;

/**
 * The key of a request's Idempotency-Key header: undefined without one; a value that is not 1 to
 * 255 printable ASCII characters, or the header sent twice, is 400 naming the header. The draft
 * sends the key as a structured-field string ("..."): its quotes and escapes are taken off; a bare
 * value, as most clients send, is the key as it is.
 */
export function idempotencyKeyOf(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value)) throw invalidKey();
  let key = value.trim();
  if (key.length >= 2 && key.startsWith('"') && key.endsWith('"')) {
    const inner = key.slice(1, -1);
    if (/(^|[^\\])(\\\\)*"/.test(inner) || /(^|[^\\])(\\\\)*\\$/.test(inner)) throw invalidKey();
    key = inner.replace(/\\(["\\])/g, '$1');
  }
  if (key.length < 1 || key.length > IDEMPOTENCY_LIMITS.key || !PRINTABLE.test(key)) throw invalidKey();
  return key;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Whose key it is: the signed-in user, else the company of a company API key, else the system
 * token's scope, else (a request whose credential did not resolve, which fails before it writes
 * anything) the digest of the credentials it sent. Keys of different callers never meet.
 */
export async function scopeOf(request: Context, systemScope?: string): Promise<string> {
  const { credentials, auth } = request;
  if (credentials.authToken) {
    const user = await auth.requireUser().catch(() => null);
    if (user) return `user:${user.user.uId}`;
  }
  if (credentials.companyApiKey) {
    const key = await auth.requireCompanyKey().catch(() => null);
    if (key) return `company:${key.company.companyId}`;
  }
  if (credentials.apiKey && systemScope && (await auth.requireSystem(systemScope).catch(() => null))) return `system:${systemScope}`;
  const sent = [credentials.authToken, credentials.companyApiKey, credentials.apiKey, credentials.bearer].map((c) => c ?? '');
  return `credential:${sha256(sent.join('\n'))}`;
}

/** The SHA-256 (hex) of a staged file's content (src/rest/multipart.ts UploadStaging's digestOf). */
export type FileDigest = (file: unknown) => string | undefined;

/** A value with its objects' keys sorted, and each file as what identifies its content. */
async function canonical(value: unknown, files: FileDigest | 'name'): Promise<unknown> {
  if (value instanceof Upload) {
    if (files === 'name') return { upload: true };
    const file = await value.promise;
    return { upload: file.filename, type: file.mimetype, sha256: files(file) ?? null };
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => canonical(v, files)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = await canonical((value as Record<string, unknown>)[k], files);
    return out;
  }
  return value;
}

/**
 * SHA-256 (hex) of what a request asks: its parts as given (method, path, query, body), JSON with
 * sorted keys. A file counts by its content's digest once staged (REST), else only as a file (a
 * GraphQL upload streams in while the operation runs, after the key was checked).
 */
export async function fingerprintOf(parts: unknown[], files: FileDigest | 'name'): Promise<string> {
  return sha256(JSON.stringify(await canonical(parts, files)));
}
