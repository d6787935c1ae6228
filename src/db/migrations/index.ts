// Migrations are listed explicitly so compiled and ts-jest runs load the same set without globbing.
// `npm run migration:create -- <name>` writes a new file here and appends it to this list.
import type { Migration } from '@mikro-orm/migrations';
import { Migration20261124160233_smart_library_entry_count } from './Migration20261124160233_smart_library_entry_count';
import { Migration20261127220000_event_company_order } from './Migration20261127220000_event_company_order';
import { Migration20261201210000_lockout_counter_keys } from './Migration20261201210000_lockout_counter_keys';
import { Migration20261204230000_idempotency_key } from './Migration20261204230000_idempotency_key';
import { Migration20261205020000_replica_read_floor } from './Migration20261205020000_replica_read_floor';
import { Migration20261124091000_notification_email } from './Migration20261124091000_notification_email';
import { Migration20261124120000_rate_limit_unlogged } from './Migration20261124120000_rate_limit_unlogged';
import { Migration20261124090000_push_subscription } from './Migration20261124090000_push_subscription';
import { Migration20261124061500_discovery_match_keys } from './Migration20261124061500_discovery_match_keys';
import { Migration20261124014800_notification_lists } from './Migration20261124014800_notification_lists';
import { Migration20261122011418_support_group } from './Migration20261122011418_support_group';
import { Migration20261122003714_smart_directories } from './Migration20261122003714_smart_directories';
import { Migration20261122003606_smart_library } from './Migration20261122003606_smart_library';
import { Migration20261122003152_events_notifications } from './Migration20261122003152_events_notifications';
import { Migration20261122003039_profile_addresses_consents } from './Migration20261122003039_profile_addresses_consents';
import { Migration20261122002824_identity } from './Migration20261122002824_identity';
import { Migration20261122002816_discovery } from './Migration20261122002816_discovery';
import { Migration20261122002217_core } from './Migration20261122002217_core';
import { Migration20261122001343_reference_data } from './Migration20261122001343_reference_data';

export const MIGRATIONS: (new (...args: any[]) => Migration)[] = [
  Migration20261122001343_reference_data,
  Migration20261122002217_core,
  Migration20261122002816_discovery,
  Migration20261122002824_identity,
  Migration20261122003039_profile_addresses_consents,
  Migration20261122003152_events_notifications,
  Migration20261122003606_smart_library,
  Migration20261122003714_smart_directories,
  Migration20261122011418_support_group,
  Migration20261124014800_notification_lists,
  Migration20261124061500_discovery_match_keys,
  Migration20261124090000_push_subscription,
  Migration20261124091000_notification_email,
  Migration20261124120000_rate_limit_unlogged,
  Migration20261124160233_smart_library_entry_count,
  Migration20261127220000_event_company_order,
  Migration20261201210000_lockout_counter_keys,
  Migration20261204230000_idempotency_key,
  Migration20261205020000_replica_read_floor,
];
