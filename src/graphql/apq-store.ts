// Where automatic persisted queries keep the documents' text by hash: Redis when REDIS_URL is set,
// so a document registered on one instance is found by id on every other (a client's second
// request may land anywhere behind the balancer), else this process's memory, bounded in bytes.
import type { Redis } from 'ioredis';
import { InMemoryLRUCache, type KeyValueCache } from '@apollo/utils.keyvaluecache';
import type { Logger } from '../logger';

/** How long Redis keeps a registered document after its last registration (Apollo's clients register again on a miss). */
export const APQ_REDIS_TTL_SECONDS = 24 * 60 * 60;
/** The largest document Redis keeps; a larger one runs but is not stored (its client sends its text each time). */
export const APQ_REDIS_MAX_ENTRY_BYTES = 64 * 1024;

/** Documents by hash in this process: at most `maxBytes` of text, least recently used out first. */
export function memoryApqStore(maxBytes: number): KeyValueCache<string> {
  return new InMemoryLRUCache<string>({ maxSize: maxBytes, sizeCalculation: (text) => Buffer.byteLength(text) });
}

/**
 * Documents by hash in Redis under `apq:<sha256>` (after REDIS_KEY_PREFIX). A Redis that does not
 * answer is a miss, logged once until it answers again: Apollo answers PERSISTED_QUERY_NOT_FOUND
 * and the client sends the text, which runs.
 */
export function redisApqStore(redis: Redis, logger: Logger): KeyValueCache<string> {
  let failing = false;
  const failed = (err: unknown) => {
    if (!failing)
      logger.warn(
        { err: { message: (err as Error).message } },
        'persisted query store (redis) not answering: documents are not found by id',
      );
    failing = true;
  };
  const answered = () => {
    failing = false;
  };
  return {
    async get(key) {
      try {
        const text = await redis.get(`apq:${key}`);
        answered();
        return text ?? undefined;
      } catch (err) {
        failed(err);
        return undefined;
      }
    },
    async set(key, value) {
      if (Buffer.byteLength(value) > APQ_REDIS_MAX_ENTRY_BYTES) return;
      try {
        await redis.set(`apq:${key}`, value, 'EX', APQ_REDIS_TTL_SECONDS);
        answered();
      } catch (err) {
        failed(err);
      }
    },
    async delete(key) {
      try {
        return (await redis.del(`apq:${key}`)) > 0;
      } catch (err) {
        failed(err);
        return false;
      }
    },
  };
}
