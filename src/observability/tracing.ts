// OpenTelemetry tracing: one span per HTTP request, one per GraphQL operation (REST routes
// included) and one per SQL statement, exported over OTLP/HTTP. Until startTracing() registers
// a provider, the request and operation helpers below do nothing but call on, without entering
// even OpenTelemetry's no-op tracers.
import {
  context,
  propagation,
  trace,
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  createContextKey,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import {
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_URL_PATH,
  ATTR_ERROR_TYPE,
} from '@opentelemetry/semantic-conventions';
import type Koa from 'koa';
import { whenAnswered } from './answered';

const TRACER_NAME = 'pronet-service';
/** Carried on every span so a trace can be found from a log line or a client's report. */
export const ATTR_REQUEST_ID = 'request.id';
const REQUEST_ID_KEY = createContextKey('pronet.request_id');
/** Whether startTracing() has a provider registered: without one, the request and operation
 * spans are skipped before OpenTelemetry's no-op path is entered (docs/performance.md). */
let recording = false;

export interface TracingOptions {
  /** OTLP/HTTP base URL (OTEL_EXPORTER_OTLP_ENDPOINT); spans go to `<endpoint>/v1/traces`. */
  endpoint: string | null;
  serviceName?: string;
  serviceVersion?: string;
  /** Test seam: export here instead of OTLP, synchronously (e.g. InMemorySpanExporter). */
  exporter?: SpanExporter;
}

export interface Tracing {
  /** Exports every finished span now. */
  flush(): Promise<void>;
  /** Flushes, then unregisters the provider: the API is back to no-op tracers. */
  shutdown(): Promise<void>;
}

/** Registers the SDK when an endpoint (or a test exporter) is given; null otherwise: nothing started. */
export function startTracing(options: TracingOptions): Tracing | null {
  if (!options.endpoint && !options.exporter) return null;
  // The SDK and the exporter are loaded only here, when spans are exported: a service that does
  // not trace keeps their 3.6 MB of heap out (docs/performance.md, "What the service loads").
  const { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor } =
    require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { OTLPTraceExporter } =
    require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const exporter = options.exporter ?? new OTLPTraceExporter({ url: `${options.endpoint!.replace(/\/+$/, '')}/v1/traces` });
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: options.serviceName ?? TRACER_NAME,
      ...(options.serviceVersion ? { [ATTR_SERVICE_VERSION]: options.serviceVersion } : {}),
    }),
    spanProcessors: [options.exporter ? new SimpleSpanProcessor(exporter) : new BatchSpanProcessor(exporter)],
  });
  // Also installs the AsyncLocalStorage context manager and the W3C traceparent propagator.
  provider.register();
  recording = true;
  return {
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      recording = false;
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** What traceOperation hands its function while nothing is recorded (OpenTelemetry's own no-op span). */
const NOT_RECORDING = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

function tracer() {
  return trace.getTracer(TRACER_NAME);
}

function requestIdAttribute(): Attributes {
  const id = context.active().getValue(REQUEST_ID_KEY);
  return typeof id === 'string' ? { [ATTR_REQUEST_ID]: id } : {};
}

/** Koa middleware: the HTTP server span, continuing an incoming traceparent. Runs after the
 * request id is chosen and outside the error handler, so it sees the final status. */
export const traceRequest: Koa.Middleware = async (ctx, next) => {
  if (!recording) return next();
  const requestId: string | undefined = ctx.state.requestId;
  const parent = propagation.extract(context.active(), ctx.headers);
  const span = tracer().startSpan(
    `${ctx.method} ${ctx.path}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: ctx.method,
        [ATTR_URL_PATH]: ctx.path,
        ...(requestId ? { [ATTR_REQUEST_ID]: requestId } : {}),
      },
    },
    parent,
  );
  if (!span.isRecording()) return next();
  const active = trace.setSpan(requestId ? parent.setValue(REQUEST_ID_KEY, requestId) : parent, span);
  try {
    await context.with(active, next);
  } catch (err) {
    span.recordException(err as Error);
    throw err;
  } finally {
    whenAnswered(ctx, () => endRequestSpan(ctx, span));
  }
};

function endRequestSpan(ctx: Koa.Context, span: Span): void {
  // @koa/router's matched pattern keeps the span name low-cardinality (no ids in it).
  const route = (ctx as { _matchedRoute?: string })._matchedRoute;
  if (route) {
    span.setAttribute(ATTR_HTTP_ROUTE, route);
    span.updateName(`${ctx.method} ${route}`);
  }
  if (ctx.state.operation) span.setAttribute('operation.name', ctx.state.operation);
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, ctx.status);
  if (ctx.state.errorCode) span.setAttribute(ATTR_ERROR_TYPE, ctx.state.errorCode);
  if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Runs fn inside a span named after a GraphQL operation; statements it runs become children. */
export async function traceOperation<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  if (!recording) return fn(NOT_RECORDING);
  return tracer().startActiveSpan(name, { attributes: { ...attributes, ...requestIdAttribute() } }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Marks the current operation span failed with the service's error identifier. */
export function recordOperationError(span: Span, code: string, internal: boolean): void {
  span.setAttribute(ATTR_ERROR_TYPE, code);
  if (internal) span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

/** The span of the operation running now (the Apollo plugin names /graphql's once parsed). */
export function activeSpan(): Span | undefined {
  return trace.getActiveSpan();
}

/**
 * One finished SQL statement, from the ORM's query logger (called after the statement with
 * its duration): a client span back-dated by that duration. Only inside a traced request:
 * start-up, migrations and the scheduler would otherwise each start a trace of their own.
 * The text is the parameterised SQL; parameter values never reach a span.
 */
export function recordStatement(sql: string, tookMs: number | undefined, failed: boolean): void {
  const parent = trace.getActiveSpan();
  if (!parent?.isRecording()) return;
  const end = Date.now();
  const operation = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const span = tracer().startSpan(operation, {
    kind: SpanKind.CLIENT,
    startTime: end - (tookMs ?? 0),
    attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation, 'db.query.text': sql, ...requestIdAttribute() },
  });
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(end);
}
