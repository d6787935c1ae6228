// argon2id hashing holds 7 MiB per hash (19 MiB for older hashes) on a worker thread: at most HASH_CONCURRENCY run at
// once, the rest wait their turn, and every caller still gets its own answer.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import os from 'node:os';
import { hashLoad, hashPassword, needsRehash, verifyPassword } from '../../src/modules/identity/passwords';

/** As docs/deployment.md says: at most cores - 1 hashes at once, at least one and at most four. */
const HASH_CONCURRENCY = Math.max(1, Math.min(4, os.availableParallelism() - 1));

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

it('when a password is hashed, then it is argon2id with 7 MiB, 5 passes and one lane, and older parameters are told apart', async () => {
  const stored = await hashPassword('Right-Passw0rd!');
  expect(stored).toMatch(/^\$argon2id\$v=19\$m=7168,t=5,p=1\$/);
  expect(needsRehash(stored)).toBe(false);
  expect(needsRehash(stored.replace('m=7168,t=5', 'm=19456,t=2'))).toBe(true);
  expect(needsRehash(stored.replace('$argon2id$', '$argon2i$'))).toBe(true);
});

it('when the user has no password hash, then verification fails after the same work', async () => {
  expect(await verifyPassword(null, 'anything')).toBe(false);
  expect(hashLoad()).toEqual({ running: 0, waiting: 0 });
});

it('when hashes have run, then their memory is given back (argon2 allocates them through its own allocator)', () => {
  // In a process of its own, as the service runs (the allocator reads its settings when the
  // library loads): six verifications two at a time of a hash with the older 19 MiB parameters
  // (still stored for users who have not signed in since), then the resident size again. Without
  // the purge setting of src/modules/identity/argon2.ts the process kept about 57 MB.
  const dist = path.join(__dirname, '../../dist/src/modules/identity');
  const script = `
    const { verifyPassword } = require(${JSON.stringify(path.join(dist, 'passwords.js'))});
    const { hash } = require(${JSON.stringify(path.join(dist, 'argon2.js'))});
    (async () => {
      const stored = await hash('Right-Passw0rd!', { algorithm: 2 });
      const before = process.memoryUsage().rss;
      for (let i = 0; i < 3; i++) await Promise.all([verifyPassword(stored, 'Right-Passw0rd!'), verifyPassword(stored, 'wrong')]);
      console.log(JSON.stringify({ grewMb: (process.memoryUsage().rss - before) / 1048576 }));
    })();`;
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout).grewMb).toBeLessThan(15);
});
