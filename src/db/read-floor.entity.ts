// The callers' last writes while reads may go to replicas, when the database is the shared store
// (no REDIS_URL): src/db/replicas.ts reads and writes it on the primary only (an unlogged table,
// nothing a replica needs). The ORM's own, beside the modules' entities (orm.ts).
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { PrimaryKeyProp } from '@mikro-orm/core';

@Entity({ tableName: 'replica_read_floor' })
export class ReplicaReadFloor {
  [PrimaryKeyProp]?: 'key';

  /** SHA-256 (hex) of the credential the write was made with. */
  @PrimaryKey({ length: 64 }) key!: string;

  /** The primary's WAL position after the write committed. */
  @Property({ columnType: 'pg_lsn' }) lsn!: string;

  @Property({ columnType: 'timestamptz' }) expiresAt!: Date;
}
