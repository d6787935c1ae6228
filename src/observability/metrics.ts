// Prometheus metrics: request count and latency by REST operation or GraphQL operation name
// and by outcome (the WS identifier on errors), plus process and event-loop metrics. Every label
// value comes from a closed set (a value prom-client has seen is kept for the life of the
// process): operations from operation-names.ts, methods from METHODS, outcomes from the error
// identifiers and HTTP statuses the service answers with.
import perfHooks from 'node:perf_hooks';
import { Registry, Counter, Gauge, Histogram, collectDefaultMetrics } from 'prom-client';
import { statementCount } from './statements';
import { poolAcquireSeconds } from './pool-waits';
import { OTHER_OPERATION, UNMATCHED } from './operation-names';
import type { ReadReport } from '../db/replicas';

/** One request as the access log saw it; observe() maps it onto the closed label sets. */
export interface ObservedRequest {
  /** ctx.state.operation: a REST operation, a GraphQL operation name (any a client sent), or an HTTP endpoint's name. */
  operation: string | undefined;
  /** The pattern of the router's route that took the request (@koa/router's _matchedRoute), if any did. */
  route: string | undefined;
  method: string;
  /** `ok`, the error identifier, or the status. */
  outcome: string;
}

export interface Metrics {
  registry: Registry;
  observe(request: ObservedRequest, seconds: number): void;
  /** A REST request carried a property its operation does not know (ignored, as legacy clients expect). */
  ignoredProperty(operation: string): void;
  /** Stops the process metrics' observers (app.stop()). */
  release(): void;
}

/** The method label: these, or `other` (Node's parser takes some thirty methods). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Connection pool counts of the database driver (pg's Pool); null where there is no pool (PGlite). */
export type PoolStats = () => Promise<{ total: number; idle: number; waiting: number } | null>;

/** The read routing (src/db/replicas.ts) when replicas are configured. */
export type ReadSource = { report(): ReadReport };

/**
 * `operations`: the operation names counted by name (knownOperations: the REST routes, the example
 * documents and the HTTP endpoints); any other is `other`.
 */
export function createMetrics(operations: ReadonlySet<string>, poolStats?: PoolStats, reads?: ReadSource | null): Metrics {
  // A request with a name counts under it when the service ships it; one without under the route
  // that took it (the probes, /graphiql: patterns of the router's own table), or as unmatched.
  const operationLabel = (r: Pick<ObservedRequest, 'operation' | 'route'>) =>
    r.operation === undefined ? (r.route ?? UNMATCHED) : operations.has(r.operation) ? r.operation : OTHER_OPERATION;
  // One registry per app instance, so several instances in one process (tests) do not collide.
  const registry = new Registry();
  const release = defaultMetrics(registry);
  const requests = new Counter({
    name: 'http_requests_total',
    help:
      'Requests by operation (REST operation, GraphQL operation the service ships or other, the route of an unnamed endpoint, or unmatched), ' +
      'method and outcome (ok, the error identifier, or the status).',
    labelNames: ['operation', 'method', 'outcome'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Request latency by operation and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const ignored = new Counter({
    name: 'rest_ignored_properties_total',
    help: 'Request properties a REST operation does not know, ignored as the legacy service did, by operation.',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  new Counter({
    name: 'db_statements_total',
    help: 'SQL statements sent to the database by this process.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(statementCount());
    },
  });
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections by state: total (open), idle, waiting (requests queued for a connection).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const stats = await poolStats?.().catch(() => null);
      if (!stats) return;
      this.set({ state: 'total' }, stats.total);
      this.set({ state: 'idle' }, stats.idle);
      this.set({ state: 'waiting' }, stats.waiting);
    },
  });
  registry.registerMetric(poolAcquireSeconds);
  if (reads) replicaMetrics(registry, reads);
  return {
    registry,
    release,
    observe(request, seconds) {
      const operation = operationLabel(request);
      requests.inc({ operation, method: METHODS.has(request.method) ? request.method : 'other', outcome: request.outcome });
      duration.observe({ operation, outcome: request.outcome }, seconds);
    },
    ignoredProperty(operation) {
      ignored.inc({ operation: operationLabel({ operation, route: undefined }) });
    },
  };
}

/** Reads by target (primary, replica1, ...: closed by DATABASE_REPLICA_URLS), and each replica's lag and state. */
function replicaMetrics(registry: Registry, reads: ReadSource): void {
  new Counter({
    name: 'db_reads_total',
    help: 'Read statements outside a transaction by the database that ran them: primary, or replica1, replica2, ... (DATABASE_REPLICA_URLS order).',
    labelNames: ['target'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [target, count] of Object.entries(reads.report().reads)) this.inc({ target }, count);
    },
  });
  new Gauge({
    name: 'db_replica_lag_seconds',
    help: 'How long ago the primary first held WAL the replica has not replayed, at the last check (every 200 ms); -1 while it does not answer.',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const r of reads.report().replicas) this.set({ replica: r.name }, r.up ? r.lagMs / 1000 : -1);
    },
  });
  new Gauge({
    name: 'db_replica_up',
    help: 'Whether the replica answered its last check (1) or not (0); one that lags past DATABASE_REPLICA_MAX_LAG_MS answers but takes no reads.',
    labelNames: ['replica'] as const,
    registers: [registry],
    collect() {
      for (const r of reads.report().replicas) this.set({ replica: r.name }, r.up ? 1 : 0);
    },
  });
}

/**
 * prom-client's process metrics, with a way to stop them. Two of them keep something running that
 * prom-client gives no handle to: the GC histogram's PerformanceObserver and the event-loop delay
 * monitor. Both stay registered with Node, and their callbacks hold the registry and everything the
 * caller's scope reaches: an app stopped in a process that goes on (a test file, a restart in
 * place) was kept whole, and every collection called every observer left behind. They are made
 * while prom-client registers its metrics, synchronously, so they are caught here as they are
 * created and stopped by the returned function.
 */
function defaultMetrics(registry: Registry): () => void {
  const stops: (() => void)[] = [];
  const { PerformanceObserver, monitorEventLoopDelay } = perfHooks;
  const hooks = perfHooks as { PerformanceObserver: typeof PerformanceObserver; monitorEventLoopDelay: typeof monitorEventLoopDelay };
  hooks.PerformanceObserver = class extends PerformanceObserver {
    constructor(callback: ConstructorParameters<typeof PerformanceObserver>[0]) {
      super(callback);
      stops.push(() => this.disconnect());
    }
  };
  hooks.monitorEventLoopDelay = (options) => {
    const histogram = monitorEventLoopDelay(options);
    stops.push(() => histogram.disable());
    return histogram;
  };
  try {
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  } finally {
    hooks.PerformanceObserver = PerformanceObserver;
    hooks.monitorEventLoopDelay = monitorEventLoopDelay;
  }
  return () => stops.splice(0).forEach((stop) => stop());
}
