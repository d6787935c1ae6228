import { Migration } from '@mikro-orm/migrations';

export class Migration20261122011418_support_group extends Migration {

  override name = 'Migration20261122011418_support_group';

  override up(): void | Promise<void> {
    this.addSql(`create table "team_image" ("team_id" int not null, "image_sha256" varchar(64) not null, "file_name" varchar(255) not null, "mime_type" varchar(100) not null, "bytes" int not null, "md5" varchar(32) not null, "created_at" timestamptz not null default now(), primary key ("team_id"));`);
    this.addSql(`create index "team_image_image_sha256_index" on "team_image" ("image_sha256");`);

    this.addSql(`create table "product" ("product_id" serial primary key, "company_id" int not null, "team_id" int not null, "product_name" varchar(255) not null, "support_group_prefix" varchar(50) not null, "support_group_name" varchar(150) not null, "country_code" varchar(2) null, "state_code" varchar(6) null, "smart_lib_id" int null, "directory_uuid" uuid null, "created_by" int null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "product_team_id_index" on "product" ("team_id");`);
    this.addSql(`create index "product_smart_lib_id_index" on "product" ("smart_lib_id");`);
    this.addSql(`create index "product_directory_uuid_index" on "product" ("directory_uuid");`);
    this.addSql(`alter table "product" add constraint "product_company_id_product_name_unique" unique ("company_id", "product_name");`);

    this.addSql(`create table "qr_code" ("qr_code_id" serial primary key, "company_id" int not null, "team_id" int not null, "product_id" int null, "qr_code_name" varchar(255) not null, "join_code" varchar(43) not null, "join_url" varchar(2048) not null, "image_sha256" varchar(64) not null, "image_bytes" int not null, "image_md5" varchar(32) not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "qr_code_company_id_index" on "qr_code" ("company_id");`);
    this.addSql(`create index "qr_code_team_id_index" on "qr_code" ("team_id");`);
    this.addSql(`create index "qr_code_product_id_index" on "qr_code" ("product_id");`);
    this.addSql(`alter table "qr_code" add constraint "qr_code_join_code_unique" unique ("join_code");`);
    this.addSql(`create index "qr_code_image_sha256_index" on "qr_code" ("image_sha256");`);

    this.addSql(`create table "product_asset" ("asset_id" serial primary key, "product_id" int not null, "company_id" int not null, "asset_number" smallint not null, "asset_name" varchar(255) not null, "asset_type" text not null, "asset_description" varchar(2000) null, "asset_internal_id" varchar(100) null, "image_sha256" varchar(64) null, "image_file_name" varchar(255) null, "image_mime_type" varchar(100) null, "image_bytes" int null, "image_md5" varchar(32) null, "smart_lib_id" int null, "directory_uuid" uuid null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "product_asset_image_sha256_index" on "product_asset" ("image_sha256");`);
    this.addSql(`create index "product_asset_smart_lib_id_index" on "product_asset" ("smart_lib_id");`);
    this.addSql(`create index "product_asset_directory_uuid_index" on "product_asset" ("directory_uuid");`);
    this.addSql(`alter table "product_asset" add constraint "product_asset_company_id_asset_internal_id_unique" unique ("company_id", "asset_internal_id");`);
    this.addSql(`alter table "product_asset" add constraint "product_asset_product_id_asset_number_unique" unique ("product_id", "asset_number");`);

    this.addSql(`create table "product_asset_version" ("asset_version_id" serial primary key, "asset_id" int not null, "version_number" int not null default 1, "file_sha256" varchar(64) null, "file_name" varchar(255) null, "mime_type" varchar(100) null, "bytes" int null, "md5" varchar(32) null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "product_asset_version_file_sha256_index" on "product_asset_version" ("file_sha256");`);
    this.addSql(`alter table "product_asset_version" add constraint "product_asset_version_asset_id_version_number_unique" unique ("asset_id", "version_number");`);

    this.addSql(`alter table "team_image" add constraint "team_image_team_id_foreign" foreign key ("team_id") references "team" ("team_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "team_image" add constraint "team_image_image_sha256_foreign" foreign key ("image_sha256") references "stored_blob" ("sha256");`);

    this.addSql(`alter table "product" add constraint "product_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "product" add constraint "product_team_id_foreign" foreign key ("team_id") references "team" ("team_id") on delete cascade;`);
    this.addSql(`alter table "product" add constraint "product_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete set null;`);
    this.addSql(`alter table "product" add constraint "product_directory_uuid_foreign" foreign key ("directory_uuid") references "smart_directory" ("directory_uuid") on delete set null;`);
    this.addSql(`alter table "product" add constraint "product_created_by_foreign" foreign key ("created_by") references "app_user" ("u_id") on delete set null;`);

    this.addSql(`alter table "qr_code" add constraint "qr_code_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "qr_code" add constraint "qr_code_team_id_foreign" foreign key ("team_id") references "team" ("team_id") on delete cascade;`);
    this.addSql(`alter table "qr_code" add constraint "qr_code_product_id_foreign" foreign key ("product_id") references "product" ("product_id") on delete cascade;`);
    this.addSql(`alter table "qr_code" add constraint "qr_code_image_sha256_foreign" foreign key ("image_sha256") references "stored_blob" ("sha256");`);

    this.addSql(`alter table "product_asset" add constraint "product_asset_product_id_foreign" foreign key ("product_id") references "product" ("product_id") on delete cascade;`);
    this.addSql(`alter table "product_asset" add constraint "product_asset_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "product_asset" add constraint "product_asset_image_sha256_foreign" foreign key ("image_sha256") references "stored_blob" ("sha256") on delete set null;`);
    this.addSql(`alter table "product_asset" add constraint "product_asset_smart_lib_id_foreign" foreign key ("smart_lib_id") references "smart_library" ("smart_lib_id") on delete set null;`);
    this.addSql(`alter table "product_asset" add constraint "product_asset_directory_uuid_foreign" foreign key ("directory_uuid") references "smart_directory" ("directory_uuid") on delete set null;`);
    this.addSql(`alter table "product_asset" add constraint "product_asset_asset_type_check" check ("asset_type" in ('html', 'smartlib', 'smartdir'));`);

    this.addSql(`alter table "product_asset_version" add constraint "product_asset_version_asset_id_foreign" foreign key ("asset_id") references "product_asset" ("asset_id") on delete cascade;`);
    this.addSql(`alter table "product_asset_version" add constraint "product_asset_version_file_sha256_foreign" foreign key ("file_sha256") references "stored_blob" ("sha256") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "qr_code" drop constraint "qr_code_product_id_foreign";`);
    this.addSql(`alter table "product_asset" drop constraint "product_asset_product_id_foreign";`);
    this.addSql(`alter table "product_asset_version" drop constraint "product_asset_version_asset_id_foreign";`);

    this.addSql(`drop table if exists "team_image" cascade;`);
    this.addSql(`drop table if exists "product" cascade;`);
    this.addSql(`drop table if exists "qr_code" cascade;`);
    this.addSql(`drop table if exists "product_asset" cascade;`);
    this.addSql(`drop table if exists "product_asset_version" cascade;`);
  }

}
