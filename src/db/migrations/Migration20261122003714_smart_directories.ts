import { Migration } from '@mikro-orm/migrations';

export class Migration20261122003714_smart_directories extends Migration {

  override name = 'Migration20261122003714_smart_directories';

  override up(): void | Promise<void> {
    this.addSql(`create table "smart_directory" ("directory_uuid" uuid not null, "company_id" int not null, "team_id" int not null, "directory_name" varchar(255) not null, "directory_type" text not null, "directory_order" text not null, "sync_up" boolean not null default false, "auto_populate_from_profile" boolean not null default false, "active" boolean not null default true, "created_at" timestamptz not null default now(), primary key ("directory_uuid"));`);
    this.addSql(`create index "smart_directory_company_id_index" on "smart_directory" ("company_id");`);
    this.addSql(`create index "smart_directory_team_id_index" on "smart_directory" ("team_id");`);

    this.addSql(`create table "smart_directory_field" ("directory_uuid" uuid not null, "field_id" int not null, primary key ("directory_uuid", "field_id"));`);

    this.addSql(`create table "contact_record" ("contact_id" serial primary key, "directory_uuid" uuid not null, "user_id" int not null, "first_name" varchar(100) null, "last_name" varchar(100) null, "email" varchar(255) null, "mobile" varchar(30) null, "phone" varchar(30) null, "job_title" varchar(50) null, "department" varchar(50) null, "division" varchar(50) null, "date_of_birth" date null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "contact_record_user_id_index" on "contact_record" ("user_id");`);
    this.addSql(`alter table "contact_record" add constraint "contact_record_directory_uuid_user_id_unique" unique ("directory_uuid", "user_id");`);

    this.addSql(`create table "contact_address" ("uuid" uuid not null, "type_code" varchar(1) not null, "name" varchar(255) null, "street" varchar(255) null, "city" varchar(100) null, "suburb" varchar(100) null, "state_code" varchar(6) null, "postcode" varchar(20) null, "country_code" varchar(2) null, "email" varchar(255) null, "phone" varchar(30) null, "fax" varchar(30) null, "mobile" varchar(30) null, "department" varchar(50) null, "division" varchar(50) null, "job_title" varchar(50) null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "contact_id" int not null, "user_address_uuid" uuid null, primary key ("uuid"));`);
    this.addSql(`create index "contact_address_user_address_uuid_index" on "contact_address" ("user_address_uuid");`);
    this.addSql(`alter table "contact_address" add constraint "contact_address_source_unique" unique ("contact_id", "user_address_uuid");`);
    this.addSql(`alter table "contact_address" add constraint "contact_address_type_unique" unique ("contact_id", "type_code");`);

    this.addSql(`alter table "consent_definition" add "directory_uuid" uuid null;`);
    this.addSql(`alter table "consent_definition" add constraint "consent_definition_directory_uuid_foreign" foreign key ("directory_uuid") references "smart_directory" ("directory_uuid") on delete cascade;`);
    this.addSql(`create index "consent_definition_directory_uuid_index" on "consent_definition" ("directory_uuid");`);

    this.addSql(`alter table "smart_directory" add constraint "smart_directory_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "smart_directory" add constraint "smart_directory_team_id_foreign" foreign key ("team_id") references "team" ("team_id") on delete cascade;`);
    this.addSql(`alter table "smart_directory" add constraint "smart_directory_directory_type_check" check ("directory_type" in ('UNRESTRICTED', 'PARTIALLY_RESTRICTED', 'FULLY_RESTRICTED'));`);
    this.addSql(`alter table "smart_directory" add constraint "smart_directory_directory_order_check" check ("directory_order" in ('FL', 'LF'));`);

    this.addSql(`alter table "smart_directory_field" add constraint "smart_directory_field_directory_uuid_foreign" foreign key ("directory_uuid") references "smart_directory" ("directory_uuid") on update cascade on delete cascade;`);
    this.addSql(`alter table "smart_directory_field" add constraint "smart_directory_field_field_id_foreign" foreign key ("field_id") references "field_definition" ("field_id") on update cascade on delete cascade;`);

    this.addSql(`alter table "contact_record" add constraint "contact_record_directory_uuid_foreign" foreign key ("directory_uuid") references "smart_directory" ("directory_uuid") on delete cascade;`);
    this.addSql(`alter table "contact_record" add constraint "contact_record_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);

    this.addSql(`alter table "contact_address" add constraint "contact_address_contact_id_foreign" foreign key ("contact_id") references "contact_record" ("contact_id") on delete cascade;`);
    this.addSql(`alter table "contact_address" add constraint "contact_address_user_address_uuid_foreign" foreign key ("user_address_uuid") references "user_address" ("uuid") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "smart_directory_field" drop constraint "smart_directory_field_directory_uuid_foreign";`);
    this.addSql(`alter table "consent_definition" drop constraint "consent_definition_directory_uuid_foreign";`);
    this.addSql(`alter table "contact_record" drop constraint "contact_record_directory_uuid_foreign";`);
    this.addSql(`alter table "contact_address" drop constraint "contact_address_contact_id_foreign";`);

    this.addSql(`drop table if exists "smart_directory" cascade;`);
    this.addSql(`drop table if exists "smart_directory_field" cascade;`);
    this.addSql(`drop table if exists "contact_record" cascade;`);
    this.addSql(`drop table if exists "contact_address" cascade;`);

    this.addSql(`drop index "consent_definition_directory_uuid_index";`);
    this.addSql(`alter table "consent_definition" drop column "directory_uuid";`);
  }

}
