// A client that hangs up before its body is read: by the time a handler reads it (after a
// credential check, say), Node has destroyed the request. That is the client's doing, answered as
// an incomplete body (WSInvalidParameterException, 400) like a body cut short, never as an
// internal error logged for the operators.
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { readJson } from '../../src/http/json-body';
import { ServiceError } from '../../src/core/errors';

it('when the client has closed its connection before the body is read, then reading it is an incomplete body', async () => {
  let failure: unknown;
  const server = http.createServer();
  const read = new Promise<void>((resolve) => {
    const app = new Koa();
    app.use(async (ctx) => {
      // The handler is still busy when the client goes: it reads once the request is gone.
      // (Not events.once, which would also take the request's 'aborted' error for a rejection.)
      if (!ctx.req.destroyed) await new Promise((closed) => ctx.req.once('close', closed));
      try {
        await readJson(ctx);
      } catch (err) {
        failure = err;
      }
      resolve();
    });
    const handle = app.callback();
    server.on('request', (req, res) => void handle(req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('POST /rest/anything HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    await read;
    expect(failure).toBeInstanceOf(ServiceError);
    expect((failure as ServiceError).code).toBe('WSInvalidParameterException');
    expect((failure as ServiceError).message).toBe('The request body is incomplete.');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
