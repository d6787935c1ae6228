-- The SQL of src/modules/push/push.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- removeSubscription
with "gone" as (delete
    from "push_subscription"
    where "user_id" = $1 and "endpoint" = $2
    returning 1 as "one")
  select count(*)::int as "removed"
  from "gone";

-- removeSubscriptions
delete
  from "push_subscription"
  where "id" = any($1::int[]);

-- subscribedUsers
select distinct "p"."user_id" as "userId"
  from "push_subscription" as "p"
  where "p"."user_id" = any($1::int[])
  order by "p"."user_id";

-- subscriptionsOf
select "p"."id" as "subscriptionId", "p"."user_id" as "userId", "p"."endpoint" as "endpoint", "p"."p256dh" as "p256dh", "p"."auth" as "auth"
  from "push_subscription" as "p"
  where "p"."user_id" = any($1::int[])
  order by "p"."id";

-- trimSubscriptions
delete
  from "push_subscription"
  where "user_id" = $1 and "id" not in (select "kept"."id"
    from "push_subscription" as "kept"
    where "kept"."user_id" = $2
    order by "kept"."updated_at" desc, "kept"."id" desc
    limit $3);

-- upsertSubscription
insert into "push_subscription" ("user_id", "endpoint", "p256dh", "auth", "created_at", "updated_at")
  values ($1, $2, $3, $4, $5, $6)
  on conflict ("endpoint") do update
  set "user_id" = "excluded"."user_id", "p256dh" = "excluded"."p256dh", "auth" = "excluded"."auth", "updated_at" = "excluded"."updated_at";
