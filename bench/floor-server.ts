// The design's floor (docs/performance.md, "What the design leaves"): the REST routes' compiled
// documents run by the service's own REST router (src/rest/executor.ts: credential, variables,
// the document through graphql-jit with the request's context, the answer's bytes) on a bare Koa
// application: no request log, metrics, span, error handler, security headers, probes, /graphql
// or OAuth in front. What the full service serves beyond this is what its middleware costs.
// Started by run.ts with the service's environment and V8 flags; /ready answers once it listens.
import Koa from 'koa';
import { createSchema } from '../src/graphql/schema';
import { createServices } from '../src/services';
import { routeTable } from '../src/rest/routes';
import { compileRoutes, createRestRouter } from '../src/rest/executor';
import { listen, startInProcess } from './in-process';
import { MODULES } from '../src/modules';
import { contextParts } from '../src/core/module';

async function main() {
  const { config, logger, orm } = await startInProcess();
  const schema = await createSchema(MODULES);
  const services = await createServices({ config, logger, orm, modules: MODULES });
  const rest = createRestRouter(
    { config, logger, em: orm.em, services, parts: contextParts(MODULES) },
    compileRoutes(schema, routeTable(MODULES)),
  );
  const koa = new Koa();
  let requests = 0;
  koa.use(async (ctx, next) => {
    if (ctx.path === '/ready') {
      ctx.body = 'ready';
      return;
    }
    // The request id the service's access log would have given (the context carries one).
    ctx.state.requestId = String(++requests);
    await next();
  });
  koa.use(rest.routes());
  listen(koa.callback(), config.port, config.host, async () => {
    await services.close();
    await orm.close();
  });
}

main().catch((err) => {
  console.error('floor server failed to start:', err);
  process.exit(1);
});
