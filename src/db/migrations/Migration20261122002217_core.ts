import { Migration } from '@mikro-orm/migrations';

export class Migration20261122002217_core extends Migration {

  override name = 'Migration20261122002217_core';

  override up(): void | Promise<void> {
    this.addSql(`create table "company" ("company_id" serial primary key, "company_name" varchar(100) not null, "company_desc" varchar(2000) null, "company_address" varchar(255) null, "company_city" varchar(30) null, "company_postcode" varchar(12) null, "company_state_code" varchar(6) null, "company_country_code" varchar(2) null, "company_contact_name" varchar(50) null, "company_contact_email" varchar(255) null, "company_website" varchar(255) null, "banner_key" varchar(255) null, "logo_key" varchar(255) null, "active" boolean not null default true, "hidden_wall" boolean not null default false, "vets_connections" boolean not null default true, "uses_caf" boolean not null default false, "caf_url" varchar(1024) null, "smart_directory_enabled" boolean not null default false, "created_at" timestamptz not null default now());`);

    this.addSql(`create table "company_api_key" ("id" serial primary key, "key_hash" varchar(64) not null, "company_id" int not null, "active" boolean not null default true, "membership_identifier_id" int null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "company_api_key" add constraint "company_api_key_key_hash_unique" unique ("key_hash");`);

    this.addSql(`create table "system_token" ("id" serial primary key, "token_hash" varchar(64) not null, "name" varchar(100) not null, "scopes" text[] not null, "revoked_at" timestamptz null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "system_token" add constraint "system_token_token_hash_unique" unique ("token_hash");`);

    this.addSql(`create table "team" ("team_id" serial primary key, "company_id" int not null, "team_name" varchar(255) not null, "image_key" varchar(255) null, "created_at" timestamptz not null default now());`);

    this.addSql(`create table "app_user" ("u_id" serial primary key, "email" varchar(255) not null, "auth_type" varchar(1) not null, "password_hash" text null, "active" boolean not null default true, "synchronised" boolean not null default false, "idp_issuer" varchar(255) null, "idp_subject" varchar(255) null, "title_id" int null, "gender_code" varchar(1) null, "first_name" varchar(100) null, "last_name" varchar(100) null, "country_code" varchar(2) null, "primary_mobile" varchar(30) null, "interests" varchar(2000) null, "dietary_requirements" varchar(2000) null, "treatment_notes" varchar(2000) null, "date_of_birth" date null, "photo" varchar(1024) null, "enable_location" boolean not null default false, "enable_notifications" boolean not null default true, "allow_all_emails" boolean not null default false, "allow_newsletter_email" boolean not null default false, "profession_id" int null, "specialty_id" int null, "condition_id" int null, "other_title" varchar(100) null, "other_profession" varchar(100) null, "other_specialty" varchar(100) null, "social_network_a_id" varchar(255) null, "social_network_b_id" varchar(255) null, "social_network_c_id" varchar(255) null, "social_network_c_url" varchar(1024) null, "timezone_id" varchar(64) null, "service_ts_and_cs" varchar(1) null, "service_tracking_consent" varchar(1) null, "cloud_storage_consent" varchar(1) null, "search_provider_consent" varchar(1) null, "social_network_a_consent" varchar(1) null, "creation_date" date not null default current_date, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`create unique index "app_user_email_lower_unique" on "app_user" (lower("email"));`);

    this.addSql(`create table "team_member" ("id" serial primary key, "team_id" int not null, "user_id" int not null, "is_team_admin" boolean not null default false, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "team_member" add constraint "team_member_team_id_user_id_unique" unique ("team_id", "user_id");`);

    this.addSql(`create table "service_auth_token" ("token_hash" varchar(64) not null, "user_id" int not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "created_at" timestamptz not null default now(), primary key ("token_hash"));`);
    this.addSql(`create index "service_auth_token_user_id_index" on "service_auth_token" ("user_id");`);

    this.addSql(`create table "company_role" ("id" serial primary key, "company_id" int not null, "user_id" int not null, "role" text not null);`);
    this.addSql(`alter table "company_role" add constraint "company_role_company_id_user_id_role_unique" unique ("company_id", "user_id", "role");`);

    // Demo and imported rows use fixed low ids; generated ids start well above them.
    this.addSql(`alter sequence "app_user_u_id_seq" restart with 100000;`);
    this.addSql(`alter sequence "company_company_id_seq" restart with 100000;`);
    this.addSql(`alter sequence "team_team_id_seq" restart with 100000;`);

    this.addSql(`alter table "company_api_key" add constraint "company_api_key_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);

    this.addSql(`alter table "team" add constraint "team_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);

    this.addSql(`alter table "team_member" add constraint "team_member_team_id_foreign" foreign key ("team_id") references "team" ("team_id") on delete cascade;`);
    this.addSql(`alter table "team_member" add constraint "team_member_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);

    this.addSql(`alter table "service_auth_token" add constraint "service_auth_token_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);

    this.addSql(`alter table "company_role" add constraint "company_role_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "company_role" add constraint "company_role_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "company_role" add constraint "company_role_role_check" check ("role" in ('ADMIN', 'PUSH_NOTIFICATION'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "company_api_key" drop constraint "company_api_key_company_id_foreign";`);
    this.addSql(`alter table "team" drop constraint "team_company_id_foreign";`);
    this.addSql(`alter table "company_role" drop constraint "company_role_company_id_foreign";`);
    this.addSql(`alter table "team_member" drop constraint "team_member_team_id_foreign";`);
    this.addSql(`alter table "team_member" drop constraint "team_member_user_id_foreign";`);
    this.addSql(`alter table "service_auth_token" drop constraint "service_auth_token_user_id_foreign";`);
    this.addSql(`alter table "company_role" drop constraint "company_role_user_id_foreign";`);

    this.addSql(`drop table if exists "company" cascade;`);
    this.addSql(`drop table if exists "company_api_key" cascade;`);
    this.addSql(`drop table if exists "system_token" cascade;`);
    this.addSql(`drop table if exists "team" cascade;`);
    this.addSql(`drop table if exists "app_user" cascade;`);
    this.addSql(`drop table if exists "team_member" cascade;`);
    this.addSql(`drop table if exists "service_auth_token" cascade;`);
    this.addSql(`drop table if exists "company_role" cascade;`);
  }

}
