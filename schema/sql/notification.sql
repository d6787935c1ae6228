-- The SQL of src/modules/notification/notification.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- companyRecipients
select "u"."u_id" as "uId", ("u"."enable_notifications" and not exists (select 1 as "one" from "asset_level_preference" as "p" where "p"."user_id" = "u"."u_id" and "p"."brochure_id" = $1 and "p"."code" = 'ALP-NUN')) as "push", ($2 and "u"."email" <> '' and not exists (select 1 as "one" from "asset_level_preference" as "p" where "p"."user_id" = "u"."u_id" and "p"."brochure_id" = $3 and "p"."code" = 'ALP-EUN')) as "mail"
  from (select "user_u"."u_id", "user_u"."email", "user_u"."first_name", "user_u"."last_name", "user_u"."enable_notifications", "user_u"."active"
    from "app_user" as "user_u") as "u"
  where "u"."active" and exists (select 1 as "one"
    from "team_member" as "team_m"
    inner join "team" as "team_t" on "team_t"."team_id" = "team_m"."team_id"
    where "team_m"."user_id" = "u"."u_id" and "team_t"."company_id" = $4)
  order by "u"."u_id";

-- deliveredItems
select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", array_agg("i"."user_id") as "_owners"
  from "notification_inbox" as "i"
  inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
  where "i"."notification_id" = $1 and "i"."user_id" = any($2::int[])
  group by "s"."notification_id", "i"."read_at" is not null, "i"."delivered_at";

-- emailOutcome
select count(*) filter (where "e"."status" = 'SENT')::int as "sent", count(*) filter (where "e"."status" = 'FAILED')::int as "failed", (array_agg("e"."error" order by "e"."user_id") filter (where "e"."error" is not null))[1] as "firstError"
  from "notification_email" as "e"
  where "e"."notification_id" = $1;

-- eventRecipients
select "u"."u_id" as "uId", ("u"."enable_notifications" and not exists (select 1 as "one" from "asset_level_preference" as "p" where "p"."user_id" = "u"."u_id" and "p"."brochure_id" = $1 and "p"."code" = 'ALP-NUN')) as "push", ($2 and "u"."email" <> '' and not exists (select 1 as "one" from "asset_level_preference" as "p" where "p"."user_id" = "u"."u_id" and "p"."brochure_id" = $3 and "p"."code" = 'ALP-EUN')) as "mail"
  from (select "user_u"."u_id", "user_u"."email", "user_u"."first_name", "user_u"."last_name", "user_u"."enable_notifications", "user_u"."active"
    from "app_user" as "user_u") as "u"
  where "u"."active" and exists (select 1 as "one"
    from "event_attendee" as "event_a"
    inner join "event" as "event_e" on "event_e"."e_id" = "event_a"."event_id"
    where "event_a"."user_id" = "u"."u_id" and "event_e"."event_uuid" = $4 and "event_e"."company_id" = $5 and "event_a"."invite_status" <> 'D')
  order by "u"."u_id";

-- inboxItems
select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received"
  from "notification_inbox" as "i"
  inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
  where "i"."user_id" = $1 and "i"."notification_id" = any($2::int[]);

-- inboxPage
select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received"
  from "notification_inbox" as "i"
  inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
  where "i"."user_id" = $1 and (not $2::boolean or "i"."read_at" is null)
  order by "i"."delivered_at" desc, "i"."notification_id" desc
  limit $3
  offset $4;

-- inboxWindow, first page
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."notificationId" is not null) as "_page"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
        from "notification_inbox" as "i"
        inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
        where "i"."user_id" = "p"."g" and (not $2::boolean or "i"."read_at" is null)) as "c") as "n"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
      from "notification_inbox" as "i"
      inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
      where "i"."user_id" = "p"."g" and (not $3::boolean or "i"."read_at" is null)) as "b"
    where true
    order by "b"."_at" desc, "b"."notificationId" desc
    limit $4) as "x" on true
  order by "p"."o", "x"."_at" desc, "x"."notificationId" desc;

