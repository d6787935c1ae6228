// A list the specification returns whole (endpoints 16 and 17), written to the socket batch by
// batch as it is read: memory holds one batch, however long the list. The handler awaits the
// last write, so the access log, metrics and graceful shutdown see the request until its end.
import { once } from 'node:events';
import type Koa from 'koa';

type Item = Record<string, unknown>;

/** The item as the REST body carries it: without the `_cursor` the executor selected. */
function serialise(item: Item): string {
  const { _cursor: _omit, ...rest } = item;
  return JSON.stringify(rest);
}

export async function writeWholeList(
  ctx: Koa.Context,
  first: Item[],
  /** Records asked of the first batch and of the others: a batch with fewer is the last. */
  sizes: { first: number; rest: number },
  next: (cursor: unknown) => Promise<Item[]>,
): Promise<void> {
  const res = ctx.res;
  ctx.respond = false;
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  res.writeHead(ctx.status);
  const write = async (chunk: string) => {
    if (!res.write(chunk)) {
      // Whichever comes first; the other listener is removed, so none pile up on a long list.
      const settled = new AbortController();
      await Promise.race([once(res, 'drain', { signal: settled.signal }), once(res, 'close', { signal: settled.signal })]).finally(() =>
        settled.abort(),
      );
    }
    if (res.destroyed) throw new Error('The client went away during a whole list.');
  };
  try {
    let items = first;
    let asked = sizes.first;
    let count = 0;
    await write('[');
    for (;;) {
      for (const item of items) await write((count++ ? ',' : '') + serialise(item));
      if (items.length < asked) break;
      items = await next(items[items.length - 1]._cursor);
      asked = sizes.rest;
    }
    await write(']');
    res.end();
  } catch {
    // The status line is sent: a list that breaks off can only be cut, so the client sees a
    // truncated body (never a well-formed partial list). The executor logged the cause.
    res.destroy();
  }
}
