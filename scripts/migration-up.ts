// Applies pending migrations to the configured database (npm run migration:up).
import path from 'node:path';
import { loadConfig } from '../src/config';
import { createOrm } from '../src/db/orm';

async function main() {
  const config = loadConfig();
  const orm = await createOrm({ databaseUrl: config.databaseUrl, embeddedDir: path.join(config.dataDir, 'pgdata') });
  try {
    const done = await orm.migrator.up();
    console.log(done.length ? `Applied: ${done.map((m) => m.name).join(', ')}` : 'Nothing to apply.');
  } finally {
    await orm.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
