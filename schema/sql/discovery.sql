-- The SQL of src/modules/discovery/discovery.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- discoverableCriteria (prepared)
select (select "company_c"."active" and not "company_c"."hidden_wall" as "discoverable"
    from "company" as "company_c"
    where "company_c"."company_id" = $1::int) as "discoverable", (select coalesce(json_agg(json_build_object('criterionId', "c"."criterion_id", 'countries', "c"."countries", 'professions', "c"."professions", 'specialties', "c"."specialties", 'identifiers', "c"."identifiers") order by "c"."criterion_id"), '[]') as "v"
    from "discovery_criterion" as "c"
    where "c"."company_id" = $2::int) as "criteria", (select coalesce(json_agg(json_build_object('identifierId', "d"."identifier_id", 'name', "d"."name", 'description', "d"."description", 'formatDesc', "d"."format_desc", 'formatRegex', "d"."format_regex", 'countryCode', "d"."country_code") order by "d"."identifier_id"), '[]') as "v"
    from "identifier_definition" as "d"
    where "d"."identifier_id" in (select unnest("c"."identifiers") as "id"
      from "discovery_criterion" as "c"
      where "c"."company_id" = $3::int)) as "definitions";

-- matchLevels (prepared)
select "c"."company_id" as "companyId", max(case when (($1::text is not null or "c"."countries" = '{}') and ($2::int is not null or "c"."professions" = '{}') and ($3::int is not null or "c"."specialties" = '{}') and ("c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $4::int)))) then 2 else 1 end) as "level"
  from "discovery_criterion" as "c"
  where discovery.match_keys("c"."countries", "c"."professions", "c"."specialties") && $5::text[] and (nullif($6::text, '') is null or "c"."identifiers" = '{}' or "c"."identifiers" && array((select "ui"."identifier_id" from "user_identifier" as "ui" where "ui"."user_id" = $7::int)) or exists (select 1 as "one" from "identifier_definition" as "d" where "d"."identifier_id" = any("c"."identifiers") and "d"."country_code" = $8::text)) and "c"."company_id" = any($9::int[])
  group by "c"."company_id";
