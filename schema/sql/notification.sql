-- The SQL of src/modules/notification/notification.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- deliveredItems
select "s"."notification_id" as "notificationId", "s"."type" as "type", "s"."company_id" as "companyId", "s"."event_uuid" as "eventUUID", "s"."brochure_id" as "brochureId", "s"."message" as "message", "s"."url" as "url", "i"."read_at" is not null as "read", floor(extract(epoch from "i"."delivered_at") * 1000)::float8 as "received", "i"."user_id" as "_owner"
  from "notification_inbox" as "i"
  inner join "sent_notification" as "s" on "s"."notification_id" = "i"."notification_id"
  where "i"."notification_id" = $1 and "i"."user_id" = any($2::int[]);

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

-- unreadCounts
select "i"."user_id" as "owner", count(*)::int as "n"
  from "notification_inbox" as "i"
  where "i"."user_id" = any($1::int[]) and "i"."read_at" is null
  group by "i"."user_id";
