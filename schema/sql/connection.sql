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

-- recommendedCompanies.packed (prepared)
with "met" as (select "c"."company_id" as "companyId", max(case when (($1::text is not null or "c"."countries" = '{}') and ($2::int is not null or "c"."professions" = '{}') and ($3::int is not null or "c"."specialties" = '{}') and ("c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $4::int)))) then 2 else 1 end) as "level"
    from "discovery_criterion" as "c"
    where discovery.match_keys("c"."countries", "c"."professions", "c"."specialties") && $5::text[] and (nullif($6::text, '') is null or "c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $7::int)) or exists (select 1 as "one" from "identifier_definition" as "d" where "d"."identifier_id" = any("c"."identifiers") and "d"."country_code" = $8::text))
    group by "c"."company_id")
  select count(*)::int as "n", coalesce(sum(num_nulls(("co"."company_desc"), ("co"."company_address"), ("co"."company_city"), ("co"."company_postcode"), ("co"."company_contact_name"), ("co"."company_contact_email"), ("co"."company_website"), ("co"."banner_key"), ("co"."logo_key"), ("co"."company_state_code"), ("co"."company_country_code"), ("co"."caf_url"))), 0)::int as "nulls", string_agg(concat_ws(chr(31), coalesce(("co"."company_name")::text, chr(29)), coalesce(("co"."company_desc")::text, chr(29)), coalesce(("co"."company_address")::text, chr(29)), coalesce(("co"."company_city")::text, chr(29)), coalesce(("co"."company_postcode")::text, chr(29)), coalesce(("co"."company_contact_name")::text, chr(29)), coalesce(("co"."company_contact_email")::text, chr(29)), coalesce(("co"."company_website")::text, chr(29)), coalesce(("co"."company_id")::text, chr(29)), coalesce(("co"."banner_key")::text, chr(29)), coalesce(("co"."logo_key")::text, chr(29)), coalesce(("co"."company_state_code")::text, chr(29)), coalesce(("co"."company_country_code")::text, chr(29)), coalesce(case ("co"."uses_caf") when true then 't' when false then 'f' end, chr(29)), coalesce(("co"."caf_url")::text, chr(29)), coalesce(("met"."level")::text, chr(29)), coalesce(case (coalesce("connection_s"."status" = 'pending' and "met"."level" = 2, false)) when true then 't' when false then 'f' end, chr(29))), chr(31)) as "packed"
  from "met"
  inner join (select "company_c"."company_name", "company_c"."company_desc", "company_c"."company_address", "company_c"."company_city", "company_c"."company_postcode", "company_c"."company_contact_name", "company_c"."company_contact_email", "company_c"."company_website", "company_c"."company_id", "company_c"."banner_key", "company_c"."logo_key", "company_c"."company_state_code", "company_c"."company_country_code", "company_c"."uses_caf", "company_c"."caf_url"
    from "company" as "company_c"
    where ("company_c"."active" and not "company_c"."hidden_wall")) as "co" on "co"."company_id" = "met"."companyId"
  left join lateral (select "connection_c"."status" as "status"
    from "company_connection" as "connection_c"
    where "connection_c"."company_id" = "met"."companyId" and "connection_c"."user_id" = $9::int) as "connection_s" on true
  where "connection_s"."status" is distinct from 'accepted';

-- recommendedCompanies.plain (prepared)
with "met" as (select "c"."company_id" as "companyId", max(case when (($1::text is not null or "c"."countries" = '{}') and ($2::int is not null or "c"."professions" = '{}') and ($3::int is not null or "c"."specialties" = '{}') and ("c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $4::int)))) then 2 else 1 end) as "level"
    from "discovery_criterion" as "c"
    where discovery.match_keys("c"."countries", "c"."professions", "c"."specialties") && $5::text[] and (nullif($6::text, '') is null or "c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $7::int)) or exists (select 1 as "one" from "identifier_definition" as "d" where "d"."identifier_id" = any("c"."identifiers") and "d"."country_code" = $8::text))
    group by "c"."company_id")
  select "co"."company_name" as "companyName", "co"."company_desc" as "companyDesc", "co"."company_address" as "companyAddress", "co"."company_city" as "companyCity", "co"."company_postcode" as "companyPostcode", "co"."company_contact_name" as "companyContactName", "co"."company_contact_email" as "companyContactEmail", "co"."company_website" as "companyWebsite", "co"."company_id" as "companyId", "co"."banner_key" as "bannerKey", "co"."logo_key" as "logoKey", "co"."company_state_code" as "companyStateCode", "co"."company_country_code" as "companyCountryCode", "co"."uses_caf" as "usesCaf", "co"."caf_url" as "cafUrl", "met"."level" as "level", coalesce("connection_s"."status" = 'pending' and "met"."level" = 2, false) as "pending"
  from "met"
  inner join (select "company_c"."company_name", "company_c"."company_desc", "company_c"."company_address", "company_c"."company_city", "company_c"."company_postcode", "company_c"."company_contact_name", "company_c"."company_contact_email", "company_c"."company_website", "company_c"."company_id", "company_c"."banner_key", "company_c"."logo_key", "company_c"."company_state_code", "company_c"."company_country_code", "company_c"."uses_caf", "company_c"."caf_url"
    from "company" as "company_c"
    where ("company_c"."active" and not "company_c"."hidden_wall")) as "co" on "co"."company_id" = "met"."companyId"
  left join lateral (select "connection_c"."status" as "status"
    from "company_connection" as "connection_c"
    where "connection_c"."company_id" = "met"."companyId" and "connection_c"."user_id" = $9::int) as "connection_s" on true
  where "connection_s"."status" is distinct from 'accepted';

-- recommendedCompanies.searchedPacked (prepared)
with "met" as (select "c"."company_id" as "companyId", max(case when (($1::text is not null or "c"."countries" = '{}') and ($2::int is not null or "c"."professions" = '{}') and ($3::int is not null or "c"."specialties" = '{}') and ("c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $4::int)))) then 2 else 1 end) as "level"
    from "discovery_criterion" as "c"
    where discovery.match_keys("c"."countries", "c"."professions", "c"."specialties") && $5::text[] and (nullif($6::text, '') is null or "c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $7::int)) or exists (select 1 as "one" from "identifier_definition" as "d" where "d"."identifier_id" = any("c"."identifiers") and "d"."country_code" = $8::text))
    group by "c"."company_id")
  select count(*)::int as "n", coalesce(sum(num_nulls(("co"."company_desc"), ("co"."company_address"), ("co"."company_city"), ("co"."company_postcode"), ("co"."company_contact_name"), ("co"."company_contact_email"), ("co"."company_website"), ("co"."banner_key"), ("co"."logo_key"), ("co"."company_state_code"), ("co"."company_country_code"), ("co"."caf_url"))), 0)::int as "nulls", string_agg(concat_ws(chr(31), coalesce(("co"."company_name")::text, chr(29)), coalesce(("co"."company_desc")::text, chr(29)), coalesce(("co"."company_address")::text, chr(29)), coalesce(("co"."company_city")::text, chr(29)), coalesce(("co"."company_postcode")::text, chr(29)), coalesce(("co"."company_contact_name")::text, chr(29)), coalesce(("co"."company_contact_email")::text, chr(29)), coalesce(("co"."company_website")::text, chr(29)), coalesce(("co"."company_id")::text, chr(29)), coalesce(("co"."banner_key")::text, chr(29)), coalesce(("co"."logo_key")::text, chr(29)), coalesce(("co"."company_state_code")::text, chr(29)), coalesce(("co"."company_country_code")::text, chr(29)), coalesce(case ("co"."uses_caf") when true then 't' when false then 'f' end, chr(29)), coalesce(("co"."caf_url")::text, chr(29)), coalesce(("met"."level")::text, chr(29)), coalesce(case (coalesce("connection_s"."status" = 'pending' and "met"."level" = 2, false)) when true then 't' when false then 'f' end, chr(29))), chr(31)) as "packed"
  from "met"
  inner join (select "company_c"."company_name", "company_c"."company_desc", "company_c"."company_address", "company_c"."company_city", "company_c"."company_postcode", "company_c"."company_contact_name", "company_c"."company_contact_email", "company_c"."company_website", "company_c"."company_id", "company_c"."banner_key", "company_c"."logo_key", "company_c"."company_state_code", "company_c"."company_country_code", "company_c"."uses_caf", "company_c"."caf_url"
    from "company" as "company_c"
    where ("company_c"."active" and not "company_c"."hidden_wall")) as "co" on "co"."company_id" = "met"."companyId"
  left join lateral (select "connection_c"."status" as "status"
    from "company_connection" as "connection_c"
    where "connection_c"."company_id" = "met"."companyId" and "connection_c"."user_id" = $9::int) as "connection_s" on true
  where "connection_s"."status" is distinct from 'accepted' and not exists (select 1
    from unnest($10::text[]) t(p)
    where not coalesce("co"."company_name" ilike t.p or "co"."company_desc" ilike t.p or "co"."company_city" ilike t.p, false));

-- recommendedCompanies.searchedPlain (prepared)
with "met" as (select "c"."company_id" as "companyId", max(case when (($1::text is not null or "c"."countries" = '{}') and ($2::int is not null or "c"."professions" = '{}') and ($3::int is not null or "c"."specialties" = '{}') and ("c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $4::int)))) then 2 else 1 end) as "level"
    from "discovery_criterion" as "c"
    where discovery.match_keys("c"."countries", "c"."professions", "c"."specialties") && $5::text[] and (nullif($6::text, '') is null or "c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $7::int)) or exists (select 1 as "one" from "identifier_definition" as "d" where "d"."identifier_id" = any("c"."identifiers") and "d"."country_code" = $8::text))
    group by "c"."company_id")
  select "co"."company_name" as "companyName", "co"."company_desc" as "companyDesc", "co"."company_address" as "companyAddress", "co"."company_city" as "companyCity", "co"."company_postcode" as "companyPostcode", "co"."company_contact_name" as "companyContactName", "co"."company_contact_email" as "companyContactEmail", "co"."company_website" as "companyWebsite", "co"."company_id" as "companyId", "co"."banner_key" as "bannerKey", "co"."logo_key" as "logoKey", "co"."company_state_code" as "companyStateCode", "co"."company_country_code" as "companyCountryCode", "co"."uses_caf" as "usesCaf", "co"."caf_url" as "cafUrl", "met"."level" as "level", coalesce("connection_s"."status" = 'pending' and "met"."level" = 2, false) as "pending"
  from "met"
  inner join (select "company_c"."company_name", "company_c"."company_desc", "company_c"."company_address", "company_c"."company_city", "company_c"."company_postcode", "company_c"."company_contact_name", "company_c"."company_contact_email", "company_c"."company_website", "company_c"."company_id", "company_c"."banner_key", "company_c"."logo_key", "company_c"."company_state_code", "company_c"."company_country_code", "company_c"."uses_caf", "company_c"."caf_url"
    from "company" as "company_c"
    where ("company_c"."active" and not "company_c"."hidden_wall")) as "co" on "co"."company_id" = "met"."companyId"
  left join lateral (select "connection_c"."status" as "status"
    from "company_connection" as "connection_c"
    where "connection_c"."company_id" = "met"."companyId" and "connection_c"."user_id" = $9::int) as "connection_s" on true
  where "connection_s"."status" is distinct from 'accepted' and not exists (select 1
    from unnest($10::text[]) t(p)
    where not coalesce("co"."company_name" ilike t.p or "co"."company_desc" ilike t.p or "co"."company_city" ilike t.p, false));
