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
