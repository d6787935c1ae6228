// Migrations are listed explicitly so compiled and ts-jest runs load the same set without globbing.
// `npm run migration:create -- <name>` writes a new file here and appends it to this list.
import type { Migration } from '@mikro-orm/migrations';
import { Migration20261122002217_core } from './Migration20261122002217_core';
import { Migration20261122001343_reference_data } from './Migration20261122001343_reference_data';

export const MIGRATIONS: (new (...args: any[]) => Migration)[] = [
  Migration20261122001343_reference_data,
  Migration20261122002217_core,
];
