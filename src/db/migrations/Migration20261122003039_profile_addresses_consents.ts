import { Migration } from '@mikro-orm/migrations';

export class Migration20261122003039_profile_addresses_consents extends Migration {

  override name = 'Migration20261122003039_profile_addresses_consents';

  override up(): void | Promise<void> {
    this.addSql(`create table "consent_definition" ("id" serial primary key, "consent_uuid" uuid not null, "consent_type_code" text not null, "company_id" int null, "event_uuid" uuid null, "name" varchar(255) null, "consent_value" text not null, "optional_desc" text null, "consent_required" boolean not null, "active" boolean not null default true, "sort_order" int not null default 0, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "consent_definition" add constraint "consent_definition_consent_uuid_unique" unique ("consent_uuid");`);
    this.addSql(`create index "consent_definition_company_id_index" on "consent_definition" ("company_id");`);
    this.addSql(`create index "consent_definition_event_uuid_index" on "consent_definition" ("event_uuid");`);

    this.addSql(`create table "gender" ("gender_code" varchar(1) not null, "gender_name" varchar(50) not null, primary key ("gender_code"));`);

    this.addSql(`create table "title" ("title_id" int not null, "title_name" varchar(50) not null, primary key ("title_id"));`);

    this.addSql(`create table "user_address" ("uuid" uuid not null, "type_code" varchar(1) not null, "name" varchar(255) null, "street" varchar(255) null, "city" varchar(100) null, "suburb" varchar(100) null, "state_code" varchar(6) null, "postcode" varchar(20) null, "country_code" varchar(2) null, "email" varchar(255) null, "phone" varchar(30) null, "fax" varchar(30) null, "mobile" varchar(30) null, "department" varchar(50) null, "division" varchar(50) null, "job_title" varchar(50) null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "user_id" int not null, primary key ("uuid"));`);
    this.addSql(`create index "user_address_user_id_index" on "user_address" ("user_id");`);

    this.addSql(`create table "user_consent" ("id" serial primary key, "user_id" int not null, "consent_id" int not null, "given" boolean not null, "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "user_consent_consent_id_index" on "user_consent" ("consent_id");`);
    this.addSql(`alter table "user_consent" add constraint "user_consent_user_id_consent_id_unique" unique ("user_id", "consent_id");`);

    this.addSql(`alter table "consent_definition" add constraint "consent_definition_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "consent_definition" add constraint "consent_definition_consent_type_code_check" check ("consent_type_code" in ('C', 'DS'));`);

    this.addSql(`alter table "user_address" add constraint "user_address_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);

    this.addSql(`alter table "user_consent" add constraint "user_consent_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "user_consent" add constraint "user_consent_consent_id_foreign" foreign key ("consent_id") references "consent_definition" ("id") on delete cascade;`);

    // System reference lists of the profile (uTitleId, uGenderCode): part of the schema, not of the demo tenant.
    this.addSql(`insert into "title" ("title_id", "title_name") values
      (1, 'Mr'), (2, 'Mrs'), (3, 'Ms'), (4, 'Miss'), (5, 'Mx'), (6, 'Dr'), (7, 'Prof'), (8, 'Other');`);
    this.addSql(`insert into "gender" ("gender_code", "gender_name") values
      ('F', 'Female'), ('M', 'Male'), ('X', 'Non-binary'), ('O', 'Other'), ('U', 'Prefer not to say');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_consent" drop constraint "user_consent_consent_id_foreign";`);

    this.addSql(`drop table if exists "consent_definition" cascade;`);
    this.addSql(`drop table if exists "gender" cascade;`);
    this.addSql(`drop table if exists "title" cascade;`);
    this.addSql(`drop table if exists "user_address" cascade;`);
    this.addSql(`drop table if exists "user_consent" cascade;`);
  }

}
