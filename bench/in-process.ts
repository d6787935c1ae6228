// Start-up shared by the bench's own servers (floor-server.ts, sofa-server.ts): the service's
// configuration, logger and ORM built as src/server.ts builds them (statements counted the same
// way), without migrating: the service the bench starts first has migrated the database.
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfigOrExit, type Config } from '../src/config';
import { createLogger, type Logger } from '../src/logger';
import { createOrm, type Orm } from '../src/db/orm';
import { countStatement } from '../src/observability/statements';
import { ENTITIES } from '../src/modules';

export interface InProcess {
  config: Config;
  logger: Logger;
  orm: Orm;
}

export async function startInProcess(): Promise<InProcess> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const orm = await createOrm({
    entities: ENTITIES,
    databaseUrl: config.databaseUrl,
    embeddedDir: path.join(config.dataDir, 'pgdata'),
    logger,
    onQuery: countStatement,
  });
  return { config, logger, orm };
}

/** Serves `handle` on PORT as server.ts does (same timeouts), and closes on SIGTERM. */
export function listen(
  handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
  port: number,
  host: string,
  close: () => Promise<void>,
): void {
  const server = http.createServer((req, res) => void handle(req, res));
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  server.listen(port, host, () => console.log(JSON.stringify({ msg: 'listening', port: (server.address() as AddressInfo).port })));
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => void close().then(() => process.exit(0)));
  });
}
