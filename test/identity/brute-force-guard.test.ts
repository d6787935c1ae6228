// The brute-force guard itself, called as the token endpoint calls it, on the database store: which
// counters a request takes, what each way of ending it gives back, the delays and the lockout.
// The endpoint's side (answers, headers, logs, two instances): brute-force.test.ts and
// test/hostile/lockout-burst.test.ts. An attempt's `held` is the count each of its keys reached
// when take() counted it, so a take is the read-out of a counter here.
import crypto from 'node:crypto';
import type { MikroORM } from '@mikro-orm/core';
import { suffix } from '../kit';
import { createTestDb, type TestDb } from '../kit/db';
import { createOrm } from '../kit/src';
import { BruteForceGuard, GuardUnavailable, LockedOut, type Attempt } from '../../src/modules/identity/brute-force';
import type { AuthConfig } from '../../src/config';
import { ENTITIES } from '../../src/modules';

const CFG: AuthConfig['bruteForce'] = {
  maxFailuresPerAccount: 3,
  maxFailuresPerAddress: 5,
  windowSeconds: 900,
  lockoutSeconds: 600,
  delayStepMs: 200,
};

let db: TestDb;
let guard: BruteForceGuard;
const counterKey = crypto.randomBytes(32);
beforeAll(async () => {
  db = await createTestDb();
  guard = new BruteForceGuard(CFG, { orm: db.orm }, counterKey);
});
afterAll(() => db.close());

/** A new account name or address, unseen by the counters. */
const account = () => `user-${suffix()}@test.example`;
const address = () => `192.0.2.${suffix()}`;

/** Takes the attempt's slots and answers the counts they reached. */
async function taken(attempt: Attempt): Promise<Attempt['held']> {
  await guard.take(attempt);
  return attempt.held;
}

/** The LockedOut a call threw (and fails when it threw something else or nothing). */
async function lockedOut(call: Promise<unknown>): Promise<LockedOut> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LockedOut);
  return err as LockedOut;
}

/** Eight attempts (more than either limit) of one account from one address, each ended by `end`: each finds both counters empty. */
async function expectNeverFull(end: (attempt: Attempt) => Promise<unknown>, who: string, from: string): Promise<void> {
  for (let i = 0; i < 8; i++) {
    const attempt: Attempt = { account: who, address: from };
    expect(await taken(attempt)).toEqual({ account: 1, address: 1 });
    await end(attempt);
  }
}

it('a password attempt takes a slot of its account and of its address; one without an account, of its address only', async () => {
  const [ann, bob, from, elsewhere] = [account(), account(), address(), address()];
  expect(await taken({ account: ann, address: from })).toEqual({ account: 1, address: 1 });
  expect(await taken({ account: bob, address: from })).toEqual({ account: 1, address: 2 });
  expect(await taken({ account: null, address: from })).toEqual({ address: 3 });
  expect(await taken({ account: ann, address: elsewhere })).toEqual({ account: 2, address: 1 });
});

it("failures answer later by the step, capped at 3 s, by the account's count where one is named (not a shared address's)", async () => {
  const [carl, dora, from] = [account(), account(), address()];
  const delays = [];
  for (let i = 0; i < 3; i++) delays.push(await guard.fail({ account: carl, address: from }));
  expect(delays).toEqual([0, 200, 400]);
  // Another user behind the same address (a NAT) is not slowed by Carl's failures.
  expect(await guard.fail({ account: dora, address: from })).toBe(0);
  // A failure of a full account (no slot left to take) answers as the last one counted.
  expect(await guard.fail({ account: carl, address: address() })).toBe(400);

  // Without an account (a bad refresh token or code) the address's count sets the delay.
  const alone = address();
  const addressDelays = [];
  for (let i = 0; i < 5; i++) addressDelays.push(await guard.fail({ account: null, address: alone }));
  expect(addressDelays).toEqual([0, 200, 400, 600, 800]);

  const slow = new BruteForceGuard({ ...CFG, delayStepMs: 2000 }, { orm: db.orm }, counterKey);
  const eve = account();
  const capped = [];
  for (let i = 0; i < 3; i++) capped.push(await slow.fail({ account: eve, address: address() }));
  expect(capped).toEqual([0, 2000, 3000]);
});

