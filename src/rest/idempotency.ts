// The Idempotency-Key stage of a REST mutation (src/http/idempotency.ts, docs/api/README.md): with
// the header, the operation and its answer run in one transaction that also stores the answer
// (a 2xx only; a failure rolls everything back, so a corrected retry may use the same key), and a
// repeat of the same request is answered what was stored, marked Idempotent-Replayed. Without the
// header it is the operation alone: no statement more.
import type Koa from 'koa';
import { OperationTypeNode } from 'graphql';
import type { Context } from '../context';
import { ServiceError } from '../core/errors';
import { fingerprintOf, idempotencyKeyOf, REPLAYED_HEADER, scopeOf, type FileDigest, type KeptAnswer } from '../http/idempotency';
import { SYSTEM_SCOPE } from './authenticate';
import { inRouteVocabulary } from './route-vocabulary';
import type { RouteDef } from './route';

/** Runs `next` (the operation and its answer) under the request's key, if it sent one. */
export type IdempotencyStage = (ctx: Koa.Context, request: Context, body: unknown, next: () => Promise<void>) => Promise<void>;

/**
 * Whether a route takes Idempotency-Key: every mutation but those that exchange an identity
 * provider's access token for the service's credentials (loginUser, sso-token): a repeat of those
 * is harmless (another credential), and their answers, credentials, are not kept a second time.
 */
export const takesIdempotencyKey = (def: RouteDef, operationType: OperationTypeNode) =>
  operationType === OperationTypeNode.MUTATION && def.credential !== 'bearer';

/** The answer the operation set on `ctx`, as kept; null when it is not a 2xx of text (never kept). */
function keptAnswerOf(ctx: Koa.Context): KeptAnswer | null {
  if (ctx.status < 200 || ctx.status > 299) return null;
  const body: unknown = ctx.body;
  let text: string | null;
  if (body == null) text = null;
  else if (Buffer.isBuffer(body)) text = body.toString('utf8');
  else if (typeof body === 'string') text = body;
  else return null;
  return { status: ctx.status, contentType: ctx.response.get('Content-Type') || null, body: text };
}

function replay(ctx: Koa.Context, answer: KeptAnswer): void {
  ctx.body = answer.body === null ? null : Buffer.from(answer.body);
  ctx.status = answer.status;
  if (answer.contentType) ctx.set('Content-Type', answer.contentType);
  ctx.set(REPLAYED_HEADER, 'true');
}

export function idempotencyStage(route: { def: RouteDef; operationType: OperationTypeNode }): IdempotencyStage {
  const { def } = route;
  if (!takesIdempotencyKey(def, route.operationType)) return (_ctx, _request, _body, next) => next();
  const digestOf: FileDigest = (file) => def.multipart?.staging.digestOf(file);
  const refusal = (err: unknown) => (err instanceof ServiceError ? inRouteVocabulary(def, err) : err);
  return async (ctx, request, body, next) => {
    let key: string | undefined;
    try {
      key = idempotencyKeyOf(ctx.headers['idempotency-key']);
    } catch (err) {
      throw refusal(err);
    }
    if (key === undefined) return next();
    const scope = await scopeOf(request, SYSTEM_SCOPE);
    const fingerprint = await fingerprintOf([ctx.method, ctx.path, ctx.querystring, body], digestOf);
    const opened = await request.services.idempotency
      .open(request.em, request.services.clock.now(), { scope, key, fingerprint })
      .catch((err: unknown) => {
        throw refusal(err);
      });
    if ('replay' in opened) return replay(ctx, opened.replay);
    try {
      await next();
    } catch (err) {
      await opened.pending.abandon();
      throw err;
    }
    await opened.pending.keep(keptAnswerOf(ctx));
  };
}
