// The OTLP/HTTP exporter really sends: a loopback "collector" receives the request's spans.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config';
import { startTracing } from '../../src/observability/tracing';
import { startTestApp } from '../kit';

it('when an endpoint is configured, then the spans of a request are POSTed to <endpoint>/v1/traces', async () => {
  const received: { method: string; url: string; type: string; body: string }[] = [];
  const collector = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({
        method: req.method!,
        url: req.url!,
        type: String(req.headers['content-type']),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const config = loadConfig({
    NODE_ENV: 'test',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
  });
  const tracing = startTracing({ endpoint: config.otlpEndpoint, serviceName: config.otelServiceName })!;
  const t = await startTestApp();
  try {
    const res = await t.rest('GET', '/rest/refdata/conditions', { headers: { 'x-request-id': 'otlp-request-1' } });
    expect(res.status).toBe(200);
    await tracing.flush();
    const posts = received.filter((r) => r.method === 'POST' && r.url === '/v1/traces');
    expect(posts.length).toBeGreaterThan(0);
    const all = posts.map((p) => p.body).join('\n');
    // Whether JSON or protobuf, the names and attribute values appear verbatim.
    for (const text of ['pronet-service', 'getConditions', 'GET /rest/refdata/conditions', 'otlp-request-1', 'SELECT'])
      expect(all).toContain(text);
  } finally {
    await t.close();
    await tracing.shutdown();
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  }
});
