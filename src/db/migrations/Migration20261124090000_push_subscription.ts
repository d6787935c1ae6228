import { Migration } from '@mikro-orm/migrations';

export class Migration20261124090000_push_subscription extends Migration {

  override name = 'Migration20261124090000_push_subscription';

  override up(): void | Promise<void> {
    // Web Push subscriptions (src/modules/push): one row per browser endpoint, looked up by the
    // recipients of a delivery (user_id) and by endpoint (register, unsubscribe, a 404/410 answer).
    this.addSql(`create table "push_subscription" ("id" serial primary key, "user_id" int not null, "endpoint" varchar(1024) not null, "p256dh" varchar(100) not null, "auth" varchar(30) not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now());`);
    this.addSql(`create index "push_subscription_user_id_index" on "push_subscription" ("user_id");`);
    this.addSql(`alter table "push_subscription" add constraint "push_subscription_endpoint_unique" unique ("endpoint");`);
    this.addSql(`alter table "push_subscription" add constraint "push_subscription_user_id_foreign" foreign key ("user_id") references "app_user" ("u_id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "push_subscription" cascade;`);
  }

}
