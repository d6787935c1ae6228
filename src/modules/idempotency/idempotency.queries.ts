// The idempotency module's SQL (docs/development.md, "Reads and writes"), in
// schema/sql/idempotency.sql: a key's stored answer, the answer written, the key held for the
// transaction, and the expired keys purged. Every statement runs on the request's transaction.
import { sql, type SqlBool } from 'kysely';
import { queriesOf } from '../../db/sql';
import { IdempotentAnswer } from './idempotency.entity';

const { compiled } = queriesOf({ IdempotentAnswer });

/** The caller's answer under a key, while it has not expired. */
export const storedAnswer = compiled((db, p: { scope: string; key: string; now: Date }) =>
  db
    .selectFrom('IdempotentAnswer as a')
    .select(['a.fingerprint', 'a.status', 'a.contentType', 'a.body'])
    .where('a.scope', '=', p.scope)
    .where('a.key', '=', p.key)
    .where('a.expiresAt', '>', p.now),
);

/**
 * The key held by this transaction, or false when another transaction (a first request still
 * running, on any instance) holds it: a transaction-level advisory lock, released by the commit or
 * the rollback, so a pooler in transaction mode keeps it with its transaction.
 */
export const holdKey = compiled((db, p: { lock: string }) =>
  db.selectNoFrom(sql<SqlBool>`pg_try_advisory_xact_lock(hashtextextended(${p.lock}, 0))`.as('held')),
);

/** The first answer under a key; an expired one the purge has not reached yet is replaced. */
export const storeAnswer = compiled(
  (
    db,
    p: {
      scope: string;
      key: string;
      fingerprint: string;
      status: number;
      contentType: string | null;
      body: string | null;
      now: Date;
      expiresAt: Date;
    },
  ) =>
    db
      .insertInto('IdempotentAnswer')
      .values({
        scope: p.scope,
        key: p.key,
        fingerprint: p.fingerprint,
        status: p.status,
        contentType: p.contentType,
        body: p.body,
        createdAt: p.now,
        expiresAt: p.expiresAt,
      })
      .onConflict((oc) =>
        oc.columns(['scope', 'key']).doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          status: eb.ref('excluded.status'),
          contentType: eb.ref('excluded.contentType'),
          body: eb.ref('excluded.body'),
          createdAt: eb.ref('excluded.createdAt'),
          expiresAt: eb.ref('excluded.expiresAt'),
        })),
      ),
);

/** Removes the answers that expired by `now`; says how many. */
export const purgeExpiredAnswers = compiled((db, p: { now: Date }) =>
  db
    .with('gone', (w) => w.deleteFrom('IdempotentAnswer').where('expiresAt', '<=', p.now).returning('key'))
    .selectFrom('gone')
    .select(sql<number>`count(*)::int`.as('purged')),
);