it('a failure with its slots taken counts them once, not again', async () => {
  const [fay, from] = [account(), address()];
  const attempt: Attempt = { account: fay, address: from };
  await guard.take(attempt);
  expect(await guard.fail(attempt)).toBe(0);
  expect(await taken({ account: fay, address: from })).toEqual({ account: 2, address: 2 });
});

it('an account that reached its limit is locked for LOGIN_LOCKOUT_SECONDS: check refuses it, taking nothing', async () => {
  const gus = account();
  await guard.fail({ account: gus, address: address() });
  await guard.fail({ account: gus, address: address() });
  const from = address();
  // One failure short of the limit: still let in.
  await expect(guard.check({ account: gus, address: from })).resolves.toBeUndefined();
  await guard.fail({ account: gus, address: address() });

  const refusal = await lockedOut(guard.check({ account: gus, address: from }));
  // The policy of the account's key, and the lock (600 s from the last failure), not the window (900 s).
  expect(refusal).toMatchObject({ message: 'locked out', scope: 'account', quota: 3, windowSeconds: 900 });
  expect(refusal.retryAfterSeconds).toBeGreaterThan(590);
  expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(600);
  // Nothing was counted by the refusal: the address's first slot is still free.
  expect(await taken({ account: account(), address: from })).toEqual({ account: 1, address: 1 });
});

it('an address that reached its limit is refused for every account, and its refusal names the address', async () => {
  const from = address();
  for (let i = 0; i < 4; i++) await guard.fail({ account: null, address: from });
  await expect(guard.check({ account: account(), address: from })).resolves.toBeUndefined();
  await expect(guard.check({ account: null, address: from })).resolves.toBeUndefined();
  await guard.fail({ account: null, address: from });

  for (const attempt of [
    { account: account(), address: from },
    { account: null, address: from },
  ]) {
    const refusal = await lockedOut(guard.check(attempt));
    expect(refusal).toMatchObject({ scope: 'address', quota: 5, windowSeconds: 900 });
    expect(refusal.retryAfterSeconds).toBeGreaterThan(590);
    expect(refusal.retryAfterSeconds).toBeLessThanOrEqual(600);
  }
});

it('take refuses a full key holding nothing: the slot of the account it took first is given back', async () => {
  const [hal, from] = [account(), address()];
  for (let i = 0; i < 5; i++) await taken({ account: account(), address: from });
  const attempt: Attempt = { account: hal, address: from };
  const err = await lockedOut(guard.take(attempt));
  expect(err.scope).toBe('address');
  expect(attempt.held).toBeUndefined();
  expect(await taken({ account: hal, address: address() })).toEqual({ account: 1, address: 1 });

  // A full account is refused with the time its window has left.
  for (let i = 0; i < 2; i++) await taken({ account: hal, address: address() });
  const full = await lockedOut(guard.take({ account: hal, address: address() }));
  expect(full).toMatchObject({ scope: 'account', quota: 3, windowSeconds: 900 });
  expect(full.retryAfterSeconds).toBeGreaterThan(890);
  expect(full.retryAfterSeconds).toBeLessThanOrEqual(900);
});

it('a bad client secret counts against the address, never against the account it names', async () => {
  // Refused before a slot was taken (the client is checked first): the account is not counted.
  const [ida, from] = [account(), address()];
  const delays = [];
  for (let i = 0; i < 3; i++) delays.push(await guard.fail({ account: ida, address: from }, false));
  expect(delays).toEqual([0, 200, 400]);
  expect(await taken({ account: ida, address: address() })).toEqual({ account: 1, address: 1 });
  expect(await taken({ account: account(), address: from })).toEqual({ account: 1, address: 4 });

  // An account with failures already counted keeps them: nothing of it is given back either.
  const lee = account();
  await guard.fail({ account: lee, address: address() });
  await guard.fail({ account: lee, address: address() });
  await guard.fail({ account: lee, address: address() }, false);
  expect(await taken({ account: lee, address: address() })).toEqual({ account: 3, address: 1 });

  // With its slots taken: the account's is given back, the address's stays counted.
  const [jay, there] = [account(), address()];
  const attempt: Attempt = { account: jay, address: there };
  await guard.take(attempt);
  expect(await guard.fail(attempt, false)).toBe(0);
  expect(await taken({ account: jay, address: address() })).toEqual({ account: 1, address: 1 });
  expect(await taken({ account: account(), address: there })).toEqual({ account: 1, address: 2 });

  // A failure says by default that the account named is at fault.
  const kim = account();
  await guard.fail({ account: kim, address: address() });
  expect(await taken({ account: kim, address: address() })).toEqual({ account: 2, address: 1 });
});

