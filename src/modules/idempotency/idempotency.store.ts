// The keys' protocol, one transaction per keyed mutation. Opening a key begins a transaction on
// the request's EntityManager (the mutation's own transactions become savepoints in it), holds
// the key, and reads its stored answer: the same request replays it, another request is refused.
// Otherwise the mutation runs inside that transaction, and its answer is written there just
// before the commit: a stored answer means the write committed; a failure rolls both back.
//
// A key is held twice: in this process (a repeat arriving on the same instance is refused at once,
// before any statement; on the embedded database, whose one connection serialises transactions,
// this is the only way to see the first one running) and by a transaction-level advisory lock (a
// repeat on another instance is refused without waiting for the first one's commit).
import type { EntityManager } from '@mikro-orm/core';
import { ServiceError } from '../../core/errors';
import { KEY_HEADER, type IdempotencyKeys, type KeyedRequest, type OpenedKey } from '../../http/idempotency';
import { IDEMPOTENCY_TTL_MS } from './idempotency.entity';
import { holdKey, storeAnswer, storedAnswer } from './idempotency.queries';

const stillRunning = () =>
  new ServiceError('WSInvalidParameterException', 'A request with this Idempotency-Key is still being processed; retry later.', {
    field: KEY_HEADER,
    status: 409,
  });

const anotherRequest = () =>
  new ServiceError('WSInvalidParameterException', 'This Idempotency-Key was used with another request.', {
    field: KEY_HEADER,
    status: 422,
  });

/** Keys of first requests running in this process. */
const running = new Set<string>();

async function rollback(em: EntityManager): Promise<void> {
  if (em.isInTransaction()) await em.rollback();
}

/** Opens the key for `request` on the request's EntityManager; throws 409 or 422 as a ServiceError. */
export async function openKey(em: EntityManager, now: Date, request: KeyedRequest): Promise<OpenedKey> {
  const lock = `${request.scope}\n${request.key}`;
  if (running.has(lock)) throw stillRunning();
  running.add(lock);
  let released = false;
  const release = () => {
    if (!released) running.delete(lock);
    released = true;
  };
  try {
    await em.begin();
    const [held] = await holdKey.run(em, { lock });
    if (!held?.held) throw stillRunning();
    const [stored] = await storedAnswer.run(em, { scope: request.scope, key: request.key, now });
    if (stored) {
      if (stored.fingerprint !== request.fingerprint) throw anotherRequest();
      await rollback(em);
      release();
      return { replay: { status: stored.status, contentType: stored.contentType ?? null, body: stored.body ?? null } };
    }
  } catch (err) {
    await rollback(em).catch(() => undefined);
    release();
    throw err;
  }
  return {
    pending: {
      async keep(answer) {
        try {
          if (answer)
            await storeAnswer.run(em, {
              ...request,
              ...answer,
              now,
              expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
            });
          await em.commit();
        } finally {
          await rollback(em).catch(() => undefined);
          release();
        }
      },
      async abandon() {
        try {
          await rollback(em);
        } finally {
          release();
        }
      },
    },
  };
}

/** The keys' protocol as the REST executor and the GraphQL plugin reach it (ctx.services.idempotency). */
export const IDEMPOTENCY_KEYS: IdempotencyKeys = { open: openKey };

declare module '../../context' {
  interface ModuleServices {
    idempotency: IdempotencyKeys;
  }
}
