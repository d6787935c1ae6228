// An unexpected failure inside an operation: the client gets WSInternalException and nothing
// of the cause; the log gets the cause with the request id. Run through the real request log, the
// one error handler and the REST executor over a one-field schema whose resolver is broken on purpose.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { compileRoutes, createRestRouter } from '../../src/rest/executor';
import { createLogger } from '../../src/logger';
import { requestLog } from '../../src/http/request-log';
import { errorHandler } from '../../src/http/error-handler';
import { createMetrics } from '../../src/observability/metrics';
import { loadConfig } from '../../src/config';
import type { RouteDef } from '../../src/rest/route';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({
    name: 'Query',
    fields: {
      broken: {
        type: GraphQLString,
        resolve: () => {
          throw new TypeError("Cannot read properties of undefined (reading 'secretColumn')");
        },
      },
    },
  }),
});

const route: RouteDef = {
  operation: 'getBroken',
  method: 'GET',
  path: '/rest/broken',
  credential: 'none',
  document: 'query getBroken { broken }',
  summary: 'broken',
  description: 'Fails with an unexpected error.',
  errors: [],
};

it('answers 500 WSInternalException without the cause and logs the cause with the request id', async () => {
  const logs: any[] = [];
  const logger = createLogger(
    'info',
    new Writable({
      write(chunk, _e, cb) {
        logs.push(
          ...chunk
            .toString()
            .trim()
            .split('\n')
            .map((l: string) => JSON.parse(l)),
        );
        cb();
      },
    }),
  );
  const metrics = createMetrics(new Set());
  const app = new Koa();
  // The request log makes the request's logger only when a line is written: this one is.
  app.use(requestLog(logger, metrics));
  app.use(errorHandler);
  const router = createRestRouter(
    {
      config: loadConfig({ NODE_ENV: 'test' }),
      logger,
      em: { fork: () => ({}) } as any,
      services: {} as any,
      parts: { auth: () => ({}) as never, loaders: () => ({}) as never },
    },
    compileRoutes(schema, [route]),
  );
  app.use(router.routes());
  const handle = app.callback();
  const server = http.createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/broken`, {
      headers: { 'x-request-id': 'req-internal-1' },
    });
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ errorCode: 'WSInternalException', message: 'An internal error occurred.' });
    expect(text).not.toMatch(/secretColumn|TypeError|at /);
    const line = logs.find((l) => l.msg === 'unhandled error in REST operation');
    expect(line).toMatchObject({ requestId: 'req-internal-1', operation: 'getBroken', level: 50 });
    expect(JSON.stringify(line.err)).toContain('secretColumn');
    expect(logs.find((l) => l.msg === 'request')).toMatchObject({ requestId: 'req-internal-1', status: 500, operation: 'getBroken' });
  } finally {
    metrics.release();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
