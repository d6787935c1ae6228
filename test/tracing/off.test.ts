// With no endpoint configured nothing is started: the API keeps its no-op tracer.
import { trace } from '@opentelemetry/api';
import { loadConfig } from '../../src/config';
import { startTracing } from '../../src/observability/tracing';
import { startTestApp } from '../kit';

describe('tracing without an endpoint', () => {
  it('when OTEL_EXPORTER_OTLP_ENDPOINT is unset, then no SDK starts and requests record nothing', async () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    expect(config.otlpEndpoint).toBeNull();
    expect(startTracing({ endpoint: config.otlpEndpoint })).toBeNull();
    // No provider registered: every span handed out is a non-recording no-op.
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);

    const t = await startTestApp();
    try {
      const res = await t.rest('GET', '/rest/refdata/conditions');
      expect(res.status).toBe(200);
      expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('when the endpoint is not an http(s) URL, then configuration is refused', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL',
    );
    expect(loadConfig({ NODE_ENV: 'test', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318/' }).otlpEndpoint).toBe('http://otel:4318');
  });
});
