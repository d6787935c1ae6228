// The trusted documents of /graphql: every REST route's document and the explorers' examples, in
// Apollo's persisted query manifest shape (what @apollo/generate-persisted-query-manifest writes
// and Apollo Router, GraphOS and Hive read). `npm run build` writes it to dist/ for clients and
// tools (scripts/trusted-manifest.ts); the server builds the same list in-process from the same
// sources, so the file and what the server trusts cannot disagree.
//
// A document is trusted by its exact text: its id is the SHA-256 (hex) of the body, the hash
// Apollo computes of every request's text and the one automatic persisted queries send. Matching
// exact text needs no parsing, so an unknown document is refused before it is parsed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { getOperationAST, parse } from 'graphql';
import { z } from 'zod';
import type { Config } from '../config';
import type { RouteDef } from '../rest/route';
import * as examples from './examples';

export const MANIFEST_FORMAT = 'apollo-persisted-query-manifest';

export interface TrustedOperation {
  /** SHA-256 of `body`, hex: Apollo's query hash and the automatic persisted queries' sha256Hash. */
  id: string;
  name: string;
  type: 'query' | 'mutation' | 'subscription';
  body: string;
}

export interface TrustedManifest {
  format: typeof MANIFEST_FORMAT;
  version: 1;
  operations: TrustedOperation[];
}

/** The file `npm run build` writes, relative to the package root. */
export const MANIFEST_FILE = 'dist/trusted-documents.json';

export const documentId = (body: string): string => crypto.createHash('sha256').update(body).digest('hex');

function operationOf(body: string): TrustedOperation {
  const operation = getOperationAST(parse(body));
  if (!operation?.name) throw new Error(`a trusted document must hold exactly one named operation:\n${body}`);
  return { id: documentId(body), name: operation.name.value, type: operation.operation, body };
}

/** The example documents the explorers open with (examples.ts), as they send them. */
export const EXAMPLE_DOCUMENTS: readonly string[] = (Object.values(examples) as unknown[]).filter(
  (v): v is string => typeof v === 'string',
);

/** Every route's document and every example, once each (by id), ordered by name then id. */
export function trustedManifest(routes: readonly RouteDef[]): TrustedManifest {
  const byId = new Map<string, TrustedOperation>();
  for (const body of [...routes.map((r) => r.document), ...EXAMPLE_DOCUMENTS]) {
    const op = operationOf(body);
    byId.set(op.id, op);
  }
  const operations = [...byId.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { format: MANIFEST_FORMAT, version: 1, operations };
}

const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  version: z.literal(1),
  operations: z.array(
    z.object({ id: z.string(), name: z.string(), type: z.enum(['query', 'mutation', 'subscription']), body: z.string() }),
  ),
});

/**
 * A manifest file of first-party clients' own documents (GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST), as
 * Apollo's generator writes it. An id that is not the SHA-256 of its body is refused: a client
 * sending the body would be answered by another document's hash.
 */
export function readManifestFile(file: string): TrustedOperation[] {
  const parsed = manifestSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not an ${MANIFEST_FORMAT} (version 1): ${parsed.error.issues[0].message}`);
  for (const op of parsed.data.operations)
    if (op.id !== documentId(op.body)) throw new Error(`${file}: the id of ${op.name} is not the SHA-256 of its body`);
  return parsed.data.operations;
}

const byConfig = new WeakMap<Config, ReadonlyMap<string, string>>();

/**
 * The documents an app trusts, body by id: the manifest's (routes and examples), then those of
 * GRAPHQL_TRUSTED_DOCUMENTS_MANIFEST. Built once per app (the /graphql guard and the persisted
 * query store both read it).
 */
export function trustedDocuments(config: Config, routes: readonly RouteDef[]): ReadonlyMap<string, string> {
  let trusted = byConfig.get(config);
  if (!trusted) {
    const extra = config.trustedDocumentsManifest ? readManifestFile(config.trustedDocumentsManifest) : [];
    trusted = new Map([...trustedManifest(routes).operations, ...extra].map((op) => [op.id, op.body]));
    byConfig.set(config, trusted);
  }
  return trusted;
}
