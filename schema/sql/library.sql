-- The SQL of src/modules/library/library.queries.ts, written by `npm run sql`; a test fails when it is stale.

-- companyLibraries
select "l"."smart_lib_id" as "smartLibId", "l"."company_id" as "company", "l"."team_id" as "team", "l"."smart_lib_name" as "smartLibName", "l"."max_entries" as "maxEntries", "l"."smart_lib_created" as "smartLibCreated", "l"."entry_count" as "entryCount"
  from "smart_library" as "l"
  where "l"."company_id" = any($1::int[]) and (exists (select 1 as "one" from "smart_library_publisher" as "pub" where "pub"."smart_lib_id" = "l"."smart_lib_id" and "pub"."user_id" = $2::int) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "l"."company_id" and "company_r"."user_id" = $3::int and "company_r"."role" = 'ADMIN') or exists (select 1 as "one" from "team_member" as "team_m" where "team_m"."team_id" = "l"."team_id" and "team_m"."user_id" = $4::int) or ("l"."team_id" is null and exists (select 1 as "one" from "company_connection" as "connection_c" where "connection_c"."company_id" = "l"."company_id" and "connection_c"."user_id" = $5::int and "connection_c"."status" = 'accepted')))
  order by "l"."company_id", "l"."smart_lib_name", "l"."smart_lib_id";

-- entriesById
select "e"."smart_entry_id" as "smartEntryId", "e"."smart_lib_id" as "library", "e"."smart_entry_status" as "smartEntryStatus", "e"."smart_entry_type" as "smartEntryType", "e"."smart_entry_name" as "smartEntryName", "e"."name_key" as "nameKey", "e"."smart_entry_desc" as "smartEntryDesc", "e"."smart_entry_download_orig" as "smartEntryDownloadOrig", "e"."smart_entry_download_pdf" as "smartEntryDownloadPdf", "e"."notify_user_of_external_url" as "notifyUserOfExternalUrl", "e"."smart_entry_url_link" as "smartEntryUrlLink", "e"."smart_entry_authors" as "smartEntryAuthors", "e"."smart_entry_created" as "smartEntryCreated", "e"."smart_entry_modified" as "smartEntryModified", "e"."smart_entry_metadata_version" as "smartEntryMetadataVersion", "e"."smart_entry_file_version" as "smartEntryFileVersion", "e"."ai_ingestion_failures" as "aiIngestionFailures", "e"."ai_ingestion_error" as "aiIngestionError", "e"."created_by" as "createdBy"
  from "smart_entry" as "e"
  where "e"."smart_entry_id" = any($1::int[]);

-- entryContents
select k.id as "_entry", (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = k.id) as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = k.id) as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = k.id) as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = k.id) as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = k.id) as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = k.id) as "categories"
  from unnest($1::int[]) as k(id);

