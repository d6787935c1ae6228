// The peer: the service as createApp builds it (every middleware, /rest, /graphql, /metrics) with
// SOFA (sofa-api, REST generated from a GraphQL schema) mounted on the same schema and the same
// per-request context at /sofa, behind the same middleware as the REST facade: a team that chose
// SOFA instead of the route table would serve this. SOFA generates GET /sofa/<field-name> for
// every query field, its variables from the query string, selecting every field of the answer
// to depthLimit, executed with graphql-js (its default). Started by run.ts like the service (its
// environment and V8 flags); its /readyz, /metrics and routes are the service's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type Koa from 'koa';
import { createApp } from '../src/app';
import { buildContext } from '../src/context';
import { listen, startInProcess } from './in-process';

import { SOFA_BASE } from './peer';
import { contextParts } from '../src/core/module';
import { MODULES } from '../src/modules';

/**
 * The little of sofa-api used here. Its declarations bring the DOM's lib (through @whatwg-node/fetch)
 * into the whole program, changing fetch's types in every file: it is required, not imported.
 */
interface SofaHandler {
  handleNodeRequestAndResponse: (req: IncomingMessage, res: ServerResponse, server: { koa: Koa.Context }) => Promise<Response>;
}
interface Sofa {
  useSofa: (options: { schema: GraphQLSchema; basePath: string; context: (server: { koa: Koa.Context }) => unknown }) => SofaHandler;
}
const { useSofa } = require('sofa-api') as Sofa;

async function main() {
  const { config, logger, orm } = await startInProcess();
  const app = await createApp({ config, logger, orm });
  const deps = { config, logger, em: orm.em, services: app.services, parts: contextParts(MODULES) };
  const sofa = useSofa({
    schema: app.schema,
    basePath: SOFA_BASE,
    // The context REST and /graphql build: the caller's credentials from the headers, the
    // request's logger made only when a line is written.
    context: ({ koa }: { koa: Koa.Context }) => buildContext(deps, koa.state.requestId, koa.headers, () => koa.state.logger ?? logger),
  });
  const mount: Koa.Middleware = async (ctx, next) => {
    if (!ctx.path.startsWith(`${SOFA_BASE}/`)) return next();
    const response = await sofa.handleNodeRequestAndResponse(ctx.req, ctx.res, { koa: ctx });
    ctx.status = response.status;
    response.headers.forEach((value, key) => ctx.set(key, value));
    ctx.body = Buffer.from(await response.arrayBuffer());
  };
  // Last before the JSON 404, so that a SOFA request passes the middleware a REST one does.
  app.koa.middleware.splice(app.koa.middleware.length - 1, 0, mount);
  listen(app.koa.callback(), config.port, config.host, async () => {
    await app.stop();
    await orm.close();
  });
}

main().catch((err) => {
  console.error('SOFA server failed to start:', err);
  process.exit(1);
});
