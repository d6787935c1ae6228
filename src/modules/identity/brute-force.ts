// Brute-force guard of the token endpoint: failures are counted per account (the username
// of a password grant) and per client address; each failure answers a little later, and
// past the limit the key is locked out (429 with Retry-After). The counters live where
// every instance sees them: Redis with REDIS_URL, else the database (lockout-counters.ts).
//
// A password is verified only with a slot taken beforehand (take), in one atomic step on the
// store: a guess in flight counts as a failure until it turns out otherwise, so a burst of
// concurrent guesses, from any number of addresses and instances, runs at most the limit's
// verifications. Counter keys name the account and the address by a keyed hash, never in clear.
import crypto from 'node:crypto';
import type { SharedStore } from '../../core/store';
import { secondsLeft } from '../../core/rate-limit';
import type { AuthConfig } from '../../config';
import { lockoutCountersOn, type LockoutCounters } from './lockout-counters';

type Scope = 'account' | 'address';

export interface Attempt {
  /** Lower-cased username of a password grant; null for other grants. */
  account: string | null;
  address: string;
  /** The slots take() holds for this attempt: the count each key reached with it. */
  held?: Held;
}

type Held = Partial<Record<Scope, number>>;

/** A lockout is in force. */
export class LockedOut extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    readonly scope: Scope,
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
const PREFIX: Record<Scope, string> = { account: 'lockout-account:', address: 'lockout-address:' };

export class BruteForceGuard {
  private readonly counters: LockoutCounters;

  constructor(
    private readonly cfg: AuthConfig['bruteForce'],
    store: SharedStore,
    /** Keys the hash that names a counter (keys.ts): without it, a key cannot be told from a guessed address. */
    private readonly counterKey: Buffer,
  ) {
    this.counters = lockoutCountersOn(store);
  }

  private key(attempt: Attempt, scope: Scope): string {
    const value = scope === 'account' ? attempt.account! : attempt.address;
    return PREFIX[scope] + crypto.createHmac('sha256', this.counterKey).update(value).digest('base64url');
  }

  private limit(scope: Scope): number {
    return scope === 'account' ? this.cfg.maxFailuresPerAccount : this.cfg.maxFailuresPerAddress;
  }

  private scopes({ account }: Attempt): Scope[] {
    return account ? ['account', 'address'] : ['address'];
  }

  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new GuardUnavailable('brute-force counters unavailable', { cause: err });
    }
  }

  private lockedOut(msLeft: number, scope: Scope): LockedOut {
    return new LockedOut(secondsLeft(msLeft), scope, this.limit(scope), this.cfg.windowSeconds);
  }

  /** Throws LockedOut while the account or the address is full: a refusal before any other work. */
  async check(attempt: Attempt): Promise<void> {
    const scopes = this.scopes(attempt);
    const held = await this.call(() => Promise.all(scopes.map((s) => this.counters.peek(this.key(attempt, s)))));
    scopes.forEach((scope, i) => {
      const counter = held[i];
      if (counter && counter.count >= this.limit(scope)) throw this.lockedOut(counter.msLeft, scope);
    });
  }

  /**
   * Takes a slot of the account and of the address before a password is verified; throws
   * LockedOut, holding nothing, when either is full. The attempt ends with fail, succeed or release.
   */
  async take(attempt: Attempt): Promise<void> {
    const held: Held = {};
    for (const scope of this.scopes(attempt)) {
      const taken = await this.call(() => this.counters.take(this.key(attempt, scope), this.limit(scope), this.cfg.windowSeconds * 1000));
      if (!taken.taken) {
        await this.release({ ...attempt, held });
        throw this.lockedOut(taken.msLeft, scope);
      }
      held[scope] = taken.count;
    }
    attempt.held = held;
  }

  /**
   * Counts a failure; returns how long to hold the answer back. Slots taken stay counted; a
   * failure without them (a bad client, refresh token or code) is counted now. A counter that
   * is full locks its key for LOGIN_LOCKOUT_SECONDS. `countsAccount` false: the failure says
   * nothing about the account named (a bad client secret), whose slot is given back.
   */
  async fail(attempt: Attempt, countsAccount = true): Promise<number> {
    const held = attempt.held ?? {};
    attempt.held = undefined;
    return this.call(async () => {
      if (!countsAccount && held.account !== undefined) await this.counters.giveBack(this.key(attempt, 'account'));
      const scopes = this.scopes(attempt).filter((s) => s === 'address' || countsAccount);
      const counts: Held = {};
      for (const scope of scopes) {
        const key = this.key(attempt, scope);
        let count = held[scope];
        if (count === undefined) {
          const taken = await this.counters.take(key, this.limit(scope), this.cfg.windowSeconds * 1000);
          count = taken.taken ? taken.count : this.limit(scope);
        }
        counts[scope] = count;
        await this.counters.lockIfFull(key, this.limit(scope), this.cfg.lockoutSeconds * 1000);
      }
      // An address shared by many users (a NAT) should not slow one user's own retries.
      const count = counts.account ?? counts.address ?? 0;
      return Math.min(MAX_DELAY_MS, Math.max(0, count - 1) * this.cfg.delayStepMs);
    });
  }

  /** A successful login clears the account's failures and gives the address its slot back. */
  async succeed(attempt: Attempt): Promise<void> {
    const held = attempt.held;
    attempt.held = undefined;
    await this.call(async () => {
      if (attempt.account) await this.counters.clear(this.key(attempt, 'account'));
      if (held?.address !== undefined) await this.counters.giveBack(this.key(attempt, 'address'));
    });
  }

  /**
   * Gives back the slots of an attempt that ended neither way (a request refused for another
   * reason, a dependency down). Best effort: a slot the store did not take back stays counted
   * until its window ends, which errs on the side of refusing.
   */
  async release(attempt: Attempt): Promise<void> {
    const held = attempt.held;
    attempt.held = undefined;
    for (const scope of ['account', 'address'] as const)
      if (held?.[scope] !== undefined) await this.counters.giveBack(this.key(attempt, scope)).catch(() => undefined);
  }

  /** Deletes counters that expired over an hour ago (the database store keeps them otherwise). */
  async clearExpired(): Promise<void> {
    await this.counters.sweep(Date.now() - 3_600_000);
  }
}