it("successes never fill an address's counter, and a success clears the account's failures", async () => {
  const lea = account();
  await expectNeverFull((attempt) => guard.succeed(attempt), lea, address());
  await guard.fail({ account: lea, address: address() });
  await guard.fail({ account: lea, address: address() });
  const attempt: Attempt = { account: lea, address: address() };
  expect(await taken(attempt)).toEqual({ account: 3, address: 1 });
  await guard.succeed(attempt);
  expect(await taken({ account: lea, address: address() })).toEqual({ account: 1, address: 1 });

  // A success that took no slot (a refresh token or a code: no account) gives nothing back.
  const alone = address();
  await guard.fail({ account: null, address: alone });
  await guard.fail({ account: null, address: alone });
  await guard.succeed({ account: null, address: alone });
  expect(await taken({ account: null, address: alone })).toEqual({ address: 3 });
});

it('requests refused for another reason never fill a counter: release gives both slots back', async () => {
  const [max, from] = [account(), address()];
  await expectNeverFull((attempt) => guard.release(attempt), max, from);
  // An attempt that took nothing gives nothing back.
  await taken({ account: max, address: from });
  await guard.release({ account: max, address: from });
  expect(await taken({ account: max, address: from })).toEqual({ account: 2, address: 2 });
});

it('an attempt ends once: ending it again gives nothing more back', async () => {
  const from = address();
  const holder: Attempt = { account: account(), address: from };
  await guard.take(holder);
  for (const end of [(a: Attempt) => guard.succeed(a), (a: Attempt) => guard.release(a), (a: Attempt) => guard.fail(a)]) {
    const attempt: Attempt = { account: account(), address: from };
    await guard.take(attempt);
    await end(attempt);
    expect(attempt.held).toBeUndefined();
    await guard.release(attempt);
  }
  // The holder's slot and the failure's are still counted.
  expect(await taken({ account: account(), address: from })).toEqual({ account: 1, address: 3 });
});

describe('when the counters do not answer', () => {
  let down: MikroORM;
  let broken: BruteForceGuard;
  beforeAll(async () => {
    down = await createOrm({ entities: ENTITIES, databaseUrl: 'postgres://postgres@127.0.0.1:1/nowhere', embeddedDir: 'memory://' });
    broken = new BruteForceGuard(CFG, { orm: down }, counterKey);
  });
  afterAll(() => down.close(true));

  it('then check, take, fail and succeed throw GuardUnavailable with the store error as its cause', async () => {
    const attempt = (): Attempt => ({ account: account(), address: address(), held: { account: 1, address: 1 } });
    for (const call of [
      broken.check(attempt()),
      broken.take(attempt()),
      broken.fail(attempt()),
      broken.fail(attempt(), false),
      broken.succeed(attempt()),
    ]) {
      const err = await call.then(
        () => null,
        (e: unknown) => e as GuardUnavailable,
      );
      expect(err).toBeInstanceOf(GuardUnavailable);
      expect(err!.message).toBe('brute-force counters unavailable');
      expect((err!.cause as Error).message).toMatch(/ECONNREFUSED/);
    }
  });

  it('then release gives up quietly (a slot not given back stays counted until its window ends)', async () => {
    const attempt: Attempt = { account: account(), address: address(), held: { account: 1, address: 1 } };
    await expect(broken.release(attempt)).resolves.toBeUndefined();
    expect(attempt.held).toBeUndefined();
  });
});
