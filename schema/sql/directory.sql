-- The SQL of src/modules/directory/directory.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- addressesOfContacts (prepared)
select "a"."uuid" as "uuid", "a"."type_code" as "typeCode", "a"."name" as "name", "a"."street" as "street", "a"."city" as "city", "a"."suburb" as "suburb", "a"."state_code" as "stateCode", "a"."postcode" as "postcode", "a"."country_code" as "countryCode", "a"."email" as "email", "a"."phone" as "phone", "a"."fax" as "fax", "a"."mobile" as "mobile", "a"."department" as "department", "a"."division" as "division", "a"."job_title" as "jobTitle", "a"."created_at" as "createdAt", "a"."updated_at" as "updatedAt", "a"."contact_id" as "contactRecord", "a"."user_address_uuid" as "userAddress"
  from "contact_address" as "a"
  where "a"."contact_id" = any($1::int[])
  order by "a"."created_at", "a"."uuid";

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

-- contactAddressesByUuid (prepared)
select "a"."uuid" as "uuid", "a"."type_code" as "typeCode", "a"."name" as "name", "a"."street" as "street", "a"."city" as "city", "a"."suburb" as "suburb", "a"."state_code" as "stateCode", "a"."postcode" as "postcode", "a"."country_code" as "countryCode", "a"."email" as "email", "a"."phone" as "phone", "a"."fax" as "fax", "a"."mobile" as "mobile", "a"."department" as "department", "a"."division" as "division", "a"."job_title" as "jobTitle", "a"."created_at" as "createdAt", "a"."updated_at" as "updatedAt", "a"."contact_id" as "contactRecord", "a"."user_address_uuid" as "userAddress"
  from "contact_address" as "a"
  where "a"."uuid" = any($1::uuid[]);

-- directoryChain (prepared)
select exists (select 1 as "one"
    from "company" as "company_c"
    where "company_c"."company_id" = "d"."company_id" and "company_c"."smart_directory_enabled") as "enabled", "d"."active" as "active", (select "team_m"."id"
    from "team_member" as "team_m"
    where "team_m"."team_id" = "d"."team_id" and "team_m"."user_id" = $1
    limit 1) as "memberId", (select "r"."contact_id"
    from "contact_record" as "r"
    where "r"."directory_uuid" = "d"."directory_uuid" and "r"."user_id" = $2
    limit 1) as "contactId", (select count(*)::int as "n"
    from "consent_definition" as "cd"
    where "cd"."directory_uuid" = "d"."directory_uuid" and "cd"."consent_required" and "cd"."active" and not exists (select 1 as "one"
      from "user_consent" as "uc"
      where "uc"."consent_id" = "cd"."id" and "uc"."user_id" = $3 and "uc"."given")) as "missingConsents", exists (select 1 as "one"
    from "smart_directory_field" as "f"
    where "f"."directory_uuid" = "d"."directory_uuid" and exists (select 1 as "one"
      from "field_definition" as "reference_fd"
      where "reference_fd"."field_id" = "f"."field_id" and "reference_fd"."is_address_field" = true)) as "addressFields"
  from "smart_directory" as "d"
  where "d"."directory_uuid" = $4;

-- directoryChains
select "d"."directory_uuid"::text as "directoryUUID", exists (select 1 as "one"
    from "company" as "company_c"
    where "company_c"."company_id" = "d"."company_id" and "company_c"."smart_directory_enabled") as "enabled", "d"."active" as "active", (select "team_m"."id"
    from "team_member" as "team_m"
    where "team_m"."team_id" = "d"."team_id" and "team_m"."user_id" = $1
    limit 1) as "memberId", coalesce((select "team_m"."is_team_admin" from "team_member" as "team_m" where "team_m"."team_id" = "d"."team_id" and "team_m"."user_id" = $2 limit 1), false) as "teamAdmin", "r"."contact_id" as "contactId", (select count(*)::int as "n"
    from "consent_definition" as "cd"
    where "cd"."directory_uuid" = "d"."directory_uuid" and "cd"."consent_required" and "cd"."active" and not exists (select 1 as "one"
      from "user_consent" as "uc"
      where "uc"."consent_id" = "cd"."id" and "uc"."user_id" = $3 and "uc"."given")) as "missingConsents"
  from "smart_directory" as "d"
  left join "contact_record" as "r" on "r"."directory_uuid" = "d"."directory_uuid" and "r"."user_id" = $4
  where "d"."directory_uuid" = any($5::uuid[]);

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

