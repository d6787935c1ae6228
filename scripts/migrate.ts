// npm run migrate: the one-shot migration job (an orchestrator runs it before the instances of a
// release, which then start with MIGRATE_ON_START=false). It does what start-up does before it
// serves: pending migrations, then the demo seed on an empty database when SEED_DEMO is on (never
// in production), under the migration lock, so it may run beside instances that migrate on start,
// or twice at once. Exits 0 when the database is up to date, 1 otherwise (2: bad configuration).
// It reads only what migrations need (MIGRATION_VARIABLES): the job is given no key or secret, and
// production's checks of those are the service's.
import path from 'node:path';
import { loadMigrationConfigOrExit } from '../src/config';
import { createLogger, prettyStdout } from '../src/logger';
import { createOrm } from '../src/db/orm';
import { migrateAndSeed } from '../src/db/migration-lock';
import { ENTITIES } from '../src/modules';
import { seedDemoIfEmpty } from '../src/modules/demo-seed';

async function main() {
  const config = loadMigrationConfigOrExit();
  const logger = createLogger(config.logLevel, config.logFormat === 'pretty' ? prettyStdout() : undefined);
  const orm = await createOrm({
    entities: ENTITIES,
    databaseUrl: config.databaseUrl,
    embeddedDir: path.join(config.dataDir, 'pgdata'),
    logger,
    poolMax: 2,
  });
  try {
    const { applied } = await migrateAndSeed(orm, {
      lockUrl: config.databaseDirectUrl ?? config.databaseUrl,
      seedDemo: config.seedDemo ? seedDemoIfEmpty : null,
      logger,
    });
    if (!applied.length) logger.info('migrations: nothing to apply');
  } finally {
    await orm.close();
  }
  logger.flush(() => process.exit(0));
}

main().catch((err) => {
  console.error('Migration failed:', err);
  process.exit(1);
});
