// Opaque credentials: 256 random bits, base64url; stored and looked up as SHA-256 hex.
import crypto from 'node:crypto';

export function newOpaqueToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && crypto.timingSafeEqual(x, y);
}

export const SERVICE_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;
