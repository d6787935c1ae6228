-- The SQL of src/modules/storage/storage.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- chunkAt (prepared)
select "c"."data" as "data"
  from "stored_blob_chunk" as "c"
  where "c"."content_id" = $1 and "c"."seq" = $2;

-- chunksOf (prepared)
select "c"."data" as "data"
  from "stored_blob_chunk" as "c"
  where "c"."content_id" = $1
  order by "c"."seq";

-- deleteOrphanChunks
with "gone" as (delete
    from "stored_blob_chunk"
    where "created_at" < now() - make_interval(secs => $1) and not exists (select "b"."sha256"
      from "stored_blob" as "b"
      where "b"."content_id" = "stored_blob_chunk"."content_id")
    returning "seq")
  select count(*)::int as "deleted"
  from "gone";

-- deleteUnnamedChunks
delete
  from "stored_blob_chunk"
  where "content_id" = any($1::uuid[]) and not exists (select "b"."sha256"
    from "stored_blob" as "b"
    where "b"."content_id" = "stored_blob_chunk"."content_id");

-- insertChunk
insert into "stored_blob_chunk" ("content_id", "seq", "data")
  values ($1, $2, $3);

-- upsertBlob
insert into "stored_blob" ("sha256", "content_id", "bytes", "md5")
  values ($1, $2, $3, $4)
  on conflict ("sha256") do update
  set "last_used_at" = now()
  returning "content_id" as "contentId";
