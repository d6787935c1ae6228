// argon2id hashing holds 19 MiB per hash on a worker thread: at most HASH_CONCURRENCY run at
// once, the rest wait their turn, and every caller still gets its own answer.
import { HASH_CONCURRENCY, hashLoad, hashPassword, verifyPassword } from '../../src/modules/identity/passwords';

it('when eight passwords are checked at once, then at most HASH_CONCURRENCY hashes run together and each answer is right', async () => {
  const stored = await hashPassword('Right-Passw0rd!');
  expect(hashLoad()).toEqual({ running: 0, waiting: 0 });
  const attempts = ['Right-Passw0rd!', 'wrong', 'Right-Passw0rd!', 'wrong', 'Right-Passw0rd!', 'wrong', 'Right-Passw0rd!', 'wrong'];
  const results = Promise.all(attempts.map((p) => verifyPassword(stored, p)));
  // Every verification has started (synchronously) and queued behind the limit.
  await Promise.resolve();
  expect(hashLoad()).toEqual({ running: HASH_CONCURRENCY, waiting: attempts.length - HASH_CONCURRENCY });
  expect(await results).toEqual([true, false, true, false, true, false, true, false]);
  expect(hashLoad()).toEqual({ running: 0, waiting: 0 });
});

it('when the user has no password hash, then verification fails after the same work', async () => {
  expect(await verifyPassword(null, 'anything')).toBe(false);
  expect(hashLoad()).toEqual({ running: 0, waiting: 0 });
});
