// The body of a whole list (whole-list.ts), read batch by batch: a list that fits in
// WHOLE_LIST_HELD_BYTES is answered as one body, with a strong ETag of its bytes (and 304 for a
// client that holds them). A longer one is written to the socket as it is read: memory holds one
// batch, however long the list, and since its bytes are not known when the status line goes out,
// it has no ETag. The request awaits the last write, so the access log, metrics and graceful
// shutdown see it until its end.
import { once } from 'node:events';
import type Koa from 'koa';

type Item = Record<string, unknown>;

/** Bytes of a whole list answered as one body (with an ETag); a longer list is streamed. */
export const WHOLE_LIST_HELD_BYTES = 1024 * 1024;

/** The client went away while a streamed list was written. */
export class ClientGone extends Error {}

/** The item as the REST body carries it: without the `_cursor` the executor selected. */
function serialise(item: Item): string {
  const { _cursor: _omit, ...rest } = item;
  return JSON.stringify(rest);
}

/** The list's JSON text, piece by piece, reading the next batch after the last item of one. */
async function* pieces(first: Item[], sizes: { first: number; rest: number }, next: (cursor: unknown) => Promise<Item[]>) {
  let items = first;
  let asked = sizes.first;
  let count = 0;
  yield '[';
  for (;;) {
    for (const item of items) yield (count++ ? ',' : '') + serialise(item);
    if (items.length < asked) break;
    items = await next(items[items.length - 1]._cursor);
    asked = sizes.rest;
  }
  yield ']';
}

/**
 * Answers the whole list. While it fits in `heldBytes`, a batch that fails throws before
 * anything is sent (the caller answers the error) and the complete text goes to `whole`, which
 * sends it. Past that, the list is streamed; a failure then can only cut the body (the client
 * sees a truncated body, never a well-formed partial list) and is passed to `broke`.
 */
export async function answerWholeList(
  ctx: Koa.Context,
  first: Item[],
  /** Records asked of the first batch and of the others: a batch with fewer is the last. */
  sizes: { first: number; rest: number },
  next: (cursor: unknown) => Promise<Item[]>,
  answer: {
    /** Sends the whole list's text. */
    whole: (json: string) => void;
    /** Sets the headers of a streamed list, just before they are sent. */
    streaming: () => void;
    /** Logs a failure of a streamed list. */
    broke: (err: unknown) => void;
  },
  heldBytes = WHOLE_LIST_HELD_BYTES,
): Promise<void> {
  const text = pieces(first, sizes, next);
  const held: string[] = [];
  let bytes = 0;
  for (;;) {
    const piece = await text.next();
    if (piece.done) return answer.whole(held.join(''));
    held.push(piece.value);
    bytes += Buffer.byteLength(piece.value);
    if (bytes > heldBytes) break;
  }
  const res = ctx.res;
  ctx.respond = false;
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  answer.streaming();
  res.writeHead(ctx.status);
  const write = async (chunk: string) => {
    if (!res.write(chunk)) {
      // Whichever comes first; the other listener is removed, so none pile up on a long list.
      const settled = new AbortController();
      await Promise.race([once(res, 'drain', { signal: settled.signal }), once(res, 'close', { signal: settled.signal })]).finally(() =>
        settled.abort(),
      );
    }
    if (res.destroyed) throw new ClientGone('The client went away during a whole list.');
  };
  try {
    await write(held.join(''));
    held.length = 0;
    for await (const piece of text) await write(piece);
    res.end();
  } catch (err) {
    res.destroy();
    if (!(err instanceof ClientGone)) answer.broke(err);
  }
}
