-- The SQL of src/modules/address/address.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- addressesOfUsers (prepared)
select "a"."uuid" as "uuid", "a"."type_code" as "typeCode", "a"."name" as "name", "a"."street" as "street", "a"."city" as "city", "a"."suburb" as "suburb", "a"."state_code" as "stateCode", "a"."postcode" as "postcode", "a"."country_code" as "countryCode", "a"."email" as "email", "a"."phone" as "phone", "a"."fax" as "fax", "a"."mobile" as "mobile", "a"."department" as "department", "a"."division" as "division", "a"."job_title" as "jobTitle", "a"."created_at" as "createdAt", "a"."updated_at" as "updatedAt", "a"."user_id" as "user"
  from "user_address" as "a"
  where "a"."user_id" = any($1::int[])
  order by "a"."created_at", "a"."uuid";
