// What the brute-force guard's counters promise on either store, written once and declared by the
// database store's test (test/identity/lockout-counters.test.ts) and Redis's
// (test/redis/lockout-counters.redis.ts): the same calls, the same answers. Each test counts on keys
// of its own, so the tests share one store.
import { suffix } from './factories';
import type { LockoutCounters, Taken } from '../../src/modules/identity/lockout-counters';

const MINUTE = 60_000;

/** Resolves after `ms`: for windows of a few milliseconds to run out. */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The ms left of a refused take (and fails when the take was not refused). */
function refusal(answer: Taken): number {
  expect(answer).toEqual({ taken: false, msLeft: expect.any(Number) });
  return (answer as { msLeft: number }).msLeft;
}

/**
 * Declares the contract's tests in a describe block named after the store (test names stay apart
 * between the stores' files); `counters` is called inside them (the store opens in beforeAll).
 */
export function lockoutCountersContract(store: string, counters: () => LockoutCounters): void {
  describe(store, () => contract(counters));
}

function contract(counters: () => LockoutCounters): void {
  const key = () => `lockout-test:${suffix()}`;

  it('take counts up to the limit, then refuses and says how long the window has left', async () => {
    const c = counters();
    const k = key();
    expect(await c.take(k, 3, MINUTE)).toEqual({ taken: true, count: 1 });
    expect(await c.take(k, 3, MINUTE)).toEqual({ taken: true, count: 2 });
    expect(await c.take(k, 3, MINUTE)).toEqual({ taken: true, count: 3 });
    const msLeft = refusal(await c.take(k, 3, MINUTE));
    expect(msLeft).toBeGreaterThan(50_000);
    expect(msLeft).toBeLessThanOrEqual(MINUTE);
    // A refused take adds nothing, and another key counts on its own.
    expect(await c.peek(k)).toEqual({ count: 3, msLeft: expect.any(Number) });
    expect(await c.take(key(), 3, MINUTE)).toEqual({ taken: true, count: 1 });
  });

  it('peek answers null for a key never counted, else the count and the window left', async () => {
    const c = counters();
    const k = key();
    expect(await c.peek(k)).toBeNull();
    await c.take(k, 5, MINUTE);
    await c.take(k, 5, MINUTE);
    const held = await c.peek(k);
    expect(held).toEqual({ count: 2, msLeft: expect.any(Number) });
    expect(held!.msLeft).toBeGreaterThan(50_000);
    expect(held!.msLeft).toBeLessThanOrEqual(MINUTE);
  });

  it('a window that ran out counts as nothing, and the next take starts a new one', async () => {
    const c = counters();
    const k = key();
    await c.take(k, 2, 40);
    await c.take(k, 2, 40);
    await pause(80);
    expect(await c.peek(k)).toBeNull();
    expect(await c.take(k, 2, MINUTE)).toEqual({ taken: true, count: 1 });
    expect((await c.peek(k))!.msLeft).toBeGreaterThan(50_000);
  });

  it('giveBack takes one off; a key given back to nothing counts as nothing and starts again at 1', async () => {
    const c = counters();
    const k = key();
    await c.take(k, 5, MINUTE);
    await c.take(k, 5, MINUTE);
    await c.giveBack(k);
    expect(await c.peek(k)).toEqual({ count: 1, msLeft: expect.any(Number) });
    await c.giveBack(k);
    expect(await c.peek(k)).toBeNull();
    // Never below nothing: a slot given back twice more is not owed to later takes.
    await c.giveBack(k);
    await c.giveBack(k);
    expect(await c.peek(k)).toBeNull();
    expect(await c.take(k, 5, MINUTE)).toEqual({ taken: true, count: 1 });
    // A key never counted stays so.
    const never = key();
    await c.giveBack(never);
    expect(await c.peek(never)).toBeNull();
  });

  it('a full counter given a slot back lets exactly one more take in', async () => {
    const c = counters();
    const k = key();
    for (let i = 0; i < 2; i++) await c.take(k, 2, MINUTE);
    refusal(await c.take(k, 2, MINUTE));
    await c.giveBack(k);
    expect(await c.take(k, 2, MINUTE)).toEqual({ taken: true, count: 2 });
    refusal(await c.take(k, 2, MINUTE));
  });

  it('lockIfFull makes a full counter live the lock from now, and leaves one below the limit alone', async () => {
    const c = counters();
    const below = key();
    await c.take(below, 3, MINUTE);
    await c.take(below, 3, MINUTE);
    await c.lockIfFull(below, 3, 10 * MINUTE);
    expect((await c.peek(below))!.msLeft).toBeLessThanOrEqual(MINUTE);

    const full = key();
    for (let i = 0; i < 3; i++) await c.take(full, 3, MINUTE);
    await c.lockIfFull(full, 3, 10 * MINUTE);
    const locked = await c.peek(full);
    expect(locked).toEqual({ count: 3, msLeft: expect.any(Number) });
    expect(locked!.msLeft).toBeGreaterThan(9 * MINUTE);
    expect(locked!.msLeft).toBeLessThanOrEqual(10 * MINUTE);
    // The refusal says the lock's time left, not the window's.
    expect(refusal(await c.take(full, 3, MINUTE))).toBeGreaterThan(9 * MINUTE);

    // A key never counted is not locked into existence.
    const never = key();
    await c.lockIfFull(never, 1, 10 * MINUTE);
    expect(await c.peek(never)).toBeNull();
  });

  it('clear forgets the key: the next take counts 1 again', async () => {
    const c = counters();
    const k = key();
    for (let i = 0; i < 3; i++) await c.take(k, 3, MINUTE);
    await c.clear(k);
    expect(await c.peek(k)).toBeNull();
    expect(await c.take(k, 3, MINUTE)).toEqual({ taken: true, count: 1 });
  });
}
