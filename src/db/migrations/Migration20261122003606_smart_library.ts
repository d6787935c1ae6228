import { Migration } from '@mikro-orm/migrations';

export class Migration20261122003606_smart_library extends Migration {

  override name = 'Migration20261122003606_smart_library';

  override up(): void | Promise<void> {
    this.addSql(`create table "stored_blob" ("sha256" varchar(64) not null, "content_id" uuid not null, "bytes" int not null, "md5" varchar(32) not null, "created_at" timestamptz not null default now(), "last_used_at" timestamptz not null default now(), primary key ("sha256"));`);
    this.addSql(`create index "stored_blob_content_id_index" on "stored_blob" ("content_id");`);
    this.addSql(`create table "stored_blob_chunk" ("content_id" uuid not null, "seq" int not null, "data" bytea not null, "created_at" timestamptz not null default now(), primary key ("content_id", "seq"));`);
    this.addSql(`create table "smart_library" ("smart_lib_id" serial primary key, "company_id" int not null, "team_id" int null, "smart_lib_name" varchar(255) not null, "max_entries" int not null default 10000, "smart_lib_created" timestamptz not null default now());`);
    this.addSql(`create index "smart_library_company_id_index" on "smart_library" ("company_id");`);
    this.addSql(`create table "smart_tag" ("smart_tag_id" serial primary key, "smart_lib_id" int not null, "smart_tag_name" varchar(100) not null, "name_key" varchar(100) not null);`);
    this.addSql(`alter table "smart_tag" add constraint "smart_tag_smart_lib_id_name_key_unique" unique ("smart_lib_id", "name_key");`);
    this.addSql(`create table "smart_folder" ("smart_folder_id" serial primary key, "smart_lib_id" int not null, "smart_folder_name" varchar(255) not null, "name_key" varchar(255) not null);`);
    this.addSql(`alter table "smart_folder" add constraint "smart_folder_smart_lib_id_name_key_unique" unique ("smart_lib_id", "name_key");`);
    this.addSql(`create table "smart_filter" ("smart_filter_id" serial primary key, "smart_lib_id" int not null, "smart_filter_name" varchar(100) not null, "name_key" varchar(100) not null);`);
    this.addSql(`alter table "smart_filter" add constraint "smart_filter_smart_lib_id_name_key_unique" unique ("smart_lib_id", "name_key");`);
    this.addSql(`create table "smart_category" ("smart_category_id" serial primary key, "smart_lib_id" int not null, "smart_category_name" varchar(100) not null, "name_key" varchar(100) not null);`);
    this.addSql(`alter table "smart_category" add constraint "smart_category_smart_lib_id_name_key_unique" unique ("smart_lib_id", "name_key");`);
    this.addSql(`create table "smart_upload" ("id" serial primary key, "temp_name" varchar(64) not null, "kind" text not null, "user_id" int not null, "original_filename" varchar(255) not null, "mime_type" varchar(100) not null, "ext" varchar(10) not null, "blob_sha256" varchar(64) not null, "bytes" int not null, "md5" varchar(32) not null, "created_at" timestamptz not null default now(), "expires_at" timestamptz not null);`);
    this.addSql(`alter table "smart_upload" add constraint "smart_upload_temp_name_unique" unique ("temp_name");`);
    this.addSql(`create index "smart_upload_user_id_index" on "smart_upload" ("user_id");`);
    this.addSql(`create index "smart_upload_blob_sha256_index" on "smart_upload" ("blob_sha256");`);
    this.addSql(`create index "smart_upload_expires_at_index" on "smart_upload" ("expires_at");`);
    this.addSql(`alter table "smart_upload" add constraint "smart_upload_kind_check" check ("kind" in ('FILE', 'TILE'));`);
    this.addSql(`create table "smart_library_publisher" ("id" serial primary key, "smart_lib_id" int not null, "user_id" int not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "smart_library_publisher_user_id_index" on "smart_library_publisher" ("user_id");`);
    this.addSql(`alter table "smart_library_publisher" add constraint "smart_library_publisher_smart_lib_id_user_id_unique" unique ("smart_lib_id", "user_id");`);
    this.addSql(`create table "smart_entry" ("smart_entry_id" serial primary key, "smart_lib_id" int not null, "smart_entry_status" varchar(1) not null default 'A', "smart_entry_type" varchar(10) not null, "smart_entry_name" varchar(255) not null, "name_key" varchar(255) not null, "smart_entry_desc" varchar(2000) null, "smart_entry_download_orig" varchar(1) not null default 'N', "smart_entry_download_pdf" varchar(1) not null default 'N', "notify_user_of_external_url" varchar(1) null, "smart_entry_url_link" varchar(2048) null, "smart_entry_authors" varchar(500) null, "smart_entry_created" timestamptz not null default now(), "smart_entry_modified" timestamptz not null default now(), "smart_entry_metadata_version" int not null default 1, "smart_entry_file_version" int not null default 1, "ai_ingestion_failures" int not null default 0, "ai_ingestion_error" text null, "created_by" int null);`);
    this.addSql(`create index "smart_entry_smart_lib_id_smart_entry_created_index" on "smart_entry" ("smart_lib_id", "smart_entry_created");`);
    this.addSql(`alter table "smart_entry" add constraint "smart_entry_smart_lib_id_name_key_unique" unique ("smart_lib_id", "name_key");`);
    this.addSql(`create table "smart_file" ("smart_file_id" serial primary key, "smart_entry_id" int not null, "smart_lib_id" int not null, "smart_file_type" text not null, "smart_file_name" varchar(255) not null, "smart_file_bytes" int not null, "smart_file_md5" varchar(32) not null, "mime_type" varchar(100) not null, "blob_sha256" varchar(64) not null, "dedupe_md5" varchar(32) null, "smart_file_created" timestamptz not null default now(), "smart_file_modified" timestamptz not null default now());`);
    this.addSql(`create index "smart_file_smart_entry_id_index" on "smart_file" ("smart_entry_id");`);
    this.addSql(`create index "smart_file_blob_sha256_index" on "smart_file" ("blob_sha256");`);
    this.addSql(`alter table "smart_file" add constraint "smart_file_smart_lib_id_dedupe_md5_unique" unique ("smart_lib_id", "dedupe_md5");`);
    this.addSql(`alter table "smart_file" add constraint "smart_file_smart_file_type_check" check ("smart_file_type" in ('OUF', 'THMB'));`);
    this.addSql(`create table "smart_entry_url" ("smart_entry_url_id" serial primary key, "smart_entry_id" int not null, "smart_entry_url_name" varchar(255) null, "smart_entry_url_value" varchar(2048) not null, "position" int not null);`);
    this.addSql(`create index "smart_entry_url_smart_entry_id_index" on "smart_entry_url" ("smart_entry_id");`);
    this.addSql(`create table "smart_entry_tag" ("smart_entry_id" int not null, "smart_tag_id" int not null, "position" int not null, primary key ("smart_entry_id", "smart_tag_id"));`);
    this.addSql(`create table "smart_entry_folder" ("smart_entry_id" int not null, "smart_folder_id" int not null, "position" int not null, primary key ("smart_entry_id", "smart_folder_id"));`);
    this.addSql(`create table "smart_entry_filter" ("smart_entry_id" int not null, "smart_filter_id" int not null, "position" int not null, primary key ("smart_entry_id", "smart_filter_id"));`);
    this.addSql(`create table "smart_entry_category" ("smart_entry_id" int not null, "smart_category_id" int not null, "position" int not null, primary key ("smart_entry_id", "smart_category_id"));`);

    // Demo rows use fixed ids (library 3001, entry 4001); generated ids start well above them.
    this.addSql(`alter sequence "smart_library_smart_lib_id_seq" restart with 100000;`);
    this.addSql(`alter sequence "smart_entry_smart_entry_id_seq" restart with 100000;`);

    this.addSql(`alter table "smart_library" add constraint "smart_library_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "smart_library" add constraint "smart_library_team_id_foreign" foreign key ("team_id") references "team" ("team_id") on delete set null;`);
    this.addSql(`alter table "smart_tag" add constraint "smart_tag_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete cascade;`);
    this.addSql(`alter table "smart_folder" add constraint "smart_folder_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete cascade;`);
    this.addSql(`alter table "smart_filter" add constraint "smart_filter_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete cascade;`);
    this.addSql(`alter table "smart_category" add constraint "smart_category_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete cascade;`);
    this.addSql(`alter table "smart_upload" add constraint "smart_upload_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "smart_upload" add constraint "smart_upload_blob_sha256_foreign" foreign key ("blob_sha256") references "stored_blob" ("sha256");`);
    this.addSql(`alter table "smart_library_publisher" add constraint "smart_library_publisher_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete cascade;`);
    this.addSql(`alter table "smart_library_publisher" add constraint "smart_library_publisher_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "smart_entry" add constraint "smart_entry_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete cascade;`);
    this.addSql(`alter table "smart_entry" add constraint "smart_entry_created_by_foreign" foreign key ("created_by") references "app_user" ("u_id") on delete set null;`);
    this.addSql(`alter table "smart_file" add constraint "smart_file_smart_entry_id_foreign" foreign key ("smart_entry_id") references "smart_entry" ("smart_entry_id") on delete cascade;`);
    this.addSql(`alter table "smart_file" add constraint "smart_file_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete cascade;`);
    this.addSql(`alter table "smart_file" add constraint "smart_file_blob_sha256_foreign" foreign key ("blob_sha256") references "stored_blob" ("sha256");`);
    this.addSql(`alter table "smart_entry_url" add constraint "smart_entry_url_smart_entry_id_foreign" foreign key ("smart_entry_id") references "smart_entry" ("smart_entry_id") on delete cascade;`);
    this.addSql(`alter table "smart_entry_tag" add constraint "smart_entry_tag_smart_entry_id_foreign" foreign key ("smart_entry_id") references "smart_entry" ("smart_entry_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_entry_tag" add constraint "smart_entry_tag_smart_tag_id_foreign" foreign key ("smart_tag_id") references "smart_tag" ("smart_tag_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_entry_folder" add constraint "smart_entry_folder_smart_entry_id_foreign" foreign key ("smart_entry_id") references "smart_entry" ("smart_entry_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_entry_folder" add constraint "smart_entry_folder_smart_folder_id_foreign" foreign key ("smart_folder_id") references "smart_folder" ("smart_folder_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_entry_filter" add constraint "smart_entry_filter_smart_entry_id_foreign" foreign key ("smart_entry_id") references "smart_entry" ("smart_entry_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_entry_filter" add constraint "smart_entry_filter_smart_filter_id_foreign" foreign key ("smart_filter_id") references "smart_filter" ("smart_filter_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_entry_category" add constraint "smart_entry_category_smart_entry_id_foreign" foreign key ("smart_entry_id") references "smart_entry" ("smart_entry_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_entry_category" add constraint "smart_entry_category_smart_category_id_foreign" foreign key ("smart_category_id") references "smart_category" ("smart_category_id") on update cascade on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "smart_entry_category" cascade;`);
    this.addSql(`drop table if exists "smart_entry_filter" cascade;`);
    this.addSql(`drop table if exists "smart_entry_folder" cascade;`);
    this.addSql(`drop table if exists "smart_entry_tag" cascade;`);
    this.addSql(`drop table if exists "smart_entry_url" cascade;`);
    this.addSql(`drop table if exists "smart_file" cascade;`);
    this.addSql(`drop table if exists "smart_entry" cascade;`);
    this.addSql(`drop table if exists "smart_library_publisher" cascade;`);
    this.addSql(`drop table if exists "smart_upload" cascade;`);
    this.addSql(`drop table if exists "smart_category" cascade;`);
    this.addSql(`drop table if exists "smart_filter" cascade;`);
    this.addSql(`drop table if exists "smart_folder" cascade;`);
    this.addSql(`drop table if exists "smart_tag" cascade;`);
    this.addSql(`drop table if exists "smart_library" cascade;`);
    this.addSql(`drop table if exists "stored_blob_chunk" cascade;`);
    this.addSql(`drop table if exists "stored_blob" cascade;`);
  }
}
