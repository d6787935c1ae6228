// Request rate limits per user and per client address on the costly operations (loginUser,
// recommendedEntities, uploads). The counters live where every instance sees them, as the
// token endpoint's brute-force counters do: Redis with REDIS_URL, else the auth_rate_limit
// table (rate-limiter-flexible's PostgreSQL store, each limiter under its own key prefix).
import { RateLimiterRes, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config';
import type { Context } from '../context';
import { ServiceError } from '../graphql/errors';
import { limiterOn, type SharedStore } from './store';

export type RateLimitedAction = keyof RateLimitConfig;

const WINDOW_SECONDS = 60;

export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterStoreAbstract>();

  constructor(
    private readonly cfg: RateLimitConfig,
    private readonly store: SharedStore,
  ) {}

  private limiter(action: RateLimitedAction, scope: 'user' | 'address'): RateLimiterStoreAbstract {
    const keyPrefix = `rl-${action}-${scope}`;
    let limiter = this.limiters.get(keyPrefix);
    if (!limiter) {
      const points = scope === 'user' ? this.cfg[action].perUser : this.cfg[action].perAddress;
      // Without a Redis connection, answer at once (and fail open) rather than queue the command.
      limiter = limiterOn(this.store, { keyPrefix, points, duration: WINDOW_SECONDS, rejectIfRedisNotReady: true });
      this.limiters.set(keyPrefix, limiter);
    }
    return limiter;
  }

  /**
   * Counts one request of the user from the address. Returns null when allowed, else the
   * seconds until the exhausted window ends. Throws when the store does not answer.
   */
  async consume(action: RateLimitedAction, userId: number, address: string): Promise<number | null> {
    let wait = 0;
    // Both counters count every attempt, so a refused user still uses up its address's share
    // and one key's refusal cannot be dodged by alternating the other.
    const results = await Promise.allSettled([
      this.limiter(action, 'user').consume(String(userId)),
      this.limiter(action, 'address').consume(address),
    ]);
    for (const r of results) {
      if (r.status === 'fulfilled') continue;
      if (!(r.reason instanceof RateLimiterRes)) throw r.reason;
      wait = Math.max(wait, Math.max(1, Math.ceil(r.reason.msBeforeNext / 1000)));
    }
    return wait ? wait : null;
  }
}

export function limitExceeded(retryAfterSeconds: number): ServiceError {
  return new ServiceError('WSLimitExceededException', `Too many requests. Try again in ${retryAfterSeconds} seconds.`, {
    status: 429,
    headers: { 'Retry-After': String(retryAfterSeconds) },
  });
}

/**
 * Counts the signed-in caller's request of the action; throws WSLimitExceededException (429,
 * Retry-After) past the limit. Call it after the credential check, before any work is stored.
 * A store that does not answer lets the request through (logged): limits must not lock
 * everyone out.
 */
export async function consume(ctx: Context, action: RateLimitedAction, uid: number): Promise<void> {
  const address = ctx.clientIp ?? 'unknown';
  let wait: number | null;
  try {
    wait = await ctx.services.limits.consume(action, uid, address);
  } catch (err) {
    ctx.logger.error({ err, action }, 'rate limit store unavailable; request allowed');
    return;
  }
  if (wait !== null) {
    ctx.logger.warn({ event: 'ratelimit.refused', action, userId: uid, retryAfterSeconds: wait }, 'rate limit exceeded');
    throw limitExceeded(wait);
  }
}
