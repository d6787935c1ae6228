-- The SQL of src/modules/idempotency/idempotency.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- holdKey
select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as "held";

-- purgeExpiredAnswers
with "gone" as (delete
    from "idempotency_key"
    where "expires_at" <= $1
    returning "key")
  select count(*)::int as "purged"
  from "gone";

-- storeAnswer
insert into "idempotency_key" ("scope", "key", "fingerprint", "status", "content_type", "body", "created_at", "expires_at")
  values ($1, $2, $3, $4, $5, $6, $7, $8)
  on conflict ("scope", "key") do update
  set "fingerprint" = "excluded"."fingerprint", "status" = "excluded"."status", "content_type" = "excluded"."content_type", "body" = "excluded"."body", "created_at" = "excluded"."created_at", "expires_at" = "excluded"."expires_at";

-- storedAnswer
select "a"."fingerprint" as "fingerprint", "a"."status" as "status", "a"."content_type" as "contentType", "a"."body" as "body"
  from "idempotency_key" as "a"
  where "a"."scope" = $1 and "a"."key" = $2 and "a"."expires_at" > $3;
