import { Migration } from '@mikro-orm/migrations';

export class Migration20261122003152_events_notifications extends Migration {

  override name = 'Migration20261122003152_events_notifications';

  override up(): void | Promise<void> {
    this.addSql(`create table "event" ("e_id" serial primary key, "event_uuid" uuid not null, "company_id" int not null, "name" varchar(255) not null, "description" varchar(4000) null, "address" varchar(255) null, "street" varchar(255) null, "suburb" varchar(100) null, "city" varchar(100) null, "post_code" varchar(20) null, "country" varchar(100) null, "status" varchar(1) not null default 'A', "image_url" varchar(1024) null, "flyer_pdf_url" varchar(1024) null, "latitude" numeric(9,6) null, "longitude" numeric(9,6) null, "timezone_id" varchar(64) not null, "utc_start" timestamptz not null, "utc_end" timestamptz not null, "use_external_event_provider" boolean not null default false, "version" int not null default 2, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "event" add constraint "event_event_uuid_unique" unique ("event_uuid");`);
    this.addSql(`create index "event_company_id_utc_start_index" on "event" ("company_id", "utc_start");`);

    this.addSql(`create table "scheduled_notification" ("notification_schedule_id" serial primary key, "company_id" int not null, "broadcast_type" varchar(2) not null, "key_company_id" int null, "key_event_uuid" uuid null, "schedule_timezone_id" varchar(40) not null, "schedule_local_date_time" timestamp(0) not null, "schedule_due_at" timestamptz not null, "schedule_job_name" varchar(100) null, "message" varchar(1000) not null, "url" varchar(1024) null, "value_ids" text[] not null, "total_notifications_sent" int null, "notification_log" varchar(2000) null, "status" text not null default 'PENDING', "claim_token" uuid null, "claimed_until" timestamptz null, "attempts" int not null default 0, "schedule_created" timestamptz not null, "schedule_modified" timestamptz not null, "schedule_created_by" varchar(15) not null, "schedule_modified_by" varchar(15) not null, "brochure_id" int null, "email_template" varchar(100) null, "email_subject" varchar(256) null, "email_params" jsonb null, "version" int not null default 3);`);
    this.addSql(`create index "scheduled_notification_company_id_broadcast_type_index" on "scheduled_notification" ("company_id", "broadcast_type");`);
    this.addSql(`create index "scheduled_notification_status_schedule_due_at_index" on "scheduled_notification" ("status", "schedule_due_at");`);

    this.addSql(`create table "sent_notification" ("notification_id" serial primary key, "type" varchar(2) not null, "company_id" int not null, "event_uuid" uuid null, "notification_schedule_id" int null, "message" varchar(255) not null, "description" varchar(2000) null, "url" varchar(1024) null, "successful" boolean not null, "total_notifications_sent" int not null, "team_ids" text[] null, "notification_log" varchar(2000) null, "notification_created" timestamptz not null, "notification_modified" timestamptz not null, "notification_created_by" varchar(15) not null, "notification_modified_by" varchar(15) not null, "brochure_id" int null, "email_template" varchar(100) null, "email_subject" varchar(256) null, "email_params" jsonb null);`);
    this.addSql(`create index "sent_notification_event_uuid_index" on "sent_notification" ("event_uuid");`);
    this.addSql(`alter table "sent_notification" add constraint "sent_notification_notification_schedule_id_unique" unique ("notification_schedule_id");`);
    this.addSql(`create index "sent_notification_company_id_type_notification_created_index" on "sent_notification" ("company_id", "type", "notification_created");`);

    this.addSql(`create table "notification_inbox" ("id" serial primary key, "notification_id" int not null, "user_id" int not null, "delivered_at" timestamptz not null, "read_at" timestamptz null);`);
    this.addSql(`create index "notification_inbox_user_id_delivered_at_index" on "notification_inbox" ("user_id", "delivered_at");`);
    this.addSql(`alter table "notification_inbox" add constraint "notification_inbox_notification_id_user_id_unique" unique ("notification_id", "user_id");`);

    this.addSql(`create table "event_attendee" ("attendee_id" serial primary key, "invite_uuid" uuid not null, "event_id" int not null, "user_id" int not null, "invite_status" varchar(1) not null default 'P', "attending_status" varchar(1) not null default 'U', "invites_sent" int not null default 0, "reminders_sent" int not null default 0, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "event_attendee" add constraint "event_attendee_invite_uuid_unique" unique ("invite_uuid");`);
    this.addSql(`create index "event_attendee_user_id_index" on "event_attendee" ("user_id");`);
    this.addSql(`alter table "event_attendee" add constraint "event_attendee_event_id_user_id_unique" unique ("event_id", "user_id");`);

    this.addSql(`create table "asset_level_preference" ("id" serial primary key, "user_id" int not null, "brochure_id" int not null, "code" text not null, "created_at" timestamptz not null default now());`);
    this.addSql(`alter table "asset_level_preference" add constraint "asset_level_preference_user_id_brochure_id_code_unique" unique ("user_id", "brochure_id", "code");`);

    this.addSql(`alter table "event" add constraint "event_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);

    this.addSql(`alter table "scheduled_notification" add constraint "scheduled_notification_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "scheduled_notification" add constraint "scheduled_notification_status_check" check ("status" in ('PENDING', 'PROCESSING', 'SENT', 'FAILED'));`);

    this.addSql(`alter table "sent_notification" add constraint "sent_notification_company_id_foreign" foreign key ("company_id") references "company" ("company_id") on delete cascade;`);
    this.addSql(`alter table "sent_notification" add constraint "sent_notification_notification_schedule_id_foreign" foreign key ("notification_schedule_id") references "scheduled_notification" ("notification_schedule_id") on delete set null;`);

    this.addSql(`alter table "notification_inbox" add constraint "notification_inbox_notification_id_foreign" foreign key ("notification_id") references "sent_notification" ("notification_id") on delete cascade;`);
    this.addSql(`alter table "notification_inbox" add constraint "notification_inbox_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);

    this.addSql(`alter table "event_attendee" add constraint "event_attendee_event_id_foreign" foreign key ("event_id") references "event" ("e_id") on delete cascade;`);
    this.addSql(`alter table "event_attendee" add constraint "event_attendee_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);

    this.addSql(`alter table "asset_level_preference" add constraint "asset_level_preference_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
    this.addSql(`alter table "asset_level_preference" add constraint "asset_level_preference_code_check" check ("code" in ('ALP-NUN', 'ALP-EUN'));`);

    // Demo rows use fixed low ids; generated ids start well above them.
    this.addSql(`alter sequence "event_e_id_seq" restart with 100000;`);
    this.addSql(`alter sequence "event_attendee_attendee_id_seq" restart with 100000;`);
    this.addSql(`alter sequence "scheduled_notification_notification_schedule_id_seq" restart with 100000;`);
    this.addSql(`alter sequence "sent_notification_notification_id_seq" restart with 100000;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "event_attendee" drop constraint "event_attendee_event_id_foreign";`);
    this.addSql(`alter table "sent_notification" drop constraint "sent_notification_notification_schedule_id_foreign";`);
    this.addSql(`alter table "notification_inbox" drop constraint "notification_inbox_notification_id_foreign";`);

    this.addSql(`drop table if exists "event" cascade;`);
    this.addSql(`drop table if exists "scheduled_notification" cascade;`);
    this.addSql(`drop table if exists "sent_notification" cascade;`);
    this.addSql(`drop table if exists "notification_inbox" cascade;`);
    this.addSql(`drop table if exists "event_attendee" cascade;`);
    this.addSql(`drop table if exists "asset_level_preference" cascade;`);
  }

}
