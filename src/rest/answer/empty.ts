// The answer of a route without a payload (`status: 204`, or `body: 'none'` as endpoint 2's 200):
// its status and an empty body, whatever the document returned.
import type Koa from 'koa';

export function emptyAnswer(ctx: Koa.Context): void {
  ctx.body = '';
}
