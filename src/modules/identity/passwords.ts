// argon2id password hashes. Verification always does the same work, whether or not the user
// exists or has a password, so response time does not tell which addresses exist.
import { hash, verify } from '@node-rs/argon2';

const ARGON2ID = 2;
let dummy: Promise<string> | undefined;

export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID });
}

export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  const target = storedHash ?? (await (dummy ??= hashPassword('no-such-user-password')));
  try {
    const ok = await verify(target, password);
    return ok && Boolean(storedHash);
  } catch {
    return false;
  }
}
