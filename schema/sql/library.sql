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

-- storeEntry
with "d" as (select $1::jsonb as "j", $2::int as "lib", $3::int as "max"), "room" as (select ((select "kept"."entry_count" from "smart_library" as "kept" where "kept"."smart_lib_id" = "d"."lib")) as "entries", exists (select 1 as "one"
      from "smart_entry" as "c"
      where "c"."smart_lib_id" = "d"."lib" and "c"."name_key" = $4) as "nameTaken"
    from "d"), "entry" as (insert into "smart_entry" ("smart_lib_id", "smart_entry_status", "smart_entry_type", "smart_entry_name", "name_key", "smart_entry_desc", "smart_entry_download_orig", "smart_entry_download_pdf", "notify_user_of_external_url", "smart_entry_url_link", "smart_entry_authors", "smart_entry_created", "smart_entry_modified", "smart_entry_metadata_version", "smart_entry_file_version", "ai_ingestion_failures", "ai_ingestion_error", "created_by")
    with "smart_entry" as (select "v".*
      from d as "d", jsonb_populate_record(null::"smart_entry", d.j->'entry') as "v")
    select "r"."smart_lib_id" as "library", "r"."smart_entry_status" as "smartEntryStatus", "r"."smart_entry_type" as "smartEntryType", "r"."smart_entry_name" as "smartEntryName", "r"."name_key" as "nameKey", "r"."smart_entry_desc" as "smartEntryDesc", "r"."smart_entry_download_orig" as "smartEntryDownloadOrig", "r"."smart_entry_download_pdf" as "smartEntryDownloadPdf", "r"."notify_user_of_external_url" as "notifyUserOfExternalUrl", "r"."smart_entry_url_link" as "smartEntryUrlLink", "r"."smart_entry_authors" as "smartEntryAuthors", "r"."smart_entry_created" as "smartEntryCreated", "r"."smart_entry_modified" as "smartEntryModified", "r"."smart_entry_metadata_version" as "smartEntryMetadataVersion", "r"."smart_entry_file_version" as "smartEntryFileVersion", "r"."ai_ingestion_failures" as "aiIngestionFailures", "r"."ai_ingestion_error" as "aiIngestionError", "r"."created_by" as "createdBy"
    from "smart_entry" as "r", "d", "room"
    where room.entries < d.max and not room."nameTaken"
    returning "smart_entry_id" as "smartEntryId", "smart_lib_id" as "library", "smart_entry_status" as "smartEntryStatus", "smart_entry_type" as "smartEntryType", "smart_entry_name" as "smartEntryName", "name_key" as "nameKey", "smart_entry_desc" as "smartEntryDesc", "smart_entry_download_orig" as "smartEntryDownloadOrig", "smart_entry_download_pdf" as "smartEntryDownloadPdf", "notify_user_of_external_url" as "notifyUserOfExternalUrl", "smart_entry_url_link" as "smartEntryUrlLink", "smart_entry_authors" as "smartEntryAuthors", "smart_entry_created" as "smartEntryCreated", "smart_entry_modified" as "smartEntryModified", "smart_entry_metadata_version" as "smartEntryMetadataVersion", "smart_entry_file_version" as "smartEntryFileVersion", "ai_ingestion_failures" as "aiIngestionFailures", "ai_ingestion_error" as "aiIngestionError", "created_by" as "createdBy"), "touched" as (update "stored_blob"
    set "last_used_at" = now()
    where "sha256" = $5::text
    returning "sha256"), "files" as (insert into "smart_file" ("smart_entry_id", "smart_lib_id", "smart_file_type", "smart_file_name", "smart_file_bytes", "smart_file_md5", "mime_type", "blob_sha256", "dedupe_md5", "smart_file_created", "smart_file_modified")
    with "smart_file" as (select "v".*
      from d as "d", jsonb_array_elements(d.j->'files') as x(j), jsonb_populate_record(null::"smart_file", x.j->'values') as "v"
      where not (x.j->>'placeholder')::boolean or exists (select 1
        from touched))
    select "entry"."smartEntryId" as "entry", "r"."smart_lib_id" as "library", "r"."smart_file_type" as "smartFileType", "r"."smart_file_name" as "smartFileName", "r"."smart_file_bytes" as "smartFileBytes", "r"."smart_file_md5" as "smartFileMd5", "r"."mime_type" as "mimeType", "r"."blob_sha256" as "blob", "r"."dedupe_md5" as "dedupeMd5", "r"."smart_file_created" as "smartFileCreated", "r"."smart_file_modified" as "smartFileModified"
    from "smart_file" as "r", "entry"
    returning "smart_file_id" as "smartFileId", "smart_entry_id" as "entry", "smart_lib_id" as "library", "smart_file_type" as "smartFileType", "smart_file_name" as "smartFileName", "smart_file_bytes" as "smartFileBytes", "smart_file_md5" as "smartFileMd5", "mime_type" as "mimeType", "blob_sha256" as "blob", "dedupe_md5" as "dedupeMd5", "smart_file_created" as "smartFileCreated", "smart_file_modified" as "smartFileModified"), "urls" as (insert into "smart_entry_url" ("smart_entry_id", "smart_entry_url_name", "smart_entry_url_value", "position")
    with "smart_entry_url" as (select "v".*
      from d as "d", jsonb_populate_recordset(null::"smart_entry_url", d.j->'urls') as "v")
    select "entry"."smartEntryId" as "entry", "r"."smart_entry_url_name" as "smartEntryUrlName", "r"."smart_entry_url_value" as "smartEntryUrlValue", "r"."position" as "position"
    from "smart_entry_url" as "r", "entry"
    returning "smart_entry_url_id" as "smartEntryUrlId", "smart_entry_id" as "entry", "smart_entry_url_name" as "smartEntryUrlName", "smart_entry_url_value" as "smartEntryUrlValue", "position" as "position"), "tags" as (insert into "smart_tag" ("smart_lib_id", "name_key", "smart_tag_name")
    select "d"."lib" as "lib", "r"."key" as "key", "r"."name" as "name"
    from "d", jsonb_to_recordset(d.j->'tags') as r(key text, name text, position int)
    on conflict ("smart_lib_id", "name_key") do update
    set "name_key" = "excluded"."name_key"
    returning "smart_tag_id" as "smartTagId", "smart_lib_id" as "library", "smart_tag_name" as "smartTagName", "name_key" as "nameKey"), "tags_chosen" as (select "tags"."smartTagId", "tags"."library", "tags"."smartTagName", "tags"."nameKey", "r"."position" as "position"
    from "d", jsonb_to_recordset(d.j->'tags') as r(key text, name text, position int), "tags"
    where "tags"."nameKey" = r.key), "folders_chosen" as (select "t"."smart_folder_id" as "smartFolderId", "t"."smart_lib_id" as "library", "t"."smart_folder_name" as "smartFolderName", "t"."name_key" as "nameKey", (row_number() over (order by min(r.position)) - 1)::int as "position"
    from "d", jsonb_to_recordset(d.j->'folders') as r(id int, key text, position int), "smart_folder" as "t"
    where "t"."smart_lib_id" = d.lib and ("t"."smart_folder_id" = r.id or "t"."name_key" = r.key)
    group by "t"."smart_folder_id"), "filters_chosen" as (select "t"."smart_filter_id" as "smartFilterId", "t"."smart_lib_id" as "library", "t"."smart_filter_name" as "smartFilterName", "t"."name_key" as "nameKey", (row_number() over (order by min(r.position)) - 1)::int as "position"
    from "d", jsonb_to_recordset(d.j->'filters') as r(id int, key text, position int), "smart_filter" as "t"
    where "t"."smart_lib_id" = d.lib and ("t"."smart_filter_id" = r.id or "t"."name_key" = r.key)
    group by "t"."smart_filter_id"), "categories_chosen" as (select "t"."smart_category_id" as "smartCategoryId", "t"."smart_lib_id" as "library", "t"."smart_category_name" as "smartCategoryName", "t"."name_key" as "nameKey", (row_number() over (order by min(r.position)) - 1)::int as "position"
    from "d", jsonb_to_recordset(d.j->'categories') as r(id int, key text, position int), "smart_category" as "t"
    where "t"."smart_lib_id" = d.lib and ("t"."smart_category_id" = r.id or "t"."name_key" = r.key)
    group by "t"."smart_category_id"), "tag_links" as (insert into "smart_entry_tag" ("smart_entry_id", "smart_tag_id", "position")
    select "entry"."smartEntryId" as "entry", "x"."smartTagId" as "tag", "x"."position" as "position"
    from "entry", "tags_chosen" as "x"
    returning 1 as "one"), "folder_links" as (insert into "smart_entry_folder" ("smart_entry_id", "smart_folder_id", "position")
    select "entry"."smartEntryId" as "entry", "x"."smartFolderId" as "folder", "x"."position" as "position"
    from "entry", "folders_chosen" as "x"
    returning 1 as "one"), "filter_links" as (insert into "smart_entry_filter" ("smart_entry_id", "smart_filter_id", "position")
    select "entry"."smartEntryId" as "entry", "x"."smartFilterId" as "filter", "x"."position" as "position"
    from "entry", "filters_chosen" as "x"
    returning 1 as "one"), "category_links" as (insert into "smart_entry_category" ("smart_entry_id", "smart_category_id", "position")
    select "entry"."smartEntryId" as "entry", "x"."smartCategoryId" as "category", "x"."position" as "position"
    from "entry", "categories_chosen" as "x"
    returning 1 as "one"), "used" as (delete
    from "smart_upload"
    where "id" = any($6::int[])
    returning 1 as "one")
  select "room"."entries", "room"."nameTaken", (select json_build_object('smartEntryId', "x"."smartEntryId", 'library', "x"."library", 'smartEntryStatus', "x"."smartEntryStatus", 'smartEntryType', "x"."smartEntryType", 'smartEntryName', "x"."smartEntryName", 'nameKey', "x"."nameKey", 'smartEntryDesc', "x"."smartEntryDesc", 'smartEntryDownloadOrig', "x"."smartEntryDownloadOrig", 'smartEntryDownloadPdf', "x"."smartEntryDownloadPdf", 'notifyUserOfExternalUrl', "x"."notifyUserOfExternalUrl", 'smartEntryUrlLink', "x"."smartEntryUrlLink", 'smartEntryAuthors', "x"."smartEntryAuthors", 'smartEntryCreated', floor(extract(epoch from "x"."smartEntryCreated") * 1000)::float8, 'smartEntryModified', floor(extract(epoch from "x"."smartEntryModified") * 1000)::float8, 'smartEntryMetadataVersion', "x"."smartEntryMetadataVersion", 'smartEntryFileVersion', "x"."smartEntryFileVersion", 'aiIngestionFailures', "x"."aiIngestionFailures", 'aiIngestionError', "x"."aiIngestionError", 'createdBy', "x"."createdBy") as "v"
    from "entry" as "x") as "entry", (select coalesce(json_agg(json_build_object('smartFileId', "f"."smartFileId", 'entry', "f"."entry", 'library', "f"."library", 'smartFileType', "f"."smartFileType", 'smartFileName', "f"."smartFileName", 'smartFileBytes', "f"."smartFileBytes", 'smartFileMd5', "f"."smartFileMd5", 'mimeType', "f"."mimeType", 'blob', "f"."blob", 'dedupeMd5', "f"."dedupeMd5", 'smartFileCreated', floor(extract(epoch from "f"."smartFileCreated") * 1000)::float8, 'smartFileModified', floor(extract(epoch from "f"."smartFileModified") * 1000)::float8) order by "f"."smartFileType", "f"."smartFileId"), '[]'::json) as "v"
    from "files" as "f") as "files", (select coalesce(json_agg(json_build_object('smartEntryUrlId', "u"."smartEntryUrlId", 'entry', "u"."entry", 'smartEntryUrlName', "u"."smartEntryUrlName", 'smartEntryUrlValue', "u"."smartEntryUrlValue", 'position', "u"."position") order by "u"."position"), '[]'::json) as "v"
    from "urls" as "u") as "urls", (select coalesce(json_agg(json_build_object('smartTagId', "x"."smartTagId", 'library', "x"."library", 'smartTagName', "x"."smartTagName", 'nameKey', "x"."nameKey") order by "x"."position"), '[]'::json) as "v"
    from "tags_chosen" as "x") as "tags", (select coalesce(json_agg(json_build_object('smartFolderId', "x"."smartFolderId", 'library', "x"."library", 'smartFolderName', "x"."smartFolderName", 'nameKey', "x"."nameKey") order by "x"."position"), '[]'::json) as "v"
    from "folders_chosen" as "x") as "folders", (select coalesce(json_agg(json_build_object('smartFilterId', "x"."smartFilterId", 'library', "x"."library", 'smartFilterName', "x"."smartFilterName", 'nameKey', "x"."nameKey") order by "x"."position"), '[]'::json) as "v"
    from "filters_chosen" as "x") as "filters", (select coalesce(json_agg(json_build_object('smartCategoryId', "x"."smartCategoryId", 'library', "x"."library", 'smartCategoryName', "x"."smartCategoryName", 'nameKey', "x"."nameKey") order by "x"."position"), '[]'::json) as "v"
    from "categories_chosen" as "x") as "categories"
  from "room";

-- userLibraries
select u.id as "_user", "l"."smart_lib_id" as "smartLibId", "l"."company_id" as "company", "l"."team_id" as "team", "l"."smart_lib_name" as "smartLibName", "l"."max_entries" as "maxEntries", "l"."smart_lib_created" as "smartLibCreated", "l"."entry_count" as "entryCount"
  from unnest($1::int[]) as u(id), "smart_library" as "l"
  where (exists (select 1 as "one" from "smart_library_publisher" as "pub" where "pub"."smart_lib_id" = "l"."smart_lib_id" and "pub"."user_id" = u.id) or exists (select 1 as "one" from "company_role" as "company_r" where "company_r"."company_id" = "l"."company_id" and "company_r"."user_id" = u.id and "company_r"."role" = 'ADMIN') or exists (select 1 as "one" from "team_member" as "team_m" where "team_m"."team_id" = "l"."team_id" and "team_m"."user_id" = u.id) or ("l"."team_id" is null and exists (select 1 as "one" from "company_connection" as "connection_c" where "connection_c"."company_id" = "l"."company_id" and "connection_c"."user_id" = u.id and "connection_c"."status" = 'accepted')))
  order by u.id, "l"."smart_lib_name", "l"."smart_lib_id";
