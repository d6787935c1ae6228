// Brute-force guard of the token endpoint: failures are counted per account (the username
// of a password grant) and per client address; each failure answers a little later, and
// past the limit the key is locked out (429 with Retry-After). The counters live where
// every instance sees them: Redis with REDIS_URL, else the database (rate-limiter-flexible's
// PostgreSQL store, run through MikroORM so the embedded database works the same way).
import { RateLimiterPostgres, type RateLimiterStoreAbstract } from 'rate-limiter-flexible';
import { limiterOn, type SharedStore } from '../../core/store';
import { secondsLeft } from '../../core/rate-limit';
import type { AuthConfig } from '../../config';

export interface Attempt {
  /** Lower-cased username of a password grant; null for other grants. */
  account: string | null;
  address: string;
}

/** A lockout is in force. */
export class LockedOut extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly scope: 'account' | 'address',
    /** The failures the key's window allows, and the window in seconds (its RateLimit-Policy). */
    readonly quota: number,
    readonly windowSeconds: number,
  ) {
    super('locked out');
  }
}

/** The counter store did not answer. */
export class GuardUnavailable extends Error {}

const MAX_DELAY_MS = 3000;

export class BruteForceGuard {
  private readonly account: RateLimiterStoreAbstract;
  private readonly address: RateLimiterStoreAbstract;

  constructor(
    private readonly cfg: AuthConfig['bruteForce'],
    store: SharedStore,
  ) {
    const make = (keyPrefix: string, points: number) => limiterOn(store, { keyPrefix, points, duration: cfg.windowSeconds });
    this.account = make('bf-account', cfg.maxFailuresPerAccount);
    this.address = make('bf-address', cfg.maxFailuresPerAddress);
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new GuardUnavailable('brute-force counters unavailable', { cause: err });
    }
  }

  /** Throws LockedOut while the account or the address is locked out. */
  async check({ account, address }: Attempt): Promise<void> {
    const [acc, addr] = await this.call(() =>
      Promise.all([account ? this.account.get(account) : Promise.resolve(null), this.address.get(address)]),
    );
    if (acc && acc.consumedPoints >= this.cfg.maxFailuresPerAccount) throw this.lockedOut(acc.msBeforeNext, 'account');
    if (addr && addr.consumedPoints >= this.cfg.maxFailuresPerAddress) throw this.lockedOut(addr.msBeforeNext, 'address');
  }

  private lockedOut(msBeforeNext: number, scope: 'account' | 'address'): LockedOut {
    const quota = scope === 'account' ? this.cfg.maxFailuresPerAccount : this.cfg.maxFailuresPerAddress;
    return new LockedOut(secondsLeft(msBeforeNext), scope, quota, this.cfg.windowSeconds);
  }

  /** Counts a failure; returns how long to hold the answer back. Reaching a limit starts the lockout. */
  async fail({ account, address }: Attempt): Promise<number> {
    return this.call(async () => {
      const addr = await this.address.penalty(address, 1);
      if (addr.consumedPoints >= this.cfg.maxFailuresPerAddress) await this.address.block(address, this.cfg.lockoutSeconds);
      let count = addr.consumedPoints;
      if (account) {
        const acc = await this.account.penalty(account, 1);
        if (acc.consumedPoints >= this.cfg.maxFailuresPerAccount) await this.account.block(account, this.cfg.lockoutSeconds);
        // An address shared by many users (a NAT) should not slow one user's own retries.
        count = acc.consumedPoints;
      }
      return Math.min(MAX_DELAY_MS, Math.max(0, count - 1) * this.cfg.delayStepMs);
    });
  }

  /** Deletes counters that expired over an hour ago (the database store keeps them otherwise). */
  async clearExpired(): Promise<void> {
    for (const limiter of [this.account, this.address]) {
      // clearExpired is in rate-limiter-flexible's PostgreSQL store but not in its type declarations.
      if (limiter instanceof RateLimiterPostgres)
        await (limiter as unknown as { clearExpired(before: number): Promise<void> }).clearExpired(Date.now() - 3_600_000);
    }
  }

  /** A successful login clears the account's failures. */
  async succeed({ account }: Attempt): Promise<void> {
    if (account) await this.call(() => this.account.delete(account));
  }
}
