// Start (the ports checked first, migrations under the migration lock, production's refusal of demo
// credentials), listen, graceful shutdown (drain out of the balancer, then close): nothing else.
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { loadConfigOrExit, type Config } from './config';
import { createLogger, prettyStdout, type Logger } from './logger';
import { createOrm, type Orm } from './db/orm';
import { migrateAndSeed, pendingUnderLock } from './db/migration-lock';
import { findDemoCredentials } from './modules/demo-credentials';
import { seedDemoIfEmpty } from './modules/demo-seed';
import { BLOB_REFERENCES, ENTITIES, MODULES } from './modules';
import { createApp } from './app';
import { startBackgroundWork } from './background';
import { countStatement } from './observability/statements';
import { startTracing } from './observability/tracing';
import { metricsPlace, startMetricsListener, type MetricsListener } from './http/probes';
import { InFlight } from './http/in-flight';

/** How long shutdown waits, once every connection has closed, for handlers still cleaning up. */
const HANDLER_GRACE_MS = 5_000;

async function main() {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, config.logFormat === 'pretty' ? prettyStdout() : undefined);
  // Before migrations and queue workers: a port another process holds stops nothing half-started.
  const taken = await portsTaken(config);
  if (taken) return cannotListen(logger, taken);
  // Before anything runs a statement or serves a request; null when no endpoint is set.
  const tracing = startTracing({ endpoint: config.otlpEndpoint, serviceName: config.otelServiceName });
  if (tracing) logger.info({ endpoint: config.otlpEndpoint }, 'tracing: exporting spans over OTLP');
  const orm = await createOrm({
    databaseUrl: config.databaseUrl,
    replicaUrls: config.databaseReplicaUrls,
    replicaTimeoutMs: config.databaseReplicaTimeoutMs,
    embeddedDir: path.join(config.dataDir, 'pgdata'),
    entities: ENTITIES,
    logger,
    onQuery: countStatement,
  });
  // Under the migration lock: of instances started together, one migrates and the others wait.
  const lockUrl = config.databaseDirectUrl ?? config.databaseUrl;
  if (config.migrateOnStart) await migrateAndSeed(orm, { lockUrl, seedDemo: config.seedDemo ? seedDemoIfEmpty : null, logger });
  else {
    const pending = await pendingUnderLock(orm, lockUrl, logger);
    if (pending.length)
      return refuseToStart(logger, orm, `${pending.length} migration(s) pending and MIGRATE_ON_START=false: run npm run migrate first`, {
        pending,
      });
  }
  if (config.nodeEnv === 'production' && !config.allowDemoCredentials) {
    const found = await findDemoCredentials(orm, config.auth.loginClient.clientId);
    if (found.length)
      return refuseToStart(
        logger,
        orm,
        `the database holds the demo tenant's published credentials: ${found.join('; ')}. Delete them or change their secrets ` +
          '(or set ALLOW_DEMO_CREDENTIALS=true)',
        { demoCredentials: found },
      );
  }
  const app = await createApp({ config, logger, orm });
  const background = startBackgroundWork({
    orm,
    config,
    logger,
    services: app.services,
    modules: MODULES,
    blobReferences: BLOB_REFERENCES,
  });

  // Requests whose handlers are still running: shutdown waits for them before closing the
  // database, so a request cut at the timeout still cleans up (an upload deletes its chunks).
  const handle = app.koa.callback();
  const inFlight = new InFlight();
  let stopping = false;
  const server = http.createServer((req, res) => {
    // After SIGTERM every answer closes its connection: keep-alive clients under load would
    // otherwise hold the server open until the timeout cut their requests.
    if (stopping) res.setHeader('connection', 'close');
    inFlight.track(res, () => handle(req, res));
  });
  app.live.attach(server);
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  // The port may still have been taken since it was checked (another process started meanwhile).
  const listenError = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
    server.once('error', resolve);
    server.listen(config.port, config.host, () => {
      server.off('error', resolve);
      resolve(null);
    });
  });
  const abandon = async (variable: PortTaken['variable'], port: number, err: NodeJS.ErrnoException) => {
    if (server.listening) await new Promise((resolve) => server.close(resolve));
    await background.stop();
    await app.stop();
    await orm.close();
    return cannotListen(logger, { variable, port, host: config.host, err });
  };
  if (listenError) return abandon('PORT', config.port, listenError);
  const port = (server.address() as { port: number }).port;
  const base = config.publicBaseUrl;
  logger.info({ port, database: config.databaseUrl ? 'postgresql' : `embedded (${config.dataDir})` }, 'listening');
  // With METRICS_PORT, /metrics on a listener of its own (and not on PORT).
  let metricsListener: MetricsListener | null;
  try {
    metricsListener = await startMetricsListener(config, app.metrics);
  } catch (err) {
    return abandon('METRICS_PORT', config.metricsPort!, err as NodeJS.ErrnoException);
  }
  if (metricsListener) logger.info({ port: metricsListener.port }, 'metrics listening');
  if (config.nodeEnv !== 'production') {
    console.log(
      [
        '',
        `${config.sandbox ? '  GraphQL (Apollo Sandbox): ' : '  GraphQL:                  '}${base}/graphql`,
        ...(config.explorer ? [`  GraphiQL (offline):       ${base}/graphiql`] : []),
        `  REST base:                ${base}/rest`,
        `  OpenAPI:                  ${base}/openapi.json`,
        `  Try:                      curl '${base}/rest/refdata/timezones?countryCode=au'`,
        ...(config.seedDemo
          ? [
              '',
              '  Demo log-in (docs/getting-started.md walks through every endpoint):',
              `    curl -X POST ${config.authBaseUrl}/as/token.oauth2 -d grant_type=password -d scope=sso \\`,
              `      -d client_id=demo-mobile -d client_secret=demo-mobile-secret -d username=olivia@demo.example --data-urlencode 'password=Demo-Passw0rd!'`,
              `    curl -X POST ${base}/rest/user/login -H 'Authorization: Bearer <access_token>'   # -> authToken for x-service-authtoken`,
            ]
          : []),
        '',
      ].join('\n'),
    );
  }

  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Out of the balancer before the door closes: /readyz answers 503 while everything else is
    // still served (each answer now closing its connection, so none is left idle to be cut), until
    // the balancer's health checks have noticed.
    app.startDraining();
    if (config.shutdownDrainMs > 0) {
      logger.info({ signal, drainMs: config.shutdownDrainMs }, 'draining: /readyz answers 503, requests still served');
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    }
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.warn('shutdown timeout: closing remaining connections');
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    // Subscriptions never finish by themselves: end them first.
    await app.live.close();
    for (const res of inFlight.responses()) {
      if (!res.headersSent) res.setHeader('connection', 'close');
      // Already answering with keep-alive: close its connection once it is idle.
      else if (!res.writableFinished) res.once('finish', () => setImmediate(() => server.closeIdleConnections()));
    }
    // close() refuses new connections (and closes idle ones); it calls back once every
    // connection has closed.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await closed;
    await metricsListener?.close();
    await Promise.race([inFlight.settled(), new Promise((resolve) => setTimeout(resolve, HANDLER_GRACE_MS))]);
    await background.stop();
    await app.stop();
    await orm.close();
    // Flushes the spans of the last requests to the collector.
    await tracing?.shutdown().catch((err) => logger.warn({ err }, 'tracing: final export failed'));
    clearTimeout(force);
    logger.info('stopped');
    // pino writes asynchronously: flush before exiting so the last lines are not lost.
    logger.flush(() => process.exit(0));
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

