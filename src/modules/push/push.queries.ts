// The push module's SQL (docs/development.md, "Reads and writes"), in schema/sql/push.sql: the
// subscriptions a delivery reads, and the set-wise writes of subscribing and of removing the gone.
import { sql } from 'kysely';
import { anyOf, queriesOf } from '../../db/sql';
import { PushSubscription } from './push.entity';

const { compiled } = queriesOf({ PushSubscription });

/** The users among these (an intArray) that have a subscription, by id. */
export const subscribedUsers = compiled((db, p: { userIds: string }) =>
  db
    .selectFrom('PushSubscription as p')
    .select('p.user as userId')
    .distinct()
    .where('p.user', '=', anyOf(p.userIds, 'int'))
    .orderBy('p.user'),
);

/** Every subscription of these users (an intArray), oldest first. */
export const subscriptionsOf = compiled((db, p: { userIds: string }) =>
  db
    .selectFrom('PushSubscription as p')
    .select(['p.id as subscriptionId', 'p.user as userId', 'p.endpoint', 'p.p256dh', 'p.auth'])
    .where('p.user', '=', anyOf(p.userIds, 'int'))
    .orderBy('p.id'),
);

/** Removes the subscriptions of these ids (an intArray). */
export const removeSubscriptions = compiled((db, p: { ids: string }) =>
  db.deleteFrom('PushSubscription').where('id', '=', anyOf(p.ids, 'int')),
);

/** One subscription per endpoint: a new one, or the endpoint's row updated (moved to this user when another's). */
export const upsertSubscription = compiled((db, p: { userId: number; endpoint: string; p256dh: string; auth: string; now: Date }) =>
  db
    .insertInto('PushSubscription')
    .values({ user: p.userId, endpoint: p.endpoint, p256dh: p.p256dh, auth: p.auth, createdAt: p.now, updatedAt: p.now })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet((eb) => ({
        user: eb.ref('excluded.user'),
        p256dh: eb.ref('excluded.p256dh'),
        auth: eb.ref('excluded.auth'),
        updatedAt: eb.ref('excluded.updatedAt'),
      })),
    ),
);

/** Drops the user's least recently registered subscriptions beyond `keep`. */
export const trimSubscriptions = compiled((db, p: { userId: number; keep: number }) =>
  db
    .deleteFrom('PushSubscription')
    .where('user', '=', p.userId)
    .where('id', 'not in', (q) =>
      q
        .selectFrom('PushSubscription as kept')
        .select('kept.id')
        .where('kept.user', '=', p.userId)
        .orderBy('kept.updatedAt', 'desc')
        .orderBy('kept.id', 'desc')
        .limit(p.keep),
    ),
);

/** Removes the user's subscription with this endpoint; answers how many went (1 or 0). */
export const removeSubscription = compiled((db, p: { userId: number; endpoint: string }) =>
  db
    .with('gone', (q) =>
      q.deleteFrom('PushSubscription').where('user', '=', p.userId).where('endpoint', '=', p.endpoint).returning(sql.lit(1).as('one')),
    )
    .selectFrom('gone')
    .select(sql<number>`count(*)::int`.as('removed')),
);
