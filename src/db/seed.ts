// Demo tenant seeding: runs each module's demo seeder, in dependency order, in one
// transaction, once (on an empty database). Never in production (config refuses it).
import type { MikroORM } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../logger';
import { ReferenceDataVersion } from '../modules/reference-data/reference-data.entity';
import { ReferenceDataSeeder } from '../modules/reference-data/reference-data.seeder';
import { CoreSeeder } from '../modules/company/core.seeder';
import { DiscoverySeeder } from '../modules/discovery/discovery.seeder';
import { UserProfileSeeder } from '../modules/user/user.seeder';
import { AddressSeeder } from '../modules/address/address.seeder';
import { ConsentSeeder } from '../modules/consent/consent.seeder';
import { DirectorySeeder } from '../modules/directory/directory.seeder';
import { EventSeeder } from '../modules/event/event.seeder';
import { NotificationSeeder } from '../modules/notification/notification.seeder';
import { LibrarySeeder } from '../modules/library/library.seeder';

/** Each module appends its demo seeder here as its domain lands. */
export const DEMO_SEEDERS: (new () => Seeder)[] = [
  ReferenceDataSeeder,
  CoreSeeder,
  DiscoverySeeder,
  UserProfileSeeder,
  AddressSeeder,
  ConsentSeeder,
  DirectorySeeder,
  EventSeeder,
  NotificationSeeder,
  LibrarySeeder,
];

export class DemoSeeder extends Seeder {
  // Not Seeder.call(): it forks the EntityManager, and a fork leaves the transaction (on the
  // single-connection embedded database it would wait for itself forever).
  async run(em: EntityManager): Promise<void> {
    for (const S of DEMO_SEEDERS) {
      await new S().run(em);
      await em.flush();
    }
  }
}

export async function seedDemoIfEmpty(orm: MikroORM, logger: Logger): Promise<boolean> {
  const em = orm.em.fork();
  // The conditions version row is the first thing the demo seed writes.
  if (await em.count(ReferenceDataVersion, { name: 'conditions' })) return false;
  await em.transactional(async (tx) => {
    await new DemoSeeder().run(tx);
  });
  logger.info('demo tenant seeded');
  return true;
}
