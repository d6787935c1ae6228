-- The SQL of src/modules/reference-data/reference-data.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- assessmentFieldRows (prepared)
select "f"."field_id" as "fieldId", "f"."assessment_id" as "form", "f"."label" as "label", "f"."field_type" as "fieldType", "f"."required" as "required", "f"."options" as "options", "f"."field_order" as "fieldOrder"
  from "assessment_field" as "f"
  where "f"."assessment_id" = any($1::int[])
  order by "f"."field_order", "f"."field_id";

-- assessmentFormByUuid (prepared)
select "a"."assessment_id" as "assessmentId", "a"."assessment_uuid" as "assessmentUuid", "a"."assessment_name" as "assessmentName"
  from "assessment_form" as "a"
  where "a"."assessment_uuid" = $1;

-- assessmentFormRows (prepared)
select "a"."assessment_id" as "assessmentId", "a"."assessment_uuid" as "assessmentUuid", "a"."assessment_name" as "assessmentName"
  from "assessment_form" as "a"
  order by "a"."assessment_id";

-- conditionRows (prepared)
select "c"."condition_id" as "conditionId", "c"."condition_name" as "conditionName"
  from "condition" as "c"
  order by "c"."condition_name", "c"."condition_id";

-- fieldDefinitionRows (prepared)
select "f"."field_id" as "fieldId", "f"."field_code" as "fieldCode", "f"."field_name" as "fieldName", "f"."field_type" as "fieldType", "f"."is_address_field" as "isAddressField"
  from "field_definition" as "f"
  order by "f"."field_id";

-- listVersion (prepared)
select "v"."version" as "version"
  from "reference_data_version" as "v"
  where "v"."name" = $1;

-- professionRows (prepared)
select "p"."profession_id" as "professionId", "p"."profession_name" as "professionName"
  from "profession" as "p"
  order by "p"."profession_name";

-- professionSpecialtyRows (prepared)
select "s"."specialty_id" as "specialtyId", "s"."specialty_name" as "specialtyName", "s"."profession_id" as "professionId"
  from "specialty" as "s"
  where "s"."profession_id" = $1
  order by "s"."specialty_name";

-- specialtyRows (prepared)
select "s"."specialty_id" as "specialtyId", "s"."specialty_name" as "specialtyName", "s"."profession_id" as "professionId"
  from "specialty" as "s"
  order by "s"."specialty_name";