-- entryWindowAll, first page (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select ((select "kept"."entry_count" from "smart_library" as "kept" where "kept"."smart_lib_id" = "p"."g")) as "n"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g") as "b"
      where true
      order by "b"."_at" desc, "b"."_id" desc
      limit $2) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowAll, first after a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select ((select "kept"."entry_count" from "smart_library" as "kept" where "kept"."smart_lib_id" = "p"."g")) as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g") as "b"
          order by "b"."_at" desc, "b"."_id" desc
          limit 1) as "b"
        where ("b"."_at" > (timestamptz 'epoch' + $2::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $3::bigint * interval '1 microsecond') and "b"."_id" >= $4::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g") as "b"
      where "b"."_at" <= (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and (("b"."_at" < (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."_id" < $8::bigint))
      order by "b"."_at" desc, "b"."_id" desc
      limit $9) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowAll, last before a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select ((select "kept"."entry_count" from "smart_library" as "kept" where "kept"."smart_lib_id" = "p"."g")) as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g") as "b"
          order by "b"."_at" asc, "b"."_id" asc
          limit 1) as "b"
        where ("b"."_at" < (timestamptz 'epoch' + $2::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $3::bigint * interval '1 microsecond') and "b"."_id" <= $4::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g") as "b"
      where "b"."_at" >= (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and (("b"."_at" > (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."_id" > $8::bigint))
      order by "b"."_at" asc, "b"."_id" asc
      limit $9) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowInFolder, first page (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_folder" as "f"
            where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $2)) as "c") as "n"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_folder" as "f"
          where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $3)) as "b"
      where true
      order by "b"."_at" desc, "b"."_id" desc
      limit $4) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowInFolder, first after a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_folder" as "f"
            where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $2)) as "c") as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
              from "smart_entry_folder" as "f"
              where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $3)) as "b"
          order by "b"."_at" desc, "b"."_id" desc
          limit 1) as "b"
        where ("b"."_at" > (timestamptz 'epoch' + $4::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and "b"."_id" >= $6::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_folder" as "f"
          where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $7)) as "b"
      where "b"."_at" <= (timestamptz 'epoch' + $8::bigint * interval '1 microsecond') and (("b"."_at" < (timestamptz 'epoch' + $9::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $10::bigint * interval '1 microsecond') and "b"."_id" < $11::bigint))
      order by "b"."_at" desc, "b"."_id" desc
      limit $12) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowInFolder, last before a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_folder" as "f"
            where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $2)) as "c") as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
              from "smart_entry_folder" as "f"
              where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $3)) as "b"
          order by "b"."_at" asc, "b"."_id" asc
          limit 1) as "b"
        where ("b"."_at" < (timestamptz 'epoch' + $4::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and "b"."_id" <= $6::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_folder" as "f"
          where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $7)) as "b"
      where "b"."_at" >= (timestamptz 'epoch' + $8::bigint * interval '1 microsecond') and (("b"."_at" > (timestamptz 'epoch' + $9::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $10::bigint * interval '1 microsecond') and "b"."_id" > $11::bigint))
      order by "b"."_at" asc, "b"."_id" asc
      limit $12) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowInFolderWithTag, first page (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_folder" as "f"
            where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $2) and exists (select 1 as "one"
            from "smart_entry_tag" as "x"
            inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
            where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $3)) as "c") as "n"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_folder" as "f"
          where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $4) and exists (select 1 as "one"
          from "smart_entry_tag" as "x"
          inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
          where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $5)) as "b"
      where true
      order by "b"."_at" desc, "b"."_id" desc
      limit $6) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowInFolderWithTag, first after a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_folder" as "f"
            where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $2) and exists (select 1 as "one"
            from "smart_entry_tag" as "x"
            inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
            where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $3)) as "c") as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
              from "smart_entry_folder" as "f"
              where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $4) and exists (select 1 as "one"
              from "smart_entry_tag" as "x"
              inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
              where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $5)) as "b"
          order by "b"."_at" desc, "b"."_id" desc
          limit 1) as "b"
        where ("b"."_at" > (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."_id" >= $8::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_folder" as "f"
          where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $9) and exists (select 1 as "one"
          from "smart_entry_tag" as "x"
          inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
          where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $10)) as "b"
      where "b"."_at" <= (timestamptz 'epoch' + $11::bigint * interval '1 microsecond') and (("b"."_at" < (timestamptz 'epoch' + $12::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $13::bigint * interval '1 microsecond') and "b"."_id" < $14::bigint))
      order by "b"."_at" desc, "b"."_id" desc
      limit $15) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowInFolderWithTag, last before a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_folder" as "f"
            where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $2) and exists (select 1 as "one"
            from "smart_entry_tag" as "x"
            inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
            where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $3)) as "c") as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
              from "smart_entry_folder" as "f"
              where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $4) and exists (select 1 as "one"
              from "smart_entry_tag" as "x"
              inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
              where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $5)) as "b"
          order by "b"."_at" asc, "b"."_id" asc
          limit 1) as "b"
        where ("b"."_at" < (timestamptz 'epoch' + $6::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $7::bigint * interval '1 microsecond') and "b"."_id" <= $8::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_folder" as "f"
          where "f"."smart_entry_id" = "e"."smart_entry_id" and "f"."smart_folder_id" = $9) and exists (select 1 as "one"
          from "smart_entry_tag" as "x"
          inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
          where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $10)) as "b"
      where "b"."_at" >= (timestamptz 'epoch' + $11::bigint * interval '1 microsecond') and (("b"."_at" > (timestamptz 'epoch' + $12::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $13::bigint * interval '1 microsecond') and "b"."_id" > $14::bigint))
      order by "b"."_at" asc, "b"."_id" asc
      limit $15) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowWithTag, first page (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_tag" as "x"
            inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
            where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $2)) as "c") as "n"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_tag" as "x"
          inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
          where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $3)) as "b"
      where true
      order by "b"."_at" desc, "b"."_id" desc
      limit $4) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowWithTag, first after a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_tag" as "x"
            inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
            where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $2)) as "c") as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
              from "smart_entry_tag" as "x"
              inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
              where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $3)) as "b"
          order by "b"."_at" desc, "b"."_id" desc
          limit 1) as "b"
        where ("b"."_at" > (timestamptz 'epoch' + $4::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and "b"."_id" >= $6::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_tag" as "x"
          inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
          where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $7)) as "b"
      where "b"."_at" <= (timestamptz 'epoch' + $8::bigint * interval '1 microsecond') and (("b"."_at" < (timestamptz 'epoch' + $9::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $10::bigint * interval '1 microsecond') and "b"."_id" < $11::bigint))
      order by "b"."_at" desc, "b"."_id" desc
      limit $12) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- entryWindowWithTag, last before a cursor (prepared)
