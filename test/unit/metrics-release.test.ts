// An app's process metrics stop with it: the GC observer and the event-loop delay monitor that
// prom-client starts are released by metrics.release() (app.stop()), so a stopped app is not kept
// alive by Node's observer list, nor called on every collection after it.
import perfHooks from 'node:perf_hooks';
import { createMetrics } from '../../src/observability/metrics';
import { collect } from '../kit/memory';

/** The GC histogram's sample count, once the observer's callback has had its turn. */
async function gcCount(metrics: ReturnType<typeof createMetrics>): Promise<number> {
  collect();
  await new Promise((r) => setTimeout(r, 50));
  const metric = await metrics.registry.getSingleMetric('nodejs_gc_duration_seconds')!.get();
  return metric.values
    .filter((v) => 'metricName' in v && v.metricName === 'nodejs_gc_duration_seconds_count')
    .reduce((n, v) => n + v.value, 0);
}

it('when metrics are made, then collections are counted, and after release() none are', async () => {
  const { PerformanceObserver, monitorEventLoopDelay } = perfHooks;
  const metrics = createMetrics(new Set());
  // Node's own constructors are back in place once prom-client has made its observers.
  expect([perfHooks.PerformanceObserver, perfHooks.monitorEventLoopDelay]).toEqual([PerformanceObserver, monitorEventLoopDelay]);
  const counted = await gcCount(metrics);
  expect(counted).toBeGreaterThan(0);
  metrics.release();
  expect(await gcCount(metrics)).toBe(counted);
  // The event loop's delay is still reported (the last reading), not an error.
  expect(await metrics.registry.metrics()).toContain('nodejs_eventloop_lag_seconds');
});
