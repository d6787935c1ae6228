import { Migration } from '@mikro-orm/migrations';

export class Migration20261205020000_replica_read_floor extends Migration {

  override name = 'Migration20261205020000_replica_read_floor';

  override up(): void | Promise<void> {
    // Each caller's last write as the primary's WAL position, while reads may go to replicas
    // (src/db/replicas.ts, without REDIS_URL): read and written on the primary only, so unlogged:
    // nothing a replica needs, and out of the write-ahead log.
    this.addSql(`create unlogged table "replica_read_floor" ("key" varchar(64) not null primary key, "lsn" pg_lsn not null, "expires_at" timestamptz not null);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "replica_read_floor" cascade;`);
  }

}
