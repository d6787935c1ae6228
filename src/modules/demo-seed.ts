// Demo tenant seeding: runs each module's demo seeders, in the module list's order, in one
// transaction, once (on an empty database). Never in production (config refuses it). Start-up and
// `npm run migrate` hand it to migrateAndSeed, which calls it under the migration lock (src/db/migration-lock.ts), so of instances started
// together on an empty database one seeds and the others find the tenant there.
import type { MikroORM } from '@mikro-orm/core';
import { Seeder } from '@mikro-orm/seeder';
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from '../logger';
import type { ModuleDefinition } from '../core/module';
import { MODULES } from '.';
import { ReferenceDataVersion } from './reference-data';

/** Every module's demo seeders, in the module list's order; loaded only when seeding. */
export async function demoSeeders(): Promise<(new () => Seeder)[]> {
  const lists = await Promise.all(MODULES.map((m: ModuleDefinition) => (m.seeders ? m.seeders() : Promise.resolve([]))));
  return lists.flat();
}

export class DemoSeeder extends Seeder {
  // Not Seeder.call(): it forks the EntityManager, and a fork leaves the transaction (on the
  // single-connection embedded database it would wait for itself forever).
  async run(em: EntityManager): Promise<void> {
    for (const S of await demoSeeders()) {
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