select "w".*, (select coalesce(json_agg(json_build_object('smartFileId', "f"."smart_file_id", 'entry', "f"."smart_entry_id", 'library', "f"."smart_lib_id", 'smartFileType', "f"."smart_file_type", 'smartFileName', "f"."smart_file_name", 'smartFileBytes', "f"."smart_file_bytes", 'smartFileMd5', "f"."smart_file_md5", 'mimeType', "f"."mime_type", 'blob', "f"."blob_sha256", 'dedupeMd5', "f"."dedupe_md5", 'smartFileCreated', floor(extract(epoch from "f"."smart_file_created") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smart_file_modified") * 1000)::float8) order by "f"."smart_file_type", "f"."smart_file_id"), '[]'::json) as "v"
    from "smart_file" as "f"
    where "f"."smart_entry_id" = "w"."_id") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smart_entry_url_id", 'entry', "u"."smart_entry_id", 'smartEntryUrlName', "u"."smart_entry_url_name", 'smartEntryUrlValue', "u"."smart_entry_url_value", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "smart_entry_url" as "u"
    where "u"."smart_entry_id" = "w"."_id") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "t"."smart_tag_id", 'library', "t"."smart_lib_id", 'smartTagName', "t"."smart_tag_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_tag" as "x"
    inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
    where "x"."smart_entry_id" = "w"."_id") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "t"."smart_folder_id", 'library', "t"."smart_lib_id", 'smartFolderName', "t"."smart_folder_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_folder" as "x"
    inner join "smart_folder" as "t" on "t"."smart_folder_id" = "x"."smart_folder_id"
    where "x"."smart_entry_id" = "w"."_id") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "t"."smart_filter_id", 'library', "t"."smart_lib_id", 'smartFilterName', "t"."smart_filter_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_filter" as "x"
    inner join "smart_filter" as "t" on "t"."smart_filter_id" = "x"."smart_filter_id"
    where "x"."smart_entry_id" = "w"."_id") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "t"."smart_category_id", 'library', "t"."smart_lib_id", 'smartCategoryName', "t"."smart_category_name", 'nameKey', "t"."name_key") order by "x"."position"), '[]'::json) as "v"
    from "smart_entry_category" as "x"
    inner join "smart_category" as "t" on "t"."smart_category_id" = "x"."smart_category_id"
    where "x"."smart_entry_id" = "w"."_id") as "categories"
  from (select "x".*, "p"."g" as "_parent", "t"."n" as "_total", ("x"."_id" is not null) as "_page", "t"."e" as "_beyond"
    from unnest($1::int[]) with ordinality as p(g, o)
    cross join lateral (select (select count(*)::int as "n"
        from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
          from "smart_entry" as "e"
          where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
            from "smart_entry_tag" as "x"
            inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
            where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $2)) as "c") as "n", exists (select 1 as "one"
        from (select "b"."_at" as "_at", "b"."_id" as "_id"
          from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
            from "smart_entry" as "e"
            where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
              from "smart_entry_tag" as "x"
              inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
              where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $3)) as "b"
          order by "b"."_at" asc, "b"."_id" asc
          limit 1) as "b"
        where ("b"."_at" < (timestamptz 'epoch' + $4::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $5::bigint * interval '1 microsecond') and "b"."_id" <= $6::bigint)) as "e"
      offset 0) as "t"
    left join lateral (select "b".*
      from (select json_build_object('smartEntryId', "e"."smart_entry_id", 'library', "e"."smart_lib_id", 'smartEntryStatus', "e"."smart_entry_status", 'smartEntryType', "e"."smart_entry_type", 'smartEntryName', "e"."smart_entry_name", 'nameKey', "e"."name_key", 'smartEntryDesc', "e"."smart_entry_desc", 'smartEntryDownloadOrig', "e"."smart_entry_download_orig", 'smartEntryDownloadPdf', "e"."smart_entry_download_pdf", 'notifyUserOfExternalUrl', "e"."notify_user_of_external_url", 'smartEntryUrlLink', "e"."smart_entry_url_link", 'smartEntryAuthors', "e"."smart_entry_authors", 'smartEntryCreated', floor(extract(epoch from "e"."smart_entry_created") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "e"."smart_entry_modified") * 1000)::float8, 'smartEntryMetadataVersion', "e"."smart_entry_metadata_version", 'smartEntryFileVersion', "e"."smart_entry_file_version", 'aiIngestionFailures', "e"."ai_ingestion_failures", 'aiIngestionError', "e"."ai_ingestion_error", 'createdBy', "e"."created_by") as "entry", "e"."smart_entry_id" as "_id", "e"."smart_entry_created" as "_at", (extract(epoch from "e"."smart_entry_created") * 1000000)::bigint as "_us"
        from "smart_entry" as "e"
        where "e"."smart_lib_id" = "p"."g" and exists (select 1 as "one"
          from "smart_entry_tag" as "x"
          inner join "smart_tag" as "t" on "t"."smart_tag_id" = "x"."smart_tag_id"
          where "x"."smart_entry_id" = "e"."smart_entry_id" and "t"."name_key" = $7)) as "b"
      where "b"."_at" >= (timestamptz 'epoch' + $8::bigint * interval '1 microsecond') and (("b"."_at" > (timestamptz 'epoch' + $9::bigint * interval '1 microsecond')) or ("b"."_at" = (timestamptz 'epoch' + $10::bigint * interval '1 microsecond') and "b"."_id" > $11::bigint))
      order by "b"."_at" asc, "b"."_id" asc
      limit $12) as "x" on true
    order by "p"."o", "x"."_at" desc, "x"."_id" desc) as "w"
  order by "w"."_parent", "w"."_page", "w"."_at" desc, "w"."_id" desc;

