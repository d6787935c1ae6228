-- The SQL of src/modules/user/user.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- genderRows (prepared)
select "g"."gender_code" as "genderCode", "g"."gender_name" as "genderName"
  from "gender" as "g"
  order by "g"."gender_name";

-- titleRows (prepared)
select "t"."title_id" as "titleId", "t"."title_name" as "titleName"
  from "title" as "t"
  order by "t"."title_id";
