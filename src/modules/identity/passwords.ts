// argon2id password hashes. Verification always does the same work, whether or not the user
// exists or has a password, so response time does not tell which addresses exist (save for a
// user whose hash predates today's parameters, until that user signs in: docs/security.md).
import os from 'node:os';
import { hash, verify } from './argon2';

const ARGON2ID = 2;
/**
 * argon2id with 7 MiB, 5 passes, one lane: one of the five configurations OWASP's Password Storage
 * Cheat Sheet lists as giving the same defence (from 46 MiB x 1 to 7 MiB x 5), the one that holds
 * least memory while it runs. On this machine a verification also costs less CPU than with the
 * library's default 19 MiB x 2 (23 against 33 ms), whose pages are faulted in again every time.
 */
const PARAMS = { algorithm: ARGON2ID, memoryCost: 7168, timeCost: 5, parallelism: 1 } as const;
const CURRENT_PREFIX = `$argon2id$v=19$m=${PARAMS.memoryCost},t=${PARAMS.timeCost},p=${PARAMS.parallelism}$`;
let dummy: Promise<string> | undefined;

/**
 * At most this many hashes run at once: one core fewer than the machine has (at least one, at most
 * four), so a burst of sign-ins leaves the event loop a core. Each holds its memory (7 MiB now;
 * 19 MiB for a hash made before 2026-11-24 with the library's default) on a worker thread; the rest
 * wait here. On two cores, reads served during sign-ins: 623 -> 1,004 req/s, p99 25 -> 16 ms; sign-ins
 * 52 -> 38 a second (docs/performance.md).
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(4, os.availableParallelism() - 1));
let running = 0;
const waiting: Array<() => void> = [];

/** Hashes running now and waiting for a slot (for tests and diagnostics). */
export function hashLoad(): { running: number; waiting: number } {
  return { running, waiting: waiting.length };
}

async function limited<T>(work: () => Promise<T>): Promise<T> {
  if (running >= HASH_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // The slot passes straight to the next waiter, or is given back.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, PARAMS));
}

/** True when a stored hash was made with other parameters than today's: made again at the next sign-in. */
export function needsRehash(storedHash: string): boolean {
  return !storedHash.startsWith(CURRENT_PREFIX);
}

export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  const target = storedHash ?? (await (dummy ??= hashPassword('no-such-user-password')));
  try {
    const ok = await limited(() => verify(target, password));
    return ok && Boolean(storedHash);
  } catch {
    return false;
  }
}
