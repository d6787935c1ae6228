// The router of the paths outside the REST routes' prefix: a request under it goes on without being
// matched against the router's routes (docs/performance.md).
import type Router from '@koa/router';
import type Koa from 'koa';

/** Where every REST route is (the route table: src/rest/routes.ts). */
export const REST_PREFIX = '/rest/';

/** The router's routes for the paths outside `prefix`; none of them may be under it. */
export function outside(prefix: string, router: Router): Koa.Middleware {
  const inside = router.stack.map((layer) => String(layer.path)).filter((path) => path.startsWith(prefix));
  if (inside.length) throw new Error(`${inside.join(', ')}: under ${prefix}, which is the REST routes' own`);
  const routes = router.routes() as Koa.Middleware;
  return (ctx, next) => (ctx.path.startsWith(prefix) ? next() : routes(ctx, next));
}
