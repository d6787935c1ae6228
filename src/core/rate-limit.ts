// Request rate limits per user and per client address on the costly operations (loginUser,
// recommendedEntities, uploads). The counters live where every instance sees them, as the
// token endpoint's brute-force counters do: Redis with REDIS_URL, else the auth_rate_limit
// table (rate-limiter-flexible's PostgreSQL store, each limiter under its own key prefix).
// Every answer of a limited operation says where the caller stands, in the IETF RateLimit
// fields (draft-ietf-httpapi-ratelimit-headers): both counters, as read by the store that
// counted the request, so any instance answers the same numbers.
import { RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config';
import type { Logger } from '../logger';
import { ServiceError } from './errors';
import { limiterOn, type SharedStore } from './store';

export type RateLimitedAction = keyof RateLimitConfig;

const WINDOW_SECONDS = 60;

/** What a limit reads of a request's context (src/context.ts): its address, logger, limits and HTTP request. */
interface Counted {
  clientIp?: string;
  logger: Logger;
  services: { limits: RateLimits };
  request?: object;
}

/** One counter as the RateLimit fields report it. */
export interface LimitCounter {
  /** The policy's name in both fields, e.g. "recommended-user". */
  policy: string;
  /** Requests the window allows (q). */
  quota: number;
  /** The window in seconds (w). */
  window: number;
  /** Requests left in the current window (r). */
  remaining: number;
  /** Seconds until the current window ends and the quota is whole again (t). */
  reset: number;
}

export interface LimitState {
  counters: LimitCounter[];
  /** Seconds until the exhausted window ends; null when the request is allowed. */
  retryAfter: number | null;
}

/** A counter's milliseconds left as the whole seconds Retry-After and RateLimit's t carry (at least 1). */
export const secondsLeft = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterStoreAbstract>();

  constructor(
    private readonly cfg: RateLimitConfig,
    private readonly store: SharedStore,
  ) {}

  private points(action: RateLimitedAction, scope: 'user' | 'address'): number {
    return scope === 'user' ? this.cfg[action].perUser : this.cfg[action].perAddress;
  }

  private limiter(action: RateLimitedAction, scope: 'user' | 'address'): RateLimiterStoreAbstract {
    const keyPrefix = `rl-${action}-${scope}`;
    let limiter = this.limiters.get(keyPrefix);
    if (!limiter) {
      // Without a Redis connection, answer at once (and fail open) rather than queue the command.
      limiter = limiterOn(this.store, {
        keyPrefix,
        points: this.points(action, scope),
        duration: WINDOW_SECONDS,
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(keyPrefix, limiter);
    }
    return limiter;
  }

  /**
   * Counts one request of the user from the address, and answers both counters; retryAfter is
   * set when either is exhausted. Throws when the store does not answer.
   */
  async consume(action: RateLimitedAction, userId: number, address: string): Promise<LimitState> {
    const scopes = ['user', 'address'] as const;
    // Both counters count every attempt, so a refused user still uses up its address's share
    // and one key's refusal cannot be dodged by alternating the other.
    const results = await Promise.allSettled([
      this.limiter(action, 'user').consume(String(userId)),
      this.limiter(action, 'address').consume(address),
    ]);
    let retryAfter: number | null = null;
    const counters = results.map((r, i): LimitCounter => {
      if (r.status === 'rejected' && !(r.reason instanceof RateLimiterRes)) throw r.reason;
      const res = r.status === 'fulfilled' ? r.value : (r.reason as RateLimiterRes);
      if (r.status === 'rejected') retryAfter = Math.max(retryAfter ?? 0, secondsLeft(res.msBeforeNext));
      const quota = this.points(action, scopes[i]);
      return {
        policy: `${action}-${scopes[i]}`,
        quota,
        window: WINDOW_SECONDS,
        remaining: res.remainingPoints,
        reset: secondsLeft(res.msBeforeNext),
      };
    });
    return { counters, retryAfter };
  }
}

/**
 * The RateLimit-Policy and RateLimit fields of the counters (structured-field lists, one item a
 * policy: `"recommended-user";q=3;w=60, ...` and `"recommended-user";r=2;t=60, ...`). Every
 * counter is listed rather than the one closest to exhaustion: each request counts against all
 * of them, a client keeps to the smallest r, and the policy field stays the same from one answer
 * to the next.
 */
export function rateLimitFields(counters: LimitCounter[]): Record<string, string> {
  return {
    'RateLimit-Policy': counters.map((c) => `"${c.policy}";q=${c.quota};w=${c.window}`).join(', '),
    RateLimit: counters.map((c) => `"${c.policy}";r=${c.remaining};t=${c.reset}`).join(', '),
  };
}

/**
 * The fields of what the request counted, by the request: REST sets them on its answer, GraphQL
 * on its own (each GraphQL operation runs on a copy of the context; its `request` is shared).
 */
const counted = new WeakMap<object, Map<string, LimitCounter>>();

function record(ctx: Counted, counters: LimitCounter[]): void {
  const key = ctx.request ?? ctx;
  const held = counted.get(key) ?? new Map<string, LimitCounter>();
  for (const c of counters) held.set(c.policy, c);
  counted.set(key, held);
}

/** The RateLimit fields of the request's limited operations; undefined when it ran none. */
export function rateLimitHeaders(ctx: Counted): Record<string, string> | undefined {
  const held = counted.get(ctx.request ?? ctx);
  return held ? rateLimitFields([...held.values()]) : undefined;
}

export function limitExceeded(retryAfterSeconds: number, fields?: Record<string, string>): ServiceError {
  return new ServiceError('WSLimitExceededException', `Too many requests. Try again in ${retryAfterSeconds} seconds.`, {
    status: 429,
    headers: { 'Retry-After': String(retryAfterSeconds), ...fields },
  });
}

/**
 * Counts the signed-in caller's request of the action; throws WSLimitExceededException (429,
 * Retry-After and the RateLimit fields) past the limit. Call it after the credential check,
 * before any work is stored. A store that does not answer lets the request through (logged,
 * without RateLimit fields: nothing was counted): limits must not lock everyone out.
 */
export async function consume(ctx: Counted, action: RateLimitedAction, uid: number): Promise<void> {
  const address = ctx.clientIp ?? 'unknown';
  let state: LimitState;
  try {
    state = await ctx.services.limits.consume(action, uid, address);
  } catch (err) {
    ctx.logger.error({ err, action }, 'rate limit store unavailable; request allowed');
    return;
  }
  record(ctx, state.counters);
  if (state.retryAfter !== null) {
    const wait = state.retryAfter;
    ctx.logger.warn({ event: 'ratelimit.refused', action, userId: uid, retryAfterSeconds: wait }, 'rate limit exceeded');
    throw limitExceeded(wait, rateLimitHeaders(ctx));
  }
}
