// The cache in front of service_auth_token. With REDIS_URL it is Redis, shared by every
// instance; otherwise it is in-process and an entry lives at most 30 s. Either way every
// revocation also travels on the bus (BroadcastTokenCache), so every instance evicts the token
// at once and closes its live connections. A revocation leaves a marker that a late write of
// the same token (a request that read the row just before the logout) cannot overwrite.
import type { Redis } from 'ioredis';
import type { Bus } from '../../core/bus';
import type { Logger } from '../../logger';

export interface CachedToken {
  userId: number;
  /** Epoch ms; sliding, pushed forward in the database and here. */
  expiresAt: number;
}

export type CacheLookup = CachedToken | 'revoked' | null;

export interface TokenCache {
  get(tokenHash: string): Promise<CacheLookup>;
  /** Stores the entry unless the token was revoked meanwhile. */
  put(tokenHash: string, entry: CachedToken): Promise<void>;
  revoke(tokenHashes: string[]): Promise<void>;
}

/** Told of revoked tokens (hashes), or with null when revocations may have been missed (re-check every token). */
export type RevocationListener = (tokenHashes: readonly string[] | null) => void;

/** The cache did not answer: the caller turns this into WSCacheServiceException. */
export class CacheUnavailableError extends Error {}

export const MEMORY_TTL_MS = 30_000;
const REDIS_TTL_MS = 10 * 60_000;
/** Longer than any entry's life, so no stale write can outlive the marker. */
const REVOKED_TTL_MS = REDIS_TTL_MS + 60_000;
const REVOKED = 'revoked';
const MEMORY_MAX_ENTRIES = 50_000;

export class MemoryTokenCache implements TokenCache {
  private readonly entries = new Map<string, { value: CachedToken | 'revoked'; until: number }>();

  constructor(private readonly ttlMs = MEMORY_TTL_MS) {}

  async get(tokenHash: string): Promise<CacheLookup> {
    const hit = this.entries.get(tokenHash);
    if (!hit) return null;
    if (hit.until <= Date.now()) {
      this.entries.delete(tokenHash);
      return null;
    }
    return hit.value;
  }

  async put(tokenHash: string, entry: CachedToken): Promise<void> {
    if (this.entries.get(tokenHash)?.value === REVOKED) return;
    this.set(tokenHash, entry, Math.min(this.ttlMs, entry.expiresAt - Date.now()));
  }

  async revoke(tokenHashes: string[]): Promise<void> {
    for (const h of tokenHashes) this.set(h, REVOKED, this.ttlMs);
  }

  /** Forgets every entry but the revocation markers (revocations may have been missed: read the database again). */
  forgetValid(): void {
    for (const [key, hit] of this.entries) if (hit.value !== REVOKED) this.entries.delete(key);
  }

  private set(key: string, value: CachedToken | 'revoked', ttl: number): void {
    if (ttl <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= MEMORY_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until: Date.now() + ttl });
  }
}

// Sets KEYS[1] unless it holds the revocation marker.
const PUT_UNLESS_REVOKED = `
if redis.call('GET', KEYS[1]) == ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** The client with the command defined in RedisTokenCache's constructor. */
type RedisWithPutUnlessRevoked = Redis & {
  putUnlessRevoked(key: string, value: string, ttlMs: string, revokedMarker: string): Promise<number>;
};

export class RedisTokenCache implements TokenCache {
  constructor(private readonly redis: Redis) {
    redis.defineCommand('putUnlessRevoked', { numberOfKeys: 1, lua: PUT_UNLESS_REVOKED });
  }

  private key(tokenHash: string): string {
    return `sat:${tokenHash}`;
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new CacheUnavailableError('token cache unavailable', { cause: err });
    }
  }

  async get(tokenHash: string): Promise<CacheLookup> {
    const raw = await this.run(() => this.redis.get(this.key(tokenHash)));
    if (raw === null) return null;
    if (raw === REVOKED) return REVOKED;
    const { u, e } = JSON.parse(raw);
    return { userId: u, expiresAt: e };
  }

  async put(tokenHash: string, entry: CachedToken): Promise<void> {
    const ttl = Math.min(REDIS_TTL_MS, entry.expiresAt - Date.now());
    if (ttl <= 0) return;
    const value = JSON.stringify({ u: entry.userId, e: entry.expiresAt });
    await this.run(() =>
      (this.redis as RedisWithPutUnlessRevoked).putUnlessRevoked(this.key(tokenHash), value, String(Math.floor(ttl)), REVOKED),
    );
  }

  async revoke(tokenHashes: string[]): Promise<void> {
    if (!tokenHashes.length) return;
    await this.run(async () => {
      const multi = this.redis.multi();
      for (const h of tokenHashes) multi.set(this.key(h), REVOKED, 'PX', REVOKED_TTL_MS);
      const results = await multi.exec();
      const failed = results?.find(([err]) => err)?.[0];
      if (failed) throw failed;
    });
  }
}

/** The bus topic of revocations: `{ h: [token hashes] }`. */
const REVOKED_TOPIC = 'auth.revoked';
/** Hashes per bus message (64 hex characters each, under the message size limit). */
const HASHES_PER_MESSAGE = 100;

/**
 * A cache whose revocations every instance hears at once: revoke() marks the tokens in the cache,
 * then announces them on the bus; each instance (this one included) marks them in its in-process
 * cache and tells its listeners (live connections of those tokens close). A failed announcement is
 * logged: the other instances then refuse the token when their entry expires (at most 30 s).
 */
export class BroadcastTokenCache implements TokenCache {
  private readonly listeners = new Set<RevocationListener>();
  private readonly unsubscribe: (() => void)[];

  constructor(
    private readonly inner: TokenCache,
    private readonly bus: Bus,
    private readonly logger: Logger,
  ) {
    this.unsubscribe = [
      bus.subscribe(REVOKED_TOPIC, (data) => this.heard(data)),
      bus.onReconnect(() => {
        if (inner instanceof MemoryTokenCache) inner.forgetValid();
        this.tell(null);
      }),
    ];
  }

  get(tokenHash: string): Promise<CacheLookup> {
    return this.inner.get(tokenHash);
  }

  put(tokenHash: string, entry: CachedToken): Promise<void> {
    return this.inner.put(tokenHash, entry);
  }

  async revoke(tokenHashes: string[]): Promise<void> {
    await this.inner.revoke(tokenHashes);
    for (let i = 0; i < tokenHashes.length; i += HASHES_PER_MESSAGE) {
      await this.bus
        .publish(REVOKED_TOPIC, { h: tokenHashes.slice(i, i + HASHES_PER_MESSAGE) })
        .catch((err) => this.logger.warn({ err: { message: (err as Error).message } }, 'token revocation not announced on the bus'));
    }
  }

  /** Adds a listener for revocations; returns its removal. */
  onRevoked(listener: RevocationListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  close(): void {
    for (const off of this.unsubscribe) off();
    this.listeners.clear();
  }

  private async heard(data: unknown): Promise<void> {
    const hashes = (data as { h?: unknown } | null)?.h;
    if (!Array.isArray(hashes) || !hashes.every((h): h is string => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h))) return;
    // Redis already holds the marker; the in-process cache of this instance learns it here.
    if (this.inner instanceof MemoryTokenCache) await this.inner.revoke(hashes);
    this.tell(hashes);
  }

  private tell(hashes: readonly string[] | null): void {
    for (const listener of this.listeners) {
      try {
        listener(hashes);
      } catch (err) {
        this.logger.error({ err }, 'a token revocation listener failed');
      }
    }
  }
}
