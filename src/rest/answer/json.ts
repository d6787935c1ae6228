// The answer of a write: the root field's JSON, as the bytes it encodes to (respond.ts), with no
// caching headers.
import type Koa from 'koa';
import { sendJson } from '../respond';

export function jsonAnswer(rootKey: string) {
  return (ctx: Koa.Context, data: Record<string, unknown>): void => {
    const body = data[rootKey];
    // A null root (an optional answer) keeps Koa's own handling of an empty body.
    if (body == null) ctx.body = body;
    else sendJson(ctx, JSON.stringify(body));
  };
}
