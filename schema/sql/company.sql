-- The SQL of src/modules/company/company.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- discoverableCompanies
select "c".*
  from "company" as "c"
  where "c"."company_id" = any($1::int[]) and ("c"."active" and not "c"."hidden_wall");
