// Automatic persisted queries as a client sends them: a POST /graphql with a body of our own, and
// a document's id (its SHA-256) in the extensions. Shared by trusted-documents.test.ts and
// test/redis/trusted-documents.redis.ts.
import crypto from 'node:crypto';
import type { TestApp } from '../kit';

export const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/** A POST /graphql with a body of our own (persisted-query extensions). */
export const post = (t: TestApp, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  t.rest('POST', '/graphql', { body, headers });

export const byId = (query: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } } });
