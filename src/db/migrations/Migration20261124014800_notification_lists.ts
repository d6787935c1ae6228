import { Migration } from '@mikro-orm/migrations';

export class Migration20261124014800_notification_lists extends Migration {

  override name = 'Migration20261124014800_notification_lists';

  override up(): void | Promise<void> {
    // The sent lists (endpoints 16 and 17) are read whole in keyset batches, newest first: each
    // batch is one range scan of an index in the list's order. The new indexes begin with the
    // columns of the ones they replace, so every earlier lookup keeps an index.
    this.addSql(`drop index "scheduled_notification_company_id_broadcast_type_index";`);
    this.addSql(`create index "scheduled_notification_company_list_index" on "scheduled_notification" ("company_id", "broadcast_type", "schedule_due_at" DESC, "notification_schedule_id" DESC);`);

    this.addSql(`drop index "sent_notification_company_id_type_notification_created_index";`);
    this.addSql(`drop index "sent_notification_event_uuid_index";`);
    this.addSql(`create index "sent_notification_event_list_index" on "sent_notification" ("event_uuid", "notification_created" DESC, "notification_id" DESC);`);
    this.addSql(`create index "sent_notification_company_list_index" on "sent_notification" ("company_id", "type", "notification_created" DESC, "notification_id" DESC);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "sent_notification_company_list_index";`);
    this.addSql(`drop index "sent_notification_event_list_index";`);
    this.addSql(`create index "sent_notification_event_uuid_index" on "sent_notification" ("event_uuid");`);
    this.addSql(`create index "sent_notification_company_id_type_notification_created_index" on "sent_notification" ("company_id", "type", "notification_created");`);

    this.addSql(`drop index "scheduled_notification_company_list_index";`);
    this.addSql(`create index "scheduled_notification_company_id_broadcast_type_index" on "scheduled_notification" ("company_id", "broadcast_type");`);
  }

}
