// The storage module's SQL (docs/development.md, "Reads and writes"), in schema/sql/storage.sql:
// the chunks written, named, read and purged (blob-store.ts runs them), and the fragments other
// modules' statements ask of its tables, whose arguments are expressions of the asker's statement.
// The purge of unreferenced blobs is not here: its predicates are the tables the modules declare
// (blobReferences), known only when the app is composed.
import { sql, type Expression, type ExpressionBuilder, type QueryCreator } from 'kysely';
import { anyOf, queriesOf, type Tables } from '../../db/sql';
import { StoredBlob, StoredBlobChunk } from './blob.entity';

const { compiled } = queriesOf({ StoredBlob, StoredBlobChunk });

type DB = Tables<{ StoredBlob: StoredBlob; StoredBlobChunk: StoredBlobChunk }>;

/** No blob row names the chunk a delete is at (the delete names its table: an alias would stay unmapped). */
const unnamed = (eb: ExpressionBuilder<DB, 'StoredBlobChunk'>) =>
  eb.not(eb.exists(eb.selectFrom('StoredBlob as b').select('b.sha256').whereRef('b.contentId', '=', 'StoredBlobChunk.contentId')));

/**
 * A chunk of content as it streams in, the bytes a bound parameter (on the embedded database;
 * on a server, chunk-insert.ts writes the same row without copying the bytes).
 */
export const insertChunk = compiled((db, p: { contentId: string; seq: number; data: Uint8Array }) =>
  db.insertInto('StoredBlobChunk').values({ contentId: p.contentId, seq: p.seq, data: p.data as Buffer }),
);

/**
 * Names content by its hash: a new blob row for its chunks or, when the hash is stored already,
 * that row marked used, under its row lock (which orders this against a purge of the same hash);
 * the content id the blob reads from.
 */
export const upsertBlob = compiled((db, p: { sha256: string; contentId: string; bytes: number; md5: string }) =>
  db
    .insertInto('StoredBlob')
    .values({ sha256: p.sha256, contentId: p.contentId, bytes: p.bytes, md5: p.md5 })
    .onConflict((oc) => oc.column('sha256').doUpdateSet({ lastUsedAt: sql<Date>`now()` }))
    .returning('contentId as contentId'),
);

/** The chunks of staged contents (`contentIds`) that no blob row names: not adopted, or duplicates. */
export const deleteUnnamedChunks = compiled((db, p: { contentIds: string[] }) =>
  db.deleteFrom('StoredBlobChunk').where('contentId', '=', anyOf(p.contentIds, 'uuid')).where(unnamed),
);

/** The chunk of content `contentId` at `seq` (from 0): a stream reads one a statement. */
export const chunkAt = compiled(
  (db, p: { contentId: string; seq: number }) =>
    db.selectFrom('StoredBlobChunk as c').select('c.data').where('c.contentId', '=', p.contentId).where('c.seq', '=', p.seq),
  { prepared: true },
);

/** Every chunk of content `contentId`, in order: for content bounded in size (readBlob). */
export const chunksOf = compiled(
  (db, p: { contentId: string }) =>
    db.selectFrom('StoredBlobChunk as c').select('c.data').where('c.contentId', '=', p.contentId).orderBy('c.seq'),
  { prepared: true },
);

/** Chunks older than `seconds` that no blob row names (writes that never finished), deleted; how many. */
export const deleteOrphanChunks = compiled((db, p: { seconds: number }) =>
  db
    .with('gone', (w) =>
      w
        .deleteFrom('StoredBlobChunk')
        .where('createdAt', '<', sql<Date>`now() - make_interval(secs => ${p.seconds})`)
        .where(unnamed)
        .returning('seq'),
    )
    .selectFrom('gone')
    .select(sql<number>`count(*)::int`.as('deleted')),
);

/**
 * Marks blob `sha256` used now, under its row lock, as storing its bytes again would (which orders
 * this against a purge): an update for the asker's `with` (`q`), returning the blob's key when
 * there is such a blob.
 */
export const blobMarkedUsed = (q: QueryCreator<never>, sha256: Expression<string | null>) =>
  (q as unknown as QueryCreator<DB>)
    .updateTable('StoredBlob')
    .set({ lastUsedAt: sql<Date>`now()` })
    .where('sha256', '=', sha256 as Expression<string>)
    .returning('sha256');
