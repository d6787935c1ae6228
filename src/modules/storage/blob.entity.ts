// Shared blob storage in PostgreSQL, content-addressed by SHA-256, so every instance reads
// what any instance wrote. A blob's bytes live in fixed-size chunks keyed by a content id:
// chunks are written while the upload streams in (its hash is known only at the end), and
// the blob row naming the hash is written last. See blob-store.ts.
import { Entity, PrimaryKey, Property, Index } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp, t, type Opt } from '@mikro-orm/core';

@Entity({ tableName: 'stored_blob' })
export class StoredBlob {
  [PrimaryKeyProp]?: 'sha256';

  /** Hex SHA-256 of the content: the blob's identity. */
  @PrimaryKey({ length: 64 }) sha256!: string;

  /** The chunks holding the bytes (stored_blob_chunk.content_id). */
  @Property({ type: 'uuid' }) @Index() contentId!: string;

  @Property({ type: t.integer }) bytes!: number;

  /** Hex MD5, reported to clients (smartFileMd5). */
  @Property({ length: 32 }) md5!: string;

  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();

  /** Touched whenever new content resolves to this blob; the purge spares recently used blobs. */
  @Property({ defaultRaw: 'now()' }) lastUsedAt: Date & Opt = new Date();
}

@Entity({ tableName: 'stored_blob_chunk' })
export class StoredBlobChunk {
  [PrimaryKeyProp]?: ['contentId', 'seq'];

  @PrimaryKey({ type: 'uuid' }) contentId!: string;

  /** Position of the chunk, from 0. */
  @PrimaryKey({ type: t.integer }) seq!: number;

  @Property({ type: 'blob' }) data!: Buffer;

  /** Chunks of an upload that never completed are purged once old enough. */
  @Property({ defaultRaw: 'now()' }) createdAt: Date & Opt = new Date();
}
