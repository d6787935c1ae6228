// argon2id password hashes. Verification always does the same work, whether or not the user
// exists or has a password, so response time does not tell which addresses exist.
import os from 'node:os';
import { hash, verify } from './argon2';

const ARGON2ID = 2;
let dummy: Promise<string> | undefined;

/**
 * At most this many hashes run at once. Each holds 19 MiB (the library's default m=19456) on a
 * worker thread, and more hashes than cores add no throughput, only memory: the rest wait here.
 */
export const HASH_CONCURRENCY = Math.max(1, Math.min(4, os.availableParallelism()));
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
  return limited(() => hash(password, { algorithm: ARGON2ID }));
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
