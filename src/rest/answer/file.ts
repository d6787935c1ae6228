// The answer of a route that writes its response itself (`respond`: a file download streams its
// bytes, with the ETag of its stored digest). A GET's keeps the read's caching headers and is not
// sent when If-None-Match names that tag: its stream is closed unread.
import type Koa from 'koa';
import type { Context } from '../../context';
import { etagMatches } from '../http-cache';
import type { RouteDef } from '../route';
import { cachingOf } from './read';

function notModified(ctx: Koa.Context): void {
  const etag = ctx.response.get('ETag');
  if (!etag || !etagMatches(ctx.get('If-None-Match'), etag)) return;
  const body = ctx.body as { destroy?: () => void } | null;
  body?.destroy?.();
  ctx.status = 304;
}

export function fileAnswer(def: RouteDef) {
  if (def.method !== 'GET') return (ctx: Koa.Context, data: unknown, request: Context) => def.respond!(ctx, data, request);
  const caching = cachingOf(def);
  return async (ctx: Koa.Context, data: unknown, request: Context): Promise<void> => {
    await def.respond!(ctx, data, request);
    if (ctx.status !== 200) return;
    caching(ctx);
    notModified(ctx);
  };
}
