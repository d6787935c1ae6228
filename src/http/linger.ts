// A request answered before its body was read (a refused upload, a body over its limit) closes its
// connection after the answer, and the rest of the body is discarded. Closing at once would lose
// the answer: the client is still sending, and bytes that reach a closed socket make the kernel
// answer with a reset, which discards the answer at the client if it has not read it yet (a client
// that writes its whole body before reading the answer never has). So the close lingers, as RFC
// 9112 (9.6) asks: after the answer the service ends its side of the connection and goes on reading
// and discarding what the client still sends, until the client ends its side or LINGER_MS passes.
import type { Socket } from 'node:net';
import type Koa from 'koa';

/** How long a connection closed after an unread body goes on discarding what the client sends. */
export const LINGER_MS = 2_000;

const lingering = new WeakSet<Socket>();

/**
 * Answers the request with `Connection: close`, the rest of its body discarded, the connection's
 * close lingering (see the header). Node's HTTP server closes a connection whose last answer was
 * sent by calling its socket's destroySoon(): for this socket, that ends the service's side and
 * keeps reading until the client's end or LINGER_MS, then destroys it.
 */
export function closeAfterAnswer(ctx: Koa.Context): void {
  ctx.set('Connection', 'close');
  const { req } = ctx;
  req.resume();
  const socket = req.socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  socket.destroySoon = function lingeringClose(this: Socket) {
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('end', () => this.destroy());
    this.once('close', () => clearTimeout(timer));
    this.end();
    req.resume();
    this.resume();
  };
}
