// Prometheus metrics: request count and latency by REST operation or GraphQL operation name
// and by outcome (the WS identifier on errors), plus process and event-loop metrics.
import { Registry, Counter, Histogram, collectDefaultMetrics } from 'prom-client';
import { statementCount } from './statements';

export interface Metrics {
  registry: Registry;
  observe(labels: { operation: string; method: string; outcome: string }, seconds: number): void;
}

export function createMetrics(): Metrics {
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
  new Counter({
    name: 'db_statements_total',
    help: 'SQL statements sent to the database by this process.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(statementCount());
    },
  });
  return {
    registry,
    observe(labels, seconds) {
      requests.inc(labels);
      duration.observe({ operation: labels.operation, outcome: labels.outcome }, seconds);
    },
  };
}