-- inboxWindow, first after a cursor
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."notificationId" is not null) as "_page", "t"."e" as "_beyond"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
        from "notification_inbox" as "i"
        inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
        where "i"."user_id" = "p"."g" and (not $2::boolean or "i"."read_at" is null)) as "c") as "n", exists (select 1 as "one"
      from (select "b"."_at" as "_at", "b"."notificationId" as "notificationId"
        from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
          from "notification_inbox" as "i"
          inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
          where "i"."user_id" = "p"."g" and (not $3::boolean or "i"."read_at" is null)) as "b"
        order by "b"."_at" desc, "b"."notificationId" desc
        limit 1) as "b"
      where ("b"."_at" > (timestamptz 'epoch' + $4::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and "b"."notificationId" >= $6::bigint)) as "e"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
      from "notification_inbox" as "i"
      inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
      where "i"."user_id" = "p"."g" and (not $7::boolean or "i"."read_at" is null)) as "b"
    where "b"."_at" <= (timestamptz 'epoch' + $8::bigint * interval '1 microsecond') and (("b"."_at" < (timestamptz 'epoch' + $9::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $10::bigint * interval '1 microsecond') and "b"."notificationId" < $11::bigint))
    order by "b"."_at" desc, "b"."notificationId" desc
    limit $12) as "x" on true
  order by "p"."o", "x"."_at" desc, "x"."notificationId" desc;

-- inboxWindow, last before a cursor
select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."notificationId" is not null) as "_page", "t"."e" as "_beyond"
  from unnest($1::int[]) with ordinality as p(g, o)
  cross join lateral (select (select count(*)::int as "n"
      from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
        from "notification_inbox" as "i"
        inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
        where "i"."user_id" = "p"."g" and (not $2::boolean or "i"."read_at" is null)) as "c") as "n", exists (select 1 as "one"
      from (select "b"."_at" as "_at", "b"."notificationId" as "notificationId"
        from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
          from "notification_inbox" as "i"
          inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
          where "i"."user_id" = "p"."g" and (not $3::boolean or "i"."read_at" is null)) as "b"
        order by "b"."_at" asc, "b"."notificationId" asc
        limit 1) as "b"
      where ("b"."_at" < (timestamptz 'epoch' + $4::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and "b"."notificationId" <= $6::bigint)) as "e"
    offset 0) as "t"
  left join lateral (select "b".*
    from (select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner", "i"."delivered_at" as "_at", (extract(epoch from "i"."delivered_at") * 1000000)::bigint as "_us"
      from "notification_inbox" as "i"
      inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
      where "i"."user_id" = "p"."g" and (not $7::boolean or "i"."read_at" is null)) as "b"
    where "b"."_at" >= (timestamptz 'epoch' + $8::bigint * interval '1 microsecond') and (("b"."_at" > (timestamptz 'epoch' + $9::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $10::bigint * interval '1 microsecond') and "b"."notificationId" > $11::bigint))
    order by "b"."_at" asc, "b"."notificationId" asc
    limit $12) as "x" on true
  order by "p"."o", "x"."_at" desc, "x"."notificationId" desc;

-- insertEmails
insert into "notification_email" ("notification_id", "user_id")
  select $1::integer, u
  from unnest($2::integer[]) as u;

-- insertInboxItems
insert into "notification_inbox" ("notification_id", "user_id", "delivered_at")
  select $1::integer, u, $2::timestamptz
  from unnest($3::integer[]) as u;

-- markAllItemsRead
with "changed" as (update "notification_inbox"
    set "read_at" = $1
    where "user_id" = $2 and "read_at" is null
    returning 1 as "one")
  select count(*)::int as "updated"
  from "changed";

-- markItemsRead
with "found" as (select count(*)::int as "n"
    from "notification_inbox" as "i"
    where "i"."user_id" = $1 and "i"."notification_id" = any($2::int[])), "changed" as (update "notification_inbox"
    set "read_at" = $3
    where "user_id" = $4 and "notification_id" = any($5::int[]) and "read_at" is null and (select "found"."n"
      from "found") = $6
    returning 1 as "one")
  select (select "found"."n"
    from "found") as "found", (select count(*)::int as "n"
    from "changed") as "updated";

