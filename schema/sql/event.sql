-- The SQL of src/modules/event/event.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- eventsByUuids (prepared)
select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
    from "company" as "company_c"
    where "company_c"."company_id" = "e"."company_id") as "cName"
  from "event" as "e"
  where "e"."event_uuid" = any($1::uuid[]);

-- invitationPairs (prepared)
select "a"."user_id" as "userId", "a"."event_id" as "eventId"
  from "event_attendee" as "a"
  where "a"."user_id" = any($1::int[]) and "a"."event_id" = any($2::int[]);

-- invitationWindow, first page
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."eId" is not null) as "_page"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
          from "company" as "company_c"
          where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
        from "event_attendee" as "a"
        inner join "event" as "e" on "e"."e_id" = "a"."event_id"
        where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($2::int is null or "e"."company_id" = $3)) as "c") as "n"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
        from "company" as "company_c"
        where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
      from "event_attendee" as "a"
      inner join "event" as "e" on "e"."e_id" = "a"."event_id"
      where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($4::int is null or "e"."company_id" = $5)) as "b"
    where true
    order by "b"."_at" asc, "b"."eId" asc
    limit $6) as "x" on true
  order by "p"."o", "x"."_at" asc, "x"."eId" asc;

-- invitationWindow, first after a cursor
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."eId" is not null) as "_page", "t"."e" as "_beyond"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
          from "company" as "company_c"
          where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
        from "event_attendee" as "a"
        inner join "event" as "e" on "e"."e_id" = "a"."event_id"
        where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($2::int is null or "e"."company_id" = $3)) as "c") as "n", exists (select 1 as "one"
      from (select "b"."_at" as "_at", "b"."eId" as "eId"
        from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
            from "company" as "company_c"
            where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
          from "event_attendee" as "a"
          inner join "event" as "e" on "e"."e_id" = "a"."event_id"
          where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($4::int is null or "e"."company_id" = $5)) as "b"
        order by "b"."_at" asc, "b"."eId" asc
        limit 1) as "b"
      where ("b"."_at" < (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."eId" <= $8::bigint)) as "e"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
        from "company" as "company_c"
        where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
      from "event_attendee" as "a"
      inner join "event" as "e" on "e"."e_id" = "a"."event_id"
      where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($9::int is null or "e"."company_id" = $10)) as "b"
    where "b"."_at" >= (timestamptz 'epoch' + $11::bigint * interval '1 microsecond') and (("b"."_at" > (timestamptz 'epoch' + $12::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $13::bigint * interval '1 microsecond') and "b"."eId" > $14::bigint))
    order by "b"."_at" asc, "b"."eId" asc
    limit $15) as "x" on true
  order by "p"."o", "x"."_at" asc, "x"."eId" asc;

-- invitationWindow, last before a cursor
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."eId" is not null) as "_page", "t"."e" as "_beyond"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
          from "company" as "company_c"
          where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
        from "event_attendee" as "a"
        inner join "event" as "e" on "e"."e_id" = "a"."event_id"
        where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($2::int is null or "e"."company_id" = $3)) as "c") as "n", exists (select 1 as "one"
      from (select "b"."_at" as "_at", "b"."eId" as "eId"
        from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
            from "company" as "company_c"
            where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
          from "event_attendee" as "a"
          inner join "event" as "e" on "e"."e_id" = "a"."event_id"
          where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($4::int is null or "e"."company_id" = $5)) as "b"
        order by "b"."_at" desc, "b"."eId" desc
        limit 1) as "b"
      where ("b"."_at" > (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."eId" >= $8::bigint)) as "e"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
        from "company" as "company_c"
        where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us", "a"."user_id" as "_uId"
      from "event_attendee" as "a"
      inner join "event" as "e" on "e"."e_id" = "a"."event_id"
      where "a"."user_id" = "p"."g" and "e"."status" = 'A' and ($9::int is null or "e"."company_id" = $10)) as "b"
    where "b"."_at" <= (timestamptz 'epoch' + $11::bigint * interval '1 microsecond') and (("b"."_at" < (timestamptz 'epoch' + $12::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $13::bigint * interval '1 microsecond') and "b"."eId" < $14::bigint))
    order by "b"."_at" desc, "b"."eId" desc
    limit $15) as "x" on true
  order by "p"."o", "x"."_at" asc, "x"."eId" asc;

-- invitationsByUuid (prepared)
select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
    from "company" as "company_c"
    where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent"
  from "event_attendee" as "a"
  inner join "event" as "e" on "e"."e_id" = "a"."event_id"
  where "a"."user_id" = $1 and "a"."invite_uuid" = any($2::uuid[]) and "e"."status" = 'A';

