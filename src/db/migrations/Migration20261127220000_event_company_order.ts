import { Migration } from '@mikro-orm/migrations';

export class Migration20261127220000_event_company_order extends Migration {

  override name = 'Migration20261127220000_event_company_order';

  override up(): void | Promise<void> {
    // A company's events are paged by (utc_start, e_id) (event.reads.ts EVENT_ORDER): with the id
    // in the index a page is read in order and stops at its size, where (company_id, utc_start)
    // made PostgreSQL read and sort every visible event of the company (the home screen's
    // Company.events at 10,000 events: 80 -> 0.12 ms a company, EXPLAIN ANALYZE on the scale-10
    // bench data set). It replaces the index it extends.
    this.addSql(`create index "event_company_id_utc_start_e_id_index" on "event" ("company_id", "utc_start", "e_id");`);
    this.addSql(`drop index "event_company_id_utc_start_index";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`create index "event_company_id_utc_start_index" on "event" ("company_id", "utc_start");`);
    this.addSql(`drop index "event_company_id_utc_start_e_id_index";`);
  }

}
