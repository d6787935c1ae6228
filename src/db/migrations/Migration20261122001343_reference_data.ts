import { Migration } from '@mikro-orm/migrations';

export class Migration20261122001343_reference_data extends Migration {

  override name = 'Migration20261122001343_reference_data';

  override up(): void | Promise<void> {
    this.addSql(`create table "assessment_form" ("assessment_id" int not null, "assessment_uuid" uuid not null, "assessment_name" varchar(255) not null, primary key ("assessment_id"));`);
    this.addSql(`alter table "assessment_form" add constraint "assessment_form_assessment_uuid_unique" unique ("assessment_uuid");`);

    this.addSql(`create table "assessment_field" ("field_id" int not null, "assessment_id" int not null, "label" varchar(500) not null, "field_type" varchar(20) not null, "required" boolean not null, "options" jsonb not null, "field_order" int not null, primary key ("field_id"));`);
    this.addSql(`create index "assessment_field_assessment_id_field_order_index" on "assessment_field" ("assessment_id", "field_order");`);

    this.addSql(`create table "condition" ("condition_id" int not null, "condition_name" varchar(100) not null, primary key ("condition_id"));`);

    this.addSql(`create table "field_definition" ("field_id" int not null, "field_code" varchar(50) not null, "field_name" varchar(100) not null, "field_type" varchar(20) not null, "is_address_field" boolean not null default false, primary key ("field_id"));`);
    this.addSql(`alter table "field_definition" add constraint "field_definition_field_code_unique" unique ("field_code");`);

    this.addSql(`create table "profession" ("profession_id" int not null, "profession_name" varchar(100) not null, primary key ("profession_id"));`);

    this.addSql(`create table "reference_data_version" ("name" varchar(50) not null, "version" int not null, primary key ("name"));`);

    this.addSql(`create table "specialty" ("specialty_id" int not null, "specialty_name" varchar(100) not null, "profession_id" int not null, primary key ("specialty_id"));`);

    this.addSql(`alter table "assessment_field" add constraint "assessment_field_assessment_id_foreign" foreign key ("assessment_id") references "assessment_form" ("assessment_id") on delete cascade;`);

    // System reference data the code relies on (directoryFieldIds; first and last name are
    // added to every directory by default): part of the schema, not of the demo tenant.
    this.addSql(`insert into "field_definition" ("field_id", "field_code", "field_name", "field_type", "is_address_field") values
      (1, 'firstName', 'First name', 'text', false),
      (2, 'lastName', 'Last name', 'text', false),
      (3, 'email', 'E-mail', 'email', false),
      (4, 'mobile', 'Mobile', 'phone', false),
      (5, 'phone', 'Phone', 'phone', false),
      (6, 'jobTitle', 'Job title', 'text', false),
      (7, 'department', 'Department', 'text', false),
      (8, 'division', 'Division', 'text', false),
      (9, 'addresses', 'Addresses', 'address', true),
      (10, 'dateOfBirth', 'Date of birth', 'date', false);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "assessment_field" drop constraint "assessment_field_assessment_id_foreign";`);

    this.addSql(`drop table if exists "assessment_form" cascade;`);
    this.addSql(`drop table if exists "assessment_field" cascade;`);
    this.addSql(`drop table if exists "condition" cascade;`);
    this.addSql(`drop table if exists "field_definition" cascade;`);
    this.addSql(`drop table if exists "profession" cascade;`);
    this.addSql(`drop table if exists "reference_data_version" cascade;`);
    this.addSql(`drop table if exists "specialty" cascade;`);
  }

}
