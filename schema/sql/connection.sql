-- The SQL of src/modules/connection/connection.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- companiesVisibleToUser
select "c".*
  from "company" as "c"
  where "c"."company_id" = any($1::int[]) and (("c"."active" and not "c"."hidden_wall") or exists (select 1 as "one" from "company_connection" as "connection_c" where "connection_c"."company_id" = "c"."company_id" and "connection_c"."user_id" = $2) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "c"."company_id" and "company_r"."user_id" = $3 and "company_r"."role" = 'ADMIN'));

-- connectionsOfUsers
select "c"."id" as "id", "c"."user_id" as "user", "c"."company_id" as "company", "c"."status" as "status", "c"."requested_at" as "requestedAt", "c"."pending_at" as "pendingAt", "c"."accepted_at" as "acceptedAt", "c"."rejected_at" as "rejectedAt", "c"."rejection_reason" as "rejectionReason", "c"."decided_by_user_id" as "decidedBy", "c"."updated_at" as "updatedAt"
  from "company_connection" as "c"
  where "c"."user_id" = any($1::int[]) and ($2::text is null or "c"."status" = $3)
  order by "c"."user_id", "c"."requested_at" desc, "c"."id" desc;

-- connectionsReadableBy
select "c"."id" as "id", "c"."user_id" as "user", "c"."company_id" as "company", "c"."status" as "status", "c"."requested_at" as "requestedAt", "c"."pending_at" as "pendingAt", "c"."accepted_at" as "acceptedAt", "c"."rejected_at" as "rejectedAt", "c"."rejection_reason" as "rejectionReason", "c"."decided_by_user_id" as "decidedBy", "c"."updated_at" as "updatedAt"
  from "company_connection" as "c"
  where ("c"."user_id" = $1 or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "c"."company_id" and "company_r"."user_id" = $2 and "company_r"."role" = 'ADMIN')) and ("c"."user_id", "c"."company_id") in (select *
    from unnest($3::int[], $4::int[]))
  order by "c"."id";

-- connectionsWithCompanies
select "c"."id" as "id", "c"."user_id" as "user", "c"."company_id" as "company", "c"."status" as "status", "c"."requested_at" as "requestedAt", "c"."pending_at" as "pendingAt", "c"."accepted_at" as "acceptedAt", "c"."rejected_at" as "rejectedAt", "c"."rejection_reason" as "rejectionReason", "c"."decided_by_user_id" as "decidedBy", "c"."updated_at" as "updatedAt"
  from "company_connection" as "c"
  where "c"."user_id" = $1 and "c"."company_id" = any($2::int[])
  order by "c"."company_id";