-- openDirectoriesAtCompanies
select "d"."directory_uuid" as "directoryUUID", "d"."directory_name" as "directoryName", "d"."directory_type" as "directoryType", "d"."directory_order" as "directoryOrder", "d"."sync_up" as "syncUp", "d"."auto_populate_from_profile" as "autoPopulateFromProfile", "d"."active" as "active", "d"."company_id" as "companyId", "d"."team_id" as "teamId", "m"."userId" as "userId", "m"."admin" as "admin"
  from "smart_directory" as "d"
  inner join (select "team_m"."team_id" as "teamId", "team_m"."user_id" as "userId", "team_m"."is_team_admin" as "admin"
    from "team_member" as "team_m") as "m" on "m"."teamId" = "d"."team_id"
  inner join "contact_record" as "r" on "r"."directory_uuid" = "d"."directory_uuid" and "r"."user_id" = "m"."userId"
  where exists (select 1 as "one"
    from "company" as "company_c"
    where "company_c"."company_id" = "d"."company_id" and "company_c"."smart_directory_enabled") and "d"."active" and not exists (select 1 as "one"
    from "consent_definition" as "cd"
    where "cd"."directory_uuid" = "d"."directory_uuid" and "cd"."consent_required" and "cd"."active" and not exists (select 1 as "one"
      from "user_consent" as "uc"
      where "uc"."consent_id" = "cd"."id" and "uc"."user_id" = "m"."userId" and "uc"."given")) and "m"."userId" = $1 and "d"."company_id" = any($2::int[])
  order by "d"."company_id", "d"."directory_name", "d"."directory_uuid";

-- openDirectoriesOfUsers
select "d"."directory_uuid" as "directoryUUID", "d"."directory_name" as "directoryName", "d"."directory_type" as "directoryType", "d"."directory_order" as "directoryOrder", "d"."sync_up" as "syncUp", "d"."auto_populate_from_profile" as "autoPopulateFromProfile", "d"."active" as "active", "d"."company_id" as "companyId", "d"."team_id" as "teamId", "m"."userId" as "userId", "m"."admin" as "admin"
  from "smart_directory" as "d"
  inner join (select "team_m"."team_id" as "teamId", "team_m"."user_id" as "userId", "team_m"."is_team_admin" as "admin"
    from "team_member" as "team_m") as "m" on "m"."teamId" = "d"."team_id"
  inner join "contact_record" as "r" on "r"."directory_uuid" = "d"."directory_uuid" and "r"."user_id" = "m"."userId"
  where exists (select 1 as "one"
    from "company" as "company_c"
    where "company_c"."company_id" = "d"."company_id" and "company_c"."smart_directory_enabled") and "d"."active" and not exists (select 1 as "one"
    from "consent_definition" as "cd"
    where "cd"."directory_uuid" = "d"."directory_uuid" and "cd"."consent_required" and "cd"."active" and not exists (select 1 as "one"
      from "user_consent" as "uc"
      where "uc"."consent_id" = "cd"."id" and "uc"."user_id" = "m"."userId" and "uc"."given")) and "m"."userId" = any($1::int[])
  order by "m"."userId", "d"."directory_name", "d"."directory_uuid";

-- routerDirectories
select "d"."directory_uuid"::text as "directoryUUID"
  from "smart_directory" as "d"
  where "d"."active" and exists (select 1 as "one"
    from "company" as "company_c"
    where "company_c"."company_id" = "d"."company_id" and "company_c"."active" and "company_c"."smart_directory_enabled") and "d"."directory_uuid" = any($1::uuid[]);
