// Spans through the real app: an HTTP server span, the GraphQL operation it ran (named after
// the spec's operation) and its SQL statements, one trace, each with the request id.
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import { startTracing, type Tracing } from '../../src/observability/tracing';
import { useTestApp } from '../kit';

let tracing: Tracing;
const exporter = new InMemorySpanExporter();

// Tracing starts before the app and stops after it (afterAll hooks run in order).
const t = useTestApp(() => {
  tracing = startTracing({ endpoint: null, exporter })!;
  return {};
});
afterAll(() => tracing.shutdown());
beforeEach(() => exporter.reset());

function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** The spans of the one trace, checked to be a tree rooted at the HTTP span. */
function traceOf(spans: ReadableSpan[]) {
  const http = spans.filter((s) => parentOf(s) === undefined);
  expect(http).toHaveLength(1);
  const root = http[0];
  expect(new Set(spans.map((s) => s.spanContext().traceId))).toEqual(new Set([root.spanContext().traceId]));
  const operations = spans.filter((s) => parentOf(s) === root.spanContext().spanId);
  expect(operations).toHaveLength(1);
  const operation = operations[0];
  const sql = spans.filter((s) => s.attributes['db.system.name'] === 'postgresql');
  return { root, operation, sql };
}

/** The operation span of a query: named after the operation, with the request id. */
function expectQuery(operation: ReadableSpan, name: string, requestId: string) {
  expect(operation.name).toBe(name);
  expect(operation.attributes).toMatchObject({
    'graphql.operation.name': name,
    'graphql.operation.type': 'query',
    'request.id': requestId,
  });
}

/** The SQL spans: at least one, each a child of the operation span, with the request id. */
function expectStatementsOf(operation: ReadableSpan, sql: ReadableSpan[], requestId: string) {
  expect(sql.length).toBeGreaterThan(0);
  for (const s of sql) {
    expect(parentOf(s)).toBe(operation.spanContext().spanId);
    expect(s.attributes['request.id']).toBe(requestId);
  }
}

describe('tracing a REST request', () => {
  it('when GET /rest/refdata/conditions is called, then HTTP span → getConditions → SELECT spans share one trace and the request id', async () => {
    const res = await t.rest('GET', '/rest/refdata/conditions', { headers: { 'x-request-id': 'trace-rest-1' } });
    expect(res.status).toBe(200);
    await tracing.flush();
    const { root, operation, sql } = traceOf(exporter.getFinishedSpans());

    expect(root.name).toBe('GET /rest/refdata/conditions');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.route': '/rest/refdata/conditions',
      'http.response.status_code': 200,
      'request.id': 'trace-rest-1',
      'operation.name': 'getConditions',
    });
    expectQuery(operation, 'getConditions', 'trace-rest-1');
    expectStatementsOf(operation, sql, 'trace-rest-1');
    for (const s of sql) {
      expect(s.name).toBe('SELECT');
      expect(String(s.attributes['db.query.text'])).toMatch(/^select /i);
      // Statements lie within their operation.
      expect(s.startTime[0] * 1e3 + s.startTime[1] / 1e6).toBeGreaterThanOrEqual(
        operation.startTime[0] * 1e3 + operation.startTime[1] / 1e6 - 1,
      );
    }
  });

  it('when the operation fails with a service error, then the operation span carries its identifier and the HTTP span the status', async () => {
    const res = await t.rest('GET', '/rest/refdata/timezones?countryCode=not-a-country', { headers: { 'x-request-id': 'trace-rest-2' } });
    expect(res.status).toBe(400);
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => parentOf(s) === undefined)!;
    const operation = spans.find((s) => s.name === 'getAllTimezones')!;
    expect(root.attributes).toMatchObject({
      'http.response.status_code': 400,
      'error.type': 'WSInvalidParameterException',
      'request.id': 'trace-rest-2',
    });
    expect(operation.attributes).toMatchObject({ 'error.type': 'WSInvalidParameterException', 'request.id': 'trace-rest-2' });
  });
});

describe('tracing a /graphql request', () => {
  it('when a named query runs, then HTTP span → operation span named after it → SELECT spans, with the request id', async () => {
    const res = await t.gql('query ConditionsVersion { conditionsVersion { version } }', undefined, { 'x-request-id': 'trace-gql-1' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    await tracing.flush();
    const { root, operation, sql } = traceOf(exporter.getFinishedSpans());

    expect(root.name).toBe('POST /graphql');
    expect(root.attributes).toMatchObject({ 'http.response.status_code': 200, 'request.id': 'trace-gql-1' });
    expectQuery(operation, 'ConditionsVersion', 'trace-gql-1');
    expectStatementsOf(operation, sql, 'trace-gql-1');
  });

  it('when the operation name is 5,000 characters long, then its span keeps the first 100 of them, as the access log does', async () => {
    const name = `Q${'n'.repeat(4999)}`;
    const res = await t.gql(`query ${name} { conditionsVersion { version } }`, undefined, { 'x-request-id': 'trace-gql-long' });
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    await tracing.flush();
    const { root, operation } = traceOf(exporter.getFinishedSpans());
    expect(operation.name).toBe(name.slice(0, 100));
    expect(operation.attributes['graphql.operation.name']).toBe(name.slice(0, 100));
    expect(root.attributes['operation.name']).toBe(name.slice(0, 100));
  });

  it('when the caller sends a traceparent, then the request continues that trace', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await t.gql('query Conditions { conditions { conditionId } }', undefined, { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    expect(spans.length).toBeGreaterThan(1);
    expect(spans.every((s) => s.spanContext().traceId === traceId)).toBe(true);
  });

  it('when statements run outside any request, then no span is recorded for them', async () => {
    await t.db.orm.em.fork().getConnection().execute('select 1');
    await tracing.flush();
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