-- filesWithEntry
select "f"."smart_file_id" as "smartFileId", "f"."smart_entry_id" as "entry", "f"."smart_lib_id" as "library", "f"."smart_file_type" as "smartFileType", "f"."smart_file_name" as "smartFileName", "f"."smart_file_bytes" as "smartFileBytes", "f"."smart_file_md5" as "smartFileMd5", "f"."mime_type" as "mimeType", "f"."blob_sha256" as "blob", "f"."dedupe_md5" as "dedupeMd5", "f"."smart_file_created" as "smartFileCreated", "f"."smart_file_modified" as "smartFileModified", "e"."smart_entry_download_orig" as "smartEntryDownloadOrig"
  from "smart_file" as "f"
  inner join "smart_entry" as "e" on "e"."smart_entry_id" = "f"."smart_entry_id"
  where "f"."smart_file_id" = any($1::int[]);

-- librariesFor
select "l"."smart_lib_id" as "smartLibId", "l"."company_id" as "company", "l"."team_id" as "team", "l"."smart_lib_name" as "smartLibName", "l"."max_entries" as "maxEntries", "l"."smart_lib_created" as "smartLibCreated", "l"."entry_count" as "entryCount", (exists (select 1 as "one" from "smart_library_publisher" as "pub" where "pub"."smart_lib_id" = "l"."smart_lib_id" and "pub"."user_id" = $1::int) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "l"."company_id" and "company_r"."user_id" = $2::int and "company_r"."role" = 'ADMIN') or exists (select 1 as "one" from "team_member" as "team_m" where "team_m"."team_id" = "l"."team_id" and "team_m"."user_id" = $3::int) or ("l"."team_id" is null and exists (select 1 as "one" from "company_connection" as "connection_c" where "connection_c"."company_id" = "l"."company_id" and "connection_c"."user_id" = $4::int and "connection_c"."status" = 'accepted'))) as "readable"
  from "smart_library" as "l"
  where "l"."smart_lib_id" = any($5::int[]);

