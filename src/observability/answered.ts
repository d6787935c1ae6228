// When a request's answer is done, for what reports on it once (the access log line, the request
// metrics, the request span). Most answers are done when the middleware chain returns. An event
// stream (src/http/live-sse.ts) lets its chain return as soon as it opens (ctx.respond false, the
// response left open): an open stream would otherwise hold a dozen suspended middleware frames and
// what they keep for hours. Its report is made when its response closes, so it says what it said
// when the chain waited for the stream: the status sent, and the time until the stream ended.
import type Koa from 'koa';

/** Runs `report` now, or, when the middleware left the response open (a stream), once it closes. */
export function whenAnswered(ctx: Koa.Context, report: () => void): void {
  const res = ctx.res;
  // (A response closes once: `on` holds no once-wrapper, a closure and its scope, of each open stream.)
  if (ctx.respond === false && !res.writableEnded && !res.destroyed) res.on('close', report);
  else report();
}
