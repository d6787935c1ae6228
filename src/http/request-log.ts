// The first middleware: it gives the request its id (every log line of the request carries it,
// and the response echoes it) and, once the answer is sent, writes the access log line (with the
// client's address: the socket's, or as TRUST_PROXY_HOPS says) and
// observes the request's latency in the metrics (which count it under closed label sets:
// metrics.ts). An event stream's line is written when it closes (src/observability/answered.ts).
import { newUuid } from '../core/uuid';
import type { Logger } from '../logger';
import type { Metrics } from '../observability/metrics';
import { whenAnswered } from '../observability/answered';
import type { RequestMiddleware, RequestState } from './request-state';

/** A caller's id is kept only when it is short and plain enough to log safely. */
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request's state as the request log starts it. The logger with the request id is made the
 * first time something asks for it: most requests write no line of their own, and a pino child
 * costs 0.5 us and an object a request (docs/performance.md).
 */
class LoggedRequest implements RequestState {
  operation?: string;
  errorCode?: string;
  private child?: Logger;

  constructor(
    private readonly base: Logger,
    readonly requestId: string,
  ) {}

  get logger(): Logger {
    return (this.child ??= this.base.child({ requestId: this.requestId }));
  }
}

export function requestLog(logger: Logger, metrics: Metrics): RequestMiddleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : newUuid();
    ctx.state = new LoggedRequest(logger, requestId);
    ctx.set('x-request-id', requestId);
    const started = performance.now();
    try {
      await next();
    } finally {
      whenAnswered(ctx, () => report(ctx, performance.now() - started));
    }
  };

  function report(ctx: Parameters<RequestMiddleware>[0], ms: number): void {
    const { operation, errorCode } = ctx.state;
    // Scrapes are not requests of the service: counting them would skew its own metrics.
    if (ctx.path !== '/metrics') {
      // @koa/router's pattern of the route that took the request (a path, or a RegExp).
      const route = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
      metrics.observe(
        {
          operation,
          route: route?.toString(),
          method: ctx.method,
          outcome: errorCode ?? (ctx.status < 400 ? 'ok' : String(ctx.status)),
        },
        ms / 1000,
      );
    }
    // Built only when written: the bench and many deployments log at warn.
    if (logger.isLevelEnabled('info'))
      ctx.state.logger.info(
        { method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10, operation, errorCode, ip: ctx.ip },
        'request',
      );
  }
}
