// Prometheus metrics: request count and latency by REST operation or GraphQL operation name
// and by outcome (the WS identifier on errors), plus process and event-loop metrics.
import { Registry, Counter, Gauge, Histogram, collectDefaultMetrics } from 'prom-client';
import { statementCount } from './statements';

export interface Metrics {
  registry: Registry;
  observe(labels: { operation: string; method: string; outcome: string }, seconds: number): void;
  /** A REST request carried a property its operation does not know (ignored, as legacy clients expect). */
  ignoredProperty(operation: string): void;
}

/** Connection pool counts of the database driver (pg's Pool); null where there is no pool (PGlite). */
export type PoolStats = () => Promise<{ total: number; idle: number; waiting: number } | null>;

export function createMetrics(poolStats?: PoolStats): Metrics {
  // One registry per app instance, so several instances in one process (tests) do not collide.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests by operation (REST operation or GraphQL operation name), method and outcome (ok or the error identifier).',
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
  return {
    registry,
    observe(labels, seconds) {
      requests.inc(labels);
      duration.observe({ operation: labels.operation, outcome: labels.outcome }, seconds);
    },
    ignoredProperty(operation) {
      ignored.inc({ operation });
    },
  };
}