-- lockLibrary
select "l"."smart_lib_id" as "smartLibId", "l"."company_id" as "company", "l"."team_id" as "team", "l"."smart_lib_name" as "smartLibName", "l"."max_entries" as "maxEntries", "l"."smart_lib_created" as "smartLibCreated", "l"."entry_count" as "entryCount"
  from "smart_library" as "l"
  where "l"."smart_lib_id" = $1 for update;

-- nameTaken
select exists (select 1 as "one"
    from "smart_entry" as "e"
    where "e"."smart_lib_id" = $1 and "e"."name_key" = $2) as "nameTaken";

-- publisherAnywhere
select exists (select 1 as "one"
    from "smart_library_publisher" as "pub"
    where "pub"."user_id" = $1) as "found";

-- publisherOf
select exists (select 1 as "one"
    from "smart_library_publisher" as "pub"
    where "pub"."smart_lib_id" = $1 and "pub"."user_id" = $2) as "found";

-- userLibraries
select u.id as "_user", "l"."smart_lib_id" as "smartLibId", "l"."company_id" as "company", "l"."team_id" as "team", "l"."smart_lib_name" as "smartLibName", "l"."max_entries" as "maxEntries", "l"."smart_lib_created" as "smartLibCreated", "l"."entry_count" as "entryCount"
  from unnest($1::int[]) as u(id), "smart_library" as "l"
  where (exists (select 1 as "one" from "smart_library_publisher" as "pub" where "pub"."smart_lib_id" = "l"."smart_lib_id" and "pub"."user_id" = u.id) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "l"."company_id" and "company_r"."user_id" = u.id and "company_r"."role" = 'ADMIN') or exists (select 1 as "one" from "team_member" as "team_m" where "team_m"."team_id" = "l"."team_id" and "team_m"."user_id" = u.id) or ("l"."team_id" is null and exists (select 1 as "one" from "company_connection" as "connection_c" where "connection_c"."company_id" = "l"."company_id" and "connection_c"."user_id" = u.id and "connection_c"."status" = 'accepted')))
  order by u.id, "l"."smart_lib_name", "l"."smart_lib_id";
