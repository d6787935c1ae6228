import { Migration } from '@mikro-orm/migrations';

export class Migration20261201210000_lockout_counter_keys extends Migration {

  override name = 'Migration20261201210000_lockout_counter_keys';

  override up(): void | Promise<void> {
    // The brute-force counters named their keys by the e-mail address and the client address in
    // clear (bf-account:<e-mail>); they are now a keyed hash under new prefixes (lockout-account:,
    // src/modules/identity/brute-force.ts). The old rows go now rather than when they expire: what
    // is lost is at most one window's failures, as after a crash of the server (docs/security.md).
    this.addSql(`delete from "auth_rate_limit" where "key" like 'bf-account:%' or "key" like 'bf-address:%';`);
  }

  override down(): void | Promise<void> {
    // Nothing to restore: counters start from zero, the keys of the new layout expire by themselves.
  }

}