-- pendingEmails
select "u"."u_id" as "uId", "u"."email" as "email", "u"."first_name" as "firstName", "u"."last_name" as "lastName"
  from "notification_email" as "e"
  inner join (select "user_u"."u_id", "user_u"."email", "user_u"."first_name", "user_u"."last_name", "user_u"."enable_notifications", "user_u"."active"
    from "app_user" as "user_u") as "u" on "u"."u_id" = "e"."user_id"
  where "e"."notification_id" = $1 and "e"."status" = 'PENDING'
  order by "u"."u_id";

-- scheduledByIds
select "n"."notification_schedule_id" as "notificationScheduleId", "n"."broadcast_type" as "broadcastType", "n"."key_company_id" as "keyCompanyId", "n"."key_event_uuid" as "keyEventUUID", "n"."schedule_timezone_id" as "scheduleTimezoneId", "n"."schedule_local_date_time" as "scheduleLocalDateTime", "n"."status" as "status", "n"."schedule_job_name" as "scheduleJobName", "n"."message" as "message", "n"."url" as "url", "n"."value_ids" as "valueIds", "n"."total_notifications_sent" as "totalNotificationsSent", "n"."notification_log" as "notificationLog", "n"."schedule_created_by" as "scheduleCreatedBy", "n"."schedule_modified_by" as "scheduleModifiedBy", "n"."brochure_id" as "brochureId", "n"."email_template" as "emailTemplate", "n"."email_subject" as "emailSubject", "n"."email_params" as "emailParams", "n"."version" as "version", "n"."company_id" as "companyId", (extract(epoch from "n"."schedule_due_at") * 1000000)::bigint::text as "dueUs", (extract(epoch from "n"."schedule_created") * 1000000)::bigint::text as "createdUs", (extract(epoch from "n"."schedule_modified") * 1000000)::bigint::text as "modifiedUs"
  from "scheduled_notification" as "n"
  where "n"."status" in ('SENT', 'FAILED') and "n"."notification_schedule_id" = any($1::int[]) and exists (select 1 as "one"
    from "company_role" as "company_r"
    where "company_r"."company_id" = "n"."company_id" and "company_r"."user_id" = $2 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')) and ("n"."broadcast_type" <> 'GE' or exists (select 1 as "one" from "event" as "event_e" where "event_e"."event_uuid" = "n"."key_event_uuid" and "event_e"."company_id" = "n"."company_id" and "event_e"."status" <> 'C'));

-- scheduledList
select "n"."notification_schedule_id" as "notificationScheduleId", "n"."broadcast_type" as "broadcastType", "n"."key_company_id" as "keyCompanyId", "n"."key_event_uuid" as "keyEventUUID", "n"."schedule_timezone_id" as "scheduleTimezoneId", "n"."schedule_local_date_time" as "scheduleLocalDateTime", "n"."status" as "status", "n"."schedule_job_name" as "scheduleJobName", "n"."message" as "message", "n"."url" as "url", "n"."value_ids" as "valueIds", "n"."total_notifications_sent" as "totalNotificationsSent", "n"."notification_log" as "notificationLog", "n"."schedule_created_by" as "scheduleCreatedBy", "n"."schedule_modified_by" as "scheduleModifiedBy", "n"."brochure_id" as "brochureId", "n"."email_template" as "emailTemplate", "n"."email_subject" as "emailSubject", "n"."email_params" as "emailParams", "n"."version" as "version", "n"."company_id" as "companyId", (extract(epoch from "n"."schedule_due_at") * 1000000)::bigint::text as "dueUs", (extract(epoch from "n"."schedule_created") * 1000000)::bigint::text as "createdUs", (extract(epoch from "n"."schedule_modified") * 1000000)::bigint::text as "modifiedUs"
  from "scheduled_notification" as "n"
  where "n"."status" in ('SENT', 'FAILED') and "n"."company_id" = $1 and "n"."broadcast_type" = $2 and ($3::int is null or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = $4 and "company_r"."user_id" = $5 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION'))) and ($6::uuid is null or "n"."key_event_uuid" = $7) and ($8::int is null or "n"."notification_schedule_id" = $9) and ($10::int is null or "n"."brochure_id" = $11) and ($12::bigint is null or ("n"."schedule_due_at", "n"."notification_schedule_id") < (timestamptz 'epoch' + $13::bigint * interval '1 microsecond', $14))
  order by "n"."schedule_due_at" desc, "n"."notification_schedule_id" desc
  limit $15
  offset $16;

-- sentByIds
select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."event_uuid" as "eventUUID", "s"."message" as "message", "s"."description" as "description", "s"."url" as "url", "s"."successful" as "successful", "s"."total_notifications_sent" as "totalNotificationsSent", "s"."team_ids" as "teamIds", "s"."notification_created_by" as "notificationCreatedBy", "s"."notification_modified_by" as "notificationModifiedBy", "s"."brochure_id" as "brochureId", "s"."email_template" as "emailTemplate", "s"."email_subject" as "emailSubject", "s"."email_params" as "emailParams", "s"."company_id" as "companyId", "s"."notification_schedule_id" as "notificationScheduleId", (extract(epoch from "s"."notification_created") * 1000000)::bigint::text as "createdUs", (extract(epoch from "s"."notification_modified") * 1000000)::bigint::text as "modifiedUs"
  from "sent_notification" as "s"
  where "s"."notification_id" = any($1::int[]) and exists (select 1 as "one"
    from "company_role" as "company_r"
    where "company_r"."company_id" = "s"."company_id" and "company_r"."user_id" = $2 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION')) and ("s"."type" <> 'GE' or exists (select 1 as "one" from "event" as "event_e" where "event_e"."event_uuid" = "s"."event_uuid" and "event_e"."company_id" = "s"."company_id" and "event_e"."status" <> 'C'));

-- sentList
select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."event_uuid" as "eventUUID", "s"."message" as "message", "s"."description" as "description", "s"."url" as "url", "s"."successful" as "successful", "s"."total_notifications_sent" as "totalNotificationsSent", "s"."team_ids" as "teamIds", "s"."notification_created_by" as "notificationCreatedBy", "s"."notification_modified_by" as "notificationModifiedBy", "s"."brochure_id" as "brochureId", "s"."email_template" as "emailTemplate", "s"."email_subject" as "emailSubject", "s"."email_params" as "emailParams", "s"."company_id" as "companyId", "s"."notification_schedule_id" as "notificationScheduleId", (extract(epoch from "s"."notification_created") * 1000000)::bigint::text as "createdUs", (extract(epoch from "s"."notification_modified") * 1000000)::bigint::text as "modifiedUs"
  from "sent_notification" as "s"
  where "s"."company_id" = $1 and "s"."type" = $2 and ($3::int is null or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = $4 and "company_r"."user_id" = $5 and "company_r"."role" in ('ADMIN', 'PUSH_NOTIFICATION'))) and ($6::uuid is null or "s"."event_uuid" = $7) and ($8::int is null or "s"."notification_schedule_id" = $9) and ($10::int is null or "s"."brochure_id" = $11) and ($12::bigint is null or ("s"."notification_created", "s"."notification_id") < (timestamptz 'epoch' + $13::bigint * interval '1 microsecond', $14))
  order by "s"."notification_created" desc, "s"."notification_id" desc
  limit $15
  offset $16;

-- teamRecipients
select "u"."u_id" as "uId", ("u"."enable_notifications" and not exists (select 1 as "one" from "asset_level_preference" as "p" where "p"."user_id" = "u"."u_id" and "p"."brochure_id" = $1 and "p"."code" = 'ALP-NUN')) as "push", ($2 and "u"."email" <> '' and not exists (select 1 as "one" from "asset_level_preference" as "p" where "p"."user_id" = "u"."u_id" and "p"."brochure_id" = $3 and "p"."code" = 'ALP-EUN')) as "mail"
  from (select "user_u"."u_id", "user_u"."email", "user_u"."first_name", "user_u"."last_name", "user_u"."enable_notifications", "user_u"."active"
    from "app_user" as "user_u") as "u"
  where "u"."active" and exists (select 1 as "one"
    from "team_member" as "team_m"
    inner join "team" as "team_t" on "team_t"."team_id" = "team_m"."team_id"
    where "team_m"."user_id" = "u"."u_id" and "team_t"."company_id" = $4 and "team_t"."team_id" = any($5::int[]))
  order by "u"."u_id";

-- unreadCounts
select "i"."user_id" as "owner", count(*)::int as "n"
  from "notification_inbox" as "i"
  where "i"."user_id" = any($1::int[]) and "i"."read_at" is null
  group by "i"."user_id";
