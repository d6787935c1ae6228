// MikroORM configuration for tooling that looks for this file at the top of the repository.
// The service itself builds the same options in src/db/orm.ts from src/config.ts.
import path from 'node:path';
import { loadConfig } from './src/config';
import { ormOptions } from './src/db/orm';
import { ENTITIES } from './src/modules';

const config = loadConfig();
export default ormOptions({ entities: ENTITIES, databaseUrl: config.databaseUrl, embeddedDir: path.join(config.dataDir, 'pgdata') });
