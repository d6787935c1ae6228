// The storage module's SQL (docs/development.md, "Reads and writes"): the fragments other modules'
// statements ask of its tables. The arguments are expressions of the asker's statement.
import { sql, type Expression, type QueryCreator } from 'kysely';
import type { Tables } from '../../db/sql';
import type { StoredBlob } from './blob.entity';

type DB = Tables<{ StoredBlob: StoredBlob }>;

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