-- userEventsPage
select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
    from "company" as "company_c"
    where "company_c"."company_id" = "e"."company_id") as "cName", "a"."invite_uuid" as "eventInviteUUID", "a"."attendee_id" as "eAttendeeId", "a"."invite_status" as "eAttendeeInviteStatus", "a"."attending_status" as "eAttendeeAttendingStatus", "a"."invites_sent" as "eAttendeeInvitesSent", "a"."reminders_sent" as "eAttendeeRemindersSent"
  from "event_attendee" as "a"
  inner join "event" as "e" on "e"."e_id" = "a"."event_id"
  where "a"."user_id" = $1 and "e"."company_id" = $2 and "e"."status" = 'A'
  order by "e"."utc_start", "e"."e_id"
  limit $3
  offset $4;

-- visibleEventWindow, first page
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."eId" is not null) as "_page"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
          from "company" as "company_c"
          where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
        from "event" as "e"
        where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $2) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $3 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "c") as "n"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
        from "company" as "company_c"
        where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
      from "event" as "e"
      where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $4) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $5 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "b"
    where true
    order by "b"."_at" asc, "b"."eId" asc
    limit $6) as "x" on true
  order by "p"."o", "x"."_at" asc, "x"."eId" asc;

-- visibleEventWindow, first after a cursor
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."eId" is not null) as "_page", "t"."e" as "_beyond"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
          from "company" as "company_c"
          where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
        from "event" as "e"
        where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $2) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $3 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "c") as "n", exists (select 1 as "one"
      from (select "b"."_at" as "_at", "b"."eId" as "eId"
        from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
            from "company" as "company_c"
            where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
          from "event" as "e"
          where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $4) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $5 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "b"
        order by "b"."_at" asc, "b"."eId" asc
        limit 1) as "b"
      where ("b"."_at" < (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."eId" <= $8::bigint)) as "e"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
        from "company" as "company_c"
        where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
      from "event" as "e"
      where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $9) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $10 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "b"
    where "b"."_at" >= (timestamptz 'epoch' + $11::bigint * interval '1 microsecond') and (("b"."_at" > (timestamptz 'epoch' + $12::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $13::bigint * interval '1 microsecond') and "b"."eId" > $14::bigint))
    order by "b"."_at" asc, "b"."eId" asc
    limit $15) as "x" on true
  order by "p"."o", "x"."_at" asc, "x"."eId" asc;

-- visibleEventWindow, last before a cursor
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."eId" is not null) as "_page", "t"."e" as "_beyond"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
          from "company" as "company_c"
          where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
        from "event" as "e"
        where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $2) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $3 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "c") as "n", exists (select 1 as "one"
      from (select "b"."_at" as "_at", "b"."eId" as "eId"
        from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
            from "company" as "company_c"
            where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
          from "event" as "e"
          where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $4) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $5 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "b"
        order by "b"."_at" desc, "b"."eId" desc
        limit 1) as "b"
      where ("b"."_at" > (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."eId" >= $8::bigint)) as "e"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "e"."event_uuid" as "eventUUID", "e"."e_id" as "eId", "e"."company_id" as "cId", "e"."name" as "eName", "e"."description" as "eDescription", "e"."address" as "eAddress", "e"."street" as "eStreet", "e"."suburb" as "eSuburb", "e"."city" as "eCity", "e"."post_code" as "ePostCode", "e"."country" as "eCountry", "e"."status" as "eStatus", "e"."image_url" as "eImage", "e"."flyer_pdf_url" as "eFlyerPdf", "e"."latitude"::float8 as "eLatitude", "e"."longitude"::float8 as "eLongitude", "e"."timezone_id" as "eTimezoneId", floor(extract(epoch from "e"."utc_start") * 1000)::float8 as "eUTCStartDateTime", floor(extract(epoch from "e"."utc_end") * 1000)::float8 as "eUTCEndDateTime", "e"."use_external_event_provider" as "useExternalEventProvider", "e"."version" as "version", (select "company_c"."company_name"
        from "company" as "company_c"
        where "company_c"."company_id" = "e"."company_id") as "cName", "e"."utc_start" as "_at", (extract(epoch from "e"."utc_start") * 1000000)::bigint as "_us"
      from "event" as "e"
      where "e"."company_id" = "p"."g" and "e"."status" = 'A' and (exists (select 1 as "one" from "event_attendee" as "a" where "a"."event_id" = "e"."e_id" and "a"."user_id" = $9) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "e"."company_id" and "company_r"."user_id" = $10 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')))) as "b"
    where "b"."_at" <= (timestamptz 'epoch' + $11::bigint * interval '1 microsecond') and (("b"."_at" < (timestamptz 'epoch' + $12::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $13::bigint * interval '1 microsecond') and "b"."eId" < $14::bigint))
    order by "b"."_at" desc, "b"."eId" desc
    limit $15) as "x" on true
  order by "p"."o", "x"."_at" asc, "x"."eId" asc;
