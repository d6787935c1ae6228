-- The SQL of src/modules/directory/directory.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- companyConsentRows (prepared)
select "c"."id" as "id", "c"."consent_uuid" as "consentUUID", "c"."consent_type_code" as "consentTypeCode", "c"."event_uuid" as "eventUUID", "c"."name" as "name", "c"."consent_value" as "consentValue", "c"."optional_desc" as "optionalDesc", "c"."consent_required" as "consentRequired", "c"."company_id" as "companyId", "c"."directory_uuid" as "directoryUUID", "a"."given" is true as "consentGiven"
  from "consent_definition" as "c"
  left join "user_consent" as "a" on "a"."consent_id" = "c"."id" and "a"."user_id" = $1
  where "c"."company_id" = $2 and "c"."event_uuid" is null and "c"."consent_type_code" = 'C' and "c"."active" = true
  order by "c"."sort_order", "c"."id";

-- consentRowsByUuid (prepared)
select "c"."id" as "id", "c"."consent_uuid" as "consentUUID", "c"."consent_type_code" as "consentTypeCode", "c"."event_uuid" as "eventUUID", "c"."name" as "name", "c"."consent_value" as "consentValue", "c"."optional_desc" as "optionalDesc", "c"."consent_required" as "consentRequired", "c"."company_id" as "companyId", "c"."directory_uuid" as "directoryUUID", "a"."given" is true as "consentGiven"
  from "consent_definition" as "c"
  left join "user_consent" as "a" on "a"."consent_id" = "c"."id" and "a"."user_id" = $1
  where "c"."consent_uuid" = any($2::uuid[]) and "c"."active" = true;

-- eventConsentRows (prepared)
select "c"."id" as "id", "c"."consent_uuid" as "consentUUID", "c"."consent_type_code" as "consentTypeCode", "c"."event_uuid" as "eventUUID", "c"."name" as "name", "c"."consent_value" as "consentValue", "c"."optional_desc" as "optionalDesc", "c"."consent_required" as "consentRequired", "c"."company_id" as "companyId", "c"."directory_uuid" as "directoryUUID", "a"."given" is true as "consentGiven"
  from "consent_definition" as "c"
  left join "user_consent" as "a" on "a"."consent_id" = "c"."id" and "a"."user_id" = $1
  where "c"."event_uuid" = $2 and "c"."consent_type_code" = 'C' and "c"."active" = true
  order by "c"."sort_order", "c"."id";

-- givenConsentPairs (prepared)
select "a"."user_id" as "userId", "a"."consent_id" as "consentId"
  from "user_consent" as "a"
  where "a"."user_id" = any($1::int[]) and "a"."consent_id" = any($2::int[]) and "a"."given" = true;
