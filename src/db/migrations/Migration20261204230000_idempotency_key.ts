import { Migration } from '@mikro-orm/migrations';

export class Migration20261204230000_idempotency_key extends Migration {

  override name = 'Migration20261204230000_idempotency_key';

  override up(): void | Promise<void> {
    // The first answers of mutations sent with an Idempotency-Key (src/modules/idempotency), per
    // caller and key for 24 hours; the hourly purge finds the expired ones by expires_at.
    this.addSql(`create table "idempotency_key" ("scope" varchar(100) not null, "key" varchar(255) not null, "fingerprint" varchar(64) not null, "status" smallint not null, "content_type" varchar(100) null, "body" text null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null, primary key ("scope", "key"));`);
    this.addSql(`create index "idempotency_key_expires_at_index" on "idempotency_key" ("expires_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "idempotency_key" cascade;`);
  }

}
