import { Migration } from '@mikro-orm/migrations';

export class Migration20261124091000_notification_email extends Migration {

  override name = 'Migration20261124091000_notification_email';

  override up(): void | Promise<void> {
    // The e-mail outbox: one row per recipient and notification, written with the inbox rows and
    // completed by the e-mail job (pg-boss keeps its jobs in its own schema, "pgboss").
    this.addSql(`create table "notification_email" ("notification_id" int not null, "user_id" int not null, "status" text not null default 'PENDING', "error" varchar(100) null, "sent_at" timestamptz null, primary key ("notification_id", "user_id"));`);
    this.addSql(`alter table "notification_email" add constraint "notification_email_notification_id_foreign" foreign key ("notification_id") references "sent_notification" ("notification_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "notification_email" add constraint "notification_email_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on update cascade on delete cascade;`);
    this.addSql(`alter table "notification_email" add constraint "notification_email_status_check" check ("status" in ('PENDING', 'SENT', 'FAILED'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "notification_email" cascade;`);
  }

}