interface PortTaken {
  variable: 'PORT' | 'METRICS_PORT';
  port: number;
  host: string;
  err: NodeJS.ErrnoException;
}

/**
 * Each port the service will listen on, bound for a moment and released (0, any free port, needs
 * no check). Binding is the one true test; a process that takes the port between this and the
 * listen is still met by cannotListen, only after start-up's work.
 */
async function portsTaken(config: Config): Promise<PortTaken | null> {
  const wanted = [
    { variable: 'PORT' as const, port: config.port },
    ...(metricsPlace(config) === 'own-port' ? [{ variable: 'METRICS_PORT' as const, port: config.metricsPort! }] : []),
  ];
  for (const { variable, port } of wanted) {
    if (port === 0) continue;
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      const probe = net.createServer();
      probe.once('error', resolve);
      probe.listen(port, config.host, () => probe.close(() => resolve(null)));
    });
    if (err) return { variable, port, host: config.host, err };
  }
  return null;
}

const LISTEN_ERRORS: Record<string, (variable: string) => string> = {
  EADDRINUSE: (variable) => `the address is already in use by another process; stop it or choose another ${variable}`,
  EACCES: (variable) => `permission denied (ports below 1024 need privileges); choose another ${variable}`,
  EADDRNOTAVAIL: () => 'HOST is not an address of this machine',
};

/** One line naming the port and why (no stack), then exit 1. */
function cannotListen(logger: Logger, { variable, port, host, err }: PortTaken): Promise<never> {
  const why = (err.code ? LISTEN_ERRORS[err.code]?.(variable) : undefined) ?? err.message;
  logger.error({ code: err.code, host, port }, `cannot listen on ${host}:${port} (${variable}): ${why}`);
  return new Promise<never>(() => logger.flush(() => process.exit(1)));
}

/** Start-up cannot go on: one error line saying why, then exit 1. */
async function refuseToStart(logger: Logger, orm: Orm, message: string, detail: Record<string, unknown>): Promise<never> {
  logger.error(detail, `refusing to start: ${message}`);
  await orm.close().catch(() => undefined);
  // pino writes asynchronously: flush before exiting so the line is not lost.
  return new Promise<never>(() => logger.flush(() => process.exit(1)));
}

main().catch((err) => {
  console.error('Failed to start:', err);
  process.exit(1);
});
