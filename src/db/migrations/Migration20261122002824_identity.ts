import { Migration } from '@mikro-orm/migrations';

export class Migration20261122002824_identity extends Migration {

  override name = 'Migration20261122002824_identity';

  override up(): void | Promise<void> {
    this.addSql(`create table "auth_rate_limit" ("key" varchar(255) not null, "points" int not null default 0, "expire" bigint null, primary key ("key"));`);

    this.addSql(`create table "oauth_client" ("client_id" varchar(100) not null, "name" varchar(255) not null, "secret_hash" varchar(64) not null, "grant_types" text[] not null, "redirect_uris" text[] not null, "active" boolean not null default true, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), primary key ("client_id"));`);

    this.addSql(`create table "oauth_inbound_request" ("state_hash" varchar(64) not null, "browser_hash" varchar(64) not null, "client_id" varchar(100) not null, "redirect_uri" varchar(1024) not null, "client_state" varchar(1024) null, "code_challenge" varchar(128) null, "provider_id" varchar(50) not null, "login_hint" varchar(255) null, "code_verifier" varchar(128) not null, "nonce" varchar(64) not null, "expires_at" timestamptz not null, "created_at" timestamptz not null default now(), primary key ("state_hash"));`);
    this.addSql(`create index "oauth_inbound_request_expires_at_index" on "oauth_inbound_request" ("expires_at");`);

    this.addSql(`create table "oauth_token_family" ("id" uuid not null, "user_id" int not null, "client_id" varchar(100) not null, "grant_type" varchar(30) not null, "revoked_at" timestamptz null, "revoked_reason" varchar(40) null, "created_at" timestamptz not null default now(), primary key ("id"));`);
    this.addSql(`create index "oauth_token_family_user_id_index" on "oauth_token_family" ("user_id");`);

    this.addSql(`create table "oauth_refresh_token" ("token_hash" varchar(64) not null, "family_id" uuid not null, "expires_at" timestamptz not null, "rotated_at" timestamptz null, "created_at" timestamptz not null default now(), primary key ("token_hash"));`);
    this.addSql(`create index "oauth_refresh_token_family_id_index" on "oauth_refresh_token" ("family_id");`);

    this.addSql(`create table "oauth_authorization_code" ("code_hash" varchar(64) not null, "client_id" varchar(100) not null, "user_id" int not null, "redirect_uri" varchar(1024) not null, "code_challenge" varchar(128) null, "family_id" uuid not null, "expires_at" timestamptz not null, "used_at" timestamptz null, "created_at" timestamptz not null default now(), primary key ("code_hash"));`);
    this.addSql(`create index "oauth_authorization_code_expires_at_index" on "oauth_authorization_code" ("expires_at");`);

    this.addSql(`alter table "app_user" add constraint "app_user_idp_identity_unique" unique ("idp_issuer", "idp_subject");`);

    this.addSql(`alter table "service_auth_token" add "family_id" uuid null;`);
    this.addSql(`alter table "service_auth_token" add constraint "service_auth_token_family_id_foreign" foreign key ("family_id") references "oauth_token_family" ("id") on delete set null;`);
    this.addSql(`create index "service_auth_token_family_id_index" on "service_auth_token" ("family_id");`);

    this.addSql(`alter table "oauth_inbound_request" add constraint "oauth_inbound_request_client_id_foreign" foreign key ("client_id") references "oauth_client" ("client_id") on delete cascade;`);

    this.addSql(`alter table "oauth_token_family" add constraint "oauth_token_family_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "oauth_token_family" add constraint "oauth_token_family_client_id_foreign" foreign key ("client_id") references "oauth_client" ("client_id") on delete cascade;`);

    this.addSql(`alter table "oauth_refresh_token" add constraint "oauth_refresh_token_family_id_foreign" foreign key ("family_id") references "oauth_token_family" ("id") on delete cascade;`);

    this.addSql(`alter table "oauth_authorization_code" add constraint "oauth_authorization_code_client_id_foreign" foreign key ("client_id") references "oauth_client" ("client_id") on delete cascade;`);
    this.addSql(`alter table "oauth_authorization_code" add constraint "oauth_authorization_code_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "oauth_inbound_request" drop constraint "oauth_inbound_request_client_id_foreign";`);
    this.addSql(`alter table "oauth_token_family" drop constraint "oauth_token_family_client_id_foreign";`);
    this.addSql(`alter table "oauth_authorization_code" drop constraint "oauth_authorization_code_client_id_foreign";`);
    this.addSql(`alter table "oauth_refresh_token" drop constraint "oauth_refresh_token_family_id_foreign";`);
    this.addSql(`alter table "service_auth_token" drop constraint "service_auth_token_family_id_foreign";`);

    this.addSql(`drop table if exists "auth_rate_limit" cascade;`);
    this.addSql(`drop table if exists "oauth_client" cascade;`);
    this.addSql(`drop table if exists "oauth_inbound_request" cascade;`);
    this.addSql(`drop table if exists "oauth_token_family" cascade;`);
    this.addSql(`drop table if exists "oauth_refresh_token" cascade;`);
    this.addSql(`drop table if exists "oauth_authorization_code" cascade;`);

    this.addSql(`alter table "app_user" drop constraint "app_user_idp_identity_unique";`);

    this.addSql(`drop index "service_auth_token_family_id_index";`);
    this.addSql(`alter table "service_auth_token" drop column "family_id";`);
  }

}
