-- The SQL of src/modules/user/user.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- genderRows (prepared)
select "g"."gender_code" as "genderCode", "g"."gender_name" as "genderName"
  from "gender" as "g"
  order by "g"."gender_name";

-- profileWriteExample
with "old" as (select "o"."u_id", "o"."title_id", "o"."specialty_id", "o"."first_name", "o"."profession_id"
    from "app_user" as "o"
    where "o"."u_id" = $1 for update), "verdict" as (select "old"."u_id" as "callerId", exists (select 1 as "one"
      from "title" as "t"
      where "t"."title_id" = $2) as "r0", exists (select 1 as "one"
      from "specialty" as "reference_r"
      where "reference_r"."specialty_id" = $3) as "r1", ("old"."profession_id" is null or (select "reference_s"."profession_id" from "specialty" as "reference_s" where "reference_s"."specialty_id" = $4) = "old"."profession_id") is true as "fits", "old"."title_id" is distinct from $5 as "c0", "old"."specialty_id" is distinct from $6 as "c1", "old"."first_name" is not null as "c2"
    from "old"), "written" as (update "app_user"
    set "title_id" = $7, "specialty_id" = $8, "first_name" = $9, "updated_at" = $10
    from "verdict" as "v"
    where "app_user"."u_id" = "v"."callerId" and "v"."r0" and "v"."r1" and "v"."fits" and ("v"."c0" or "v"."c1" or "v"."c2"))
  select *
  from "verdict";

-- titleRows (prepared)
select "t"."title_id" as "titleId", "t"."title_name" as "titleName"
  from "title" as "t"
  order by "t"."title_id";

-- userRowById (prepared)
select "u"."u_id" as "uId", "u"."email" as "email", "u"."auth_type" as "authType", "u"."password_hash" as "passwordHash", "u"."active" as "active", "u"."synchronised" as "synchronised", "u"."idp_issuer" as "idpIssuer", "u"."idp_subject" as "idpSubject", "u"."title_id" as "titleId", "u"."gender_code" as "genderCode", "u"."first_name" as "firstName", "u"."last_name" as "lastName", "u"."country_code" as "countryCode", "u"."primary_mobile" as "primaryMobile", "u"."interests" as "interests", "u"."dietary_requirements" as "dietaryRequirements", "u"."treatment_notes" as "treatmentNotes", "u"."date_of_birth" as "dateOfBirth", "u"."photo" as "photo", "u"."enable_location" as "enableLocation", "u"."enable_notifications" as "enableNotifications", "u"."allow_all_emails" as "allowAllEmails", "u"."allow_newsletter_email" as "allowNewsletterEmail", "u"."profession_id" as "professionId", "u"."specialty_id" as "specialtyId", "u"."condition_id" as "conditionId", "u"."other_title" as "otherTitle", "u"."other_profession" as "otherProfession", "u"."other_specialty" as "otherSpecialty", "u"."social_network_a_id" as "socialNetworkAId", "u"."social_network_b_id" as "socialNetworkBId", "u"."social_network_c_id" as "socialNetworkCId", "u"."social_network_c_url" as "socialNetworkCUrl", "u"."timezone_id" as "timezoneId", "u"."service_ts_and_cs" as "serviceTsAndCs", "u"."service_tracking_consent" as "serviceTrackingConsent", "u"."cloud_storage_consent" as "cloudStorageConsent", "u"."search_provider_consent" as "searchProviderConsent", "u"."social_network_a_consent" as "socialNetworkAConsent", "u"."creation_date" as "creationDate", "u"."created_at" as "createdAt", "u"."updated_at" as "updatedAt"
  from "app_user" as "u"
  where "u"."u_id" = $1
  limit $2;
