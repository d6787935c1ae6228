import { Migration } from '@mikro-orm/migrations';

export class Migration20261122002816_discovery extends Migration {

  override name = 'Migration20261122002816_discovery';

  override up(): void | Promise<void> {
    this.addSql(`create table "discovery_criterion" ("criterion_id" serial primary key, "company_id" int not null, "countries" text[] not null, "professions" int[] not null, "specialties" int[] not null, "identifiers" int[] not null, "created_at" timestamptz not null default now());`);
    this.addSql(`create index "discovery_criterion_identifiers_gin" on "discovery_criterion" using gin ("identifiers");`);
    this.addSql(`create index "discovery_criterion_specialties_gin" on "discovery_criterion" using gin ("specialties");`);
    this.addSql(`create index "discovery_criterion_professions_gin" on "discovery_criterion" using gin ("professions");`);
    this.addSql(`create index "discovery_criterion_countries_gin" on "discovery_criterion" using gin ("countries");`);
    this.addSql(`create index "discovery_criterion_open_identifiers" on "discovery_criterion" ("company_id") where identifiers = '{}';`);
    this.addSql(`create index "discovery_criterion_open_specialties" on "discovery_criterion" ("company_id") where specialties = '{}';`);
    this.addSql(`create index "discovery_criterion_open_professions" on "discovery_criterion" ("company_id") where professions = '{}';`);
    this.addSql(`create index "discovery_criterion_open_countries" on "discovery_criterion" ("company_id") where countries = '{}';`);
    this.addSql(`alter table "discovery_criterion" add constraint "discovery_criterion_tuple_unique" unique ("company_id", "countries", "professions", "specialties", "identifiers");`);

    this.addSql(`create table "identifier_definition" ("identifier_id" serial primary key, "name" varchar(50) not null, "description" varchar(255) not null, "format_desc" varchar(100) null, "format_regex" varchar(500) null, "country_code" varchar(2) not null, "created_at" timestamptz not null default now());`);

    this.addSql(`create table "company_connection" ("id" serial primary key, "user_id" int not null, "company_id" int not null, "status" text not null, "requested_at" timestamptz not null, "pending_at" timestamptz null, "accepted_at" timestamptz null, "rejected_at" timestamptz null, "rejection_reason" text null, "decided_by_user_id" int null, "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "company_connection_company_id_status_index" on "company_connection" ("company_id", "status");`);
    this.addSql(`alter table "company_connection" add constraint "company_connection_user_id_company_id_unique" unique ("user_id", "company_id");`);

    this.addSql(`create table "user_identifier" ("id" serial primary key, "user_id" int not null, "identifier_id" int not null, "value" varchar(100) not null, "status" varchar(50) null, "status_date" timestamptz null, "custom_field1" varchar(100) null, "custom_field2" varchar(100) null, "custom_field3" varchar(100) null, "custom_field4" varchar(100) null, "custom_field5" varchar(100) null, "source_company_id" int null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`alter table "user_identifier" add constraint "user_identifier_user_id_identifier_id_unique" unique ("user_id", "identifier_id");`);

    // Demo rows use fixed low ids; generated ids start well above them.
    this.addSql(`alter sequence "identifier_definition_identifier_id_seq" restart with 100000;`);
    this.addSql(`alter sequence "discovery_criterion_criterion_id_seq" restart with 100000;`);

    this.addSql(`alter table "discovery_criterion" add constraint "discovery_criterion_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);

    this.addSql(`alter table "company_connection" add constraint "company_connection_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "company_connection" add constraint "company_connection_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "company_connection" add constraint "company_connection_decided_by_user_id_foreign" foreign key ("decided_by_user_id") references "app_user" ("u_id") on delete set null;`);
    this.addSql(`alter table "company_connection" add constraint "company_connection_status_check" check ("status" in ('requested', 'pending', 'accepted', 'rejected'));`);
    this.addSql(`alter table "company_connection" add constraint "company_connection_rejection_reason_check" check ("rejection_reason" in ('declined', 'criteria'));`);

    this.addSql(`alter table "user_identifier" add constraint "user_identifier_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "user_identifier" add constraint "user_identifier_identifier_id_foreign" foreign key ("identifier_id") references "identifier_definition" ("identifier_id") on delete cascade;`);
    this.addSql(`alter table "user_identifier" add constraint "user_identifier_source_company_id_foreign" foreign key ("source_company_id") references "company" ("company_id") on delete set null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_identifier" drop constraint "user_identifier_identifier_id_foreign";`);

    this.addSql(`drop table if exists "discovery_criterion" cascade;`);
    this.addSql(`drop table if exists "identifier_definition" cascade;`);
    this.addSql(`drop table if exists "company_connection" cascade;`);
    this.addSql(`drop table if exists "user_identifier" cascade;`);

  }

}
