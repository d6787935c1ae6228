// The benchmark data set (npm run seed:bench [-- --scale 1|10|100] [--companies N]): migrations
// and the demo tenant first, then bulk rows in set-based SQL. Deterministic: every "random" value
// is a byte of md5 of the row's key, so two runs give the same rows. Ids start far above the demo
// ids and the sequences are moved past them afterwards, so the service keeps inserting normally.
//
// Scale 1 is 10,000 companies, 50,000 users, 10,000 entries in one library, 100,000 sent
// notifications (each in Olivia's inbox and one bench user's), 10,000 scheduled ones and 2,000
// events. Scale 10 multiplies every count by 10; scale 100 multiplies the tables that grow with
// use (sent and scheduled notifications, inbox rows, library entries) by 100 and the rest by 10.
// `--companies N` sets the companies alone (the bench's 100-company database). The database
// records what it holds (table bench_seed): a run on a database seeded at the same size only
// removes the entries earlier bench runs added; one seeded otherwise is refused (drop it first).
import path from 'node:path';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { loadConfig } from '../src/config';
import { createLogger } from '../src/logger';
import { createOrm, migrate } from '../src/db/orm';
import { seedDemoIfEmpty } from '../src/modules/demo-seed';
import { hashPassword } from '../src/modules/identity/passwords';
import { ENTITIES } from '../src/modules';

/** First id of every bench row range: far above demo ids and the 100000 sequence restarts. */
export const BASE = 1_000_000;
export const BENCH = {
  directories: 20,
  libraryId: BASE + 1,
  tags: 50,
  folders: 20,
  password: 'Bench-Passw0rd!',
} as const;

/** The data set's sizes the bench knows. */
export const SCALES = [1, 10, 100] as const;
export type Scale = (typeof SCALES)[number];

/**
 * The shape of the rows a bench row layout changes with: a database seeded at an older one is
 * refused (drop it and seed again).
 */
const LAYOUT = 2;

/** How many rows of each kind a data set holds. */
export interface BenchSize {
  scale: Scale;
  companies: number;
  users: number;
  contacts: number;
  entries: number;
  notifications: number;
  scheduled: number;
  events: number;
}

/** The sizes at `scale`: the tables that grow with use by the scale, the rest by at most 10. */
export function benchSize(scale: Scale, companies?: number): BenchSize {
  const rest = Math.min(scale, 10);
  return {
    scale,
    companies: companies ?? 10_000 * rest,
    users: 50_000 * rest,
    contacts: 5_000 * rest,
    entries: 10_000 * scale,
    notifications: 100_000 * scale,
    scheduled: 10_000 * scale,
    events: 2_000 * rest,
  };
}

/** The bench database of `scale` on a server (`pronet_bench` at scale 1, `pronet_bench_s10`, `pronet_bench_s100`). */
export const benchDatabase = (scale: Scale) => (scale === 1 ? 'pronet_bench' : `pronet_bench_s${scale}`);

/** Byte k (0-15) of md5(key): a deterministic pseudo-random 0..255. */
const b = (key: string, k: number) => `get_byte(decode(md5(${key}), 'hex'), ${k})`;
const pick = (list: string[], byte: string) => `(array[${list.map((v) => `'${v}'`).join(',')}])[1 + ${byte} % ${list.length}]`;

const COUNTRIES = ['AU', 'NZ', 'US', 'GB', 'CA', 'IE', 'SG', 'IN', 'ZA', 'DE', 'FR', 'NL', 'SE', 'NO', 'DK', 'FI', 'JP', 'KR', 'BR', 'MX'];
const WORDS = [
  'Cardiology',
  'Oncology',
  'Pediatrics',
  'Radiology',
  'Dermatology',
  'Neurology',
  'Orthopedics',
  'Urology',
  'Nephrology',
  'Psychiatry',
  'Geriatrics',
  'Pathology',
  'Surgery',
  'Anaesthesia',
  'Endocrinology',
  'Rheumatology',
  'Haematology',
  'Immunology',
  'Obstetrics',
  'Ophthalmology',
];
const CITIES = ['Sydney', 'Melbourne', 'Brisbane', 'Perth', 'Adelaide', 'Hobart', 'Darwin', 'Canberra', 'Auckland', 'Wellington'];
const FIRST = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Riley', 'Jamie', 'Avery', 'Quinn', 'Harper', 'Rowan'];
const LAST = ['Smith', 'Jones', 'Williams', 'Brown', 'Wilson', 'Taylor', 'Nguyen', 'Lee', 'Martin', 'Patel', 'Chen', 'Kelly'];

/** Every bench statement, in dependency order. `hash` is the one argon2id hash all bench users share. */
export function benchStatements(size: BenchSize, hash: string): string[] {
  const C1 = BASE + 1;
  const CN = BASE + size.companies;
  const U1 = BASE + 1;
  const UN = BASE + size.users;
  const dirUuid = (n: string) => `('d0000000-0000-4000-8000-' || lpad((${n})::text, 12, '0'))::uuid`;
  // The bench directories (1..20) and Olivia's two demo directories share the contacts.
  const directoryOf = (i: string) =>
    `case when ${i} % 22 = 20 then 'd0000000-0000-4000-8000-000000001001'::uuid when ${i} % 22 = 21 then 'd0000000-0000-4000-8000-000000001002'::uuid else ${dirUuid(`${BASE} + 1 + ${i} % 22`)} end`;
  const quoted = hash.replace(/'/g, "''");
  return [
    `insert into company (company_id, company_name, company_desc, company_address, company_city, company_postcode, company_state_code, company_country_code,
       company_contact_name, company_contact_email, company_website, banner_key, logo_key, active, hidden_wall, vets_connections, uses_caf, caf_url)
     select n, ${pick(WORDS, b("'cw'||n", 0))} || ' Partners ' || n, 'A benchmark company practising ' || lower(${pick(WORDS, b("'cw'||n", 0))}) || ' and ' || lower(${pick(WORDS, b("'cw'||n", 1))}) || '.',
       n || ' Bench Street', ${pick(CITIES, b("'cc'||n", 0))}, lpad((${b("'cc'||n", 1)} * 37)::text, 4, '0'), 'NSW', ${pick(COUNTRIES, b("'cc'||n", 2))},
       'Bench Contact', 'contact' || n || '@bench.example', 'https://c' || n || '.bench.example', 'companies/' || n || '/banner.png', 'companies/' || n || '/logo.png',
       ${b("'cf'||n", 0)} % 50 <> 0, ${b("'cf'||n", 1)} % 50 = 0, ${b("'cf'||n", 2)} % 2 = 0, ${b("'cf'||n", 3)} % 4 = 0,
       case when ${b("'cf'||n", 3)} % 4 = 0 then 'https://c' || n || '.bench.example/caf' end
     from generate_series(${C1}, ${CN}) n`,
    // 1 to 5 criteria a company. Countries: open 5%, else one of 20; professions: open 20%, else
    // one of 5; specialties: open a third, else one of 6; identifiers: one in ten names one.
    `insert into discovery_criterion (criterion_id, company_id, countries, professions, specialties, identifiers)
     select ${BASE} + (n - ${C1}) * 5 + k, n,
       case when ${b("'dc'||n||'-'||k", 0)} % 20 = 0 then '{}'::text[] else array[${pick(COUNTRIES, b("'dc'||n||'-'||k", 1))}] end,
       case when ${b("'dc'||n||'-'||k", 2)} % 5 = 0 then '{}'::int[] else array[101 + ${b("'dc'||n||'-'||k", 3)} % 5] end,
       case when ${b("'dc'||n||'-'||k", 4)} % 3 = 0 then '{}'::int[] else array[201 + ${b("'dc'||n||'-'||k", 5)} % 6] end,
       case when ${b("'dc'||n||'-'||k", 6)} % 10 = 0 then array[501 + ${b("'dc'||n||'-'||k", 7)} % 3] else '{}'::int[] end
     from generate_series(${C1}, ${CN}) n cross join generate_series(1, 5) k
     where k <= 1 + ${b("'dk'||n", 0)} % 5
     on conflict do nothing`,
    // synchronised: the password grant only signs in users whose profile is synchronised.
    `insert into app_user (u_id, email, auth_type, synchronised, password_hash, title_id, gender_code, first_name, last_name, country_code, primary_mobile, interests,
       date_of_birth, profession_id, specialty_id, timezone_id, service_ts_and_cs, creation_date)
     select n, 'bench.user' || n || '@bench.example', 'O', true, '${quoted}', 1 + ${b("'u'||n", 0)} % 8, ${pick(['F', 'M', 'X', 'O', 'U'], b("'u'||n", 1))},
       ${pick(FIRST, b("'u'||n", 2))}, ${pick(LAST, b("'u'||n", 3))}, ${pick(['AU', 'AU', 'AU', 'NZ', 'GB'], b("'u'||n", 4))}, '+61 400 ' || lpad((n % 1000000)::text, 6, '0'),
       'Interested in ' || lower(${pick(WORDS, b("'u'||n", 5))}), date '1960-01-01' + (${b("'u'||n", 6)} * 60), 101 + ${b("'u'||n", 7)} % 5, 201 + ${b("'u'||n", 8)} % 6,
       'Australia/Sydney', 'Y', date '2024-01-01' + (n % 600)
     from generate_series(${U1}, ${UN}) n`,
    `insert into user_address (uuid, type_code, name, street, city, suburb, state_code, postcode, country_code, email, phone, mobile, department, division, job_title, user_id)
     select md5('ua-' || n || '-' || k)::uuid, case k when 1 then 'W' else 'P' end, case k when 1 then 'Bench Clinic ' || n % 997 else 'Home' end,
       n || ' ' || ${pick(LAST, b("'ua'||n||k", 0))} || ' Street', ${pick(CITIES, b("'ua'||n||k", 1))}, 'Suburb ' || ${b("'ua'||n||k", 2)}, 'NSW',
       lpad((2000 + ${b("'ua'||n||k", 3)})::text, 4, '0'), 'AU', case k when 1 then 'u' || n || '@work.bench.example' end, '+61 2 9' || lpad((n % 10000000)::text, 7, '0'),
       case k when 2 then '+61 400 ' || lpad((n % 1000000)::text, 6, '0') end, case k when 1 then 'Clinical' end, case k when 1 then 'Services' end, case k when 1 then 'Clinician' end, n
     from generate_series(${U1}, ${UN}) n cross join generate_series(1, 2) k`,
    // Directories 1-5 are Northwind's (team 5101), the rest belong to bench companies and teams.
    `insert into team (team_id, company_id, team_name) select ${BASE} + i, ${BASE} + i, 'Bench team ' || i from generate_series(6, ${BENCH.directories}) i where ${BASE} + i <= ${CN}`,
    `insert into smart_directory (directory_uuid, company_id, team_id, directory_name, directory_type, directory_order, sync_up, auto_populate_from_profile)
     select ${dirUuid(`${BASE} + i`)}, case when i <= 5 or ${BASE} + i > ${CN} then 1001 else ${BASE} + i end, case when i <= 5 or ${BASE} + i > ${CN} then 5101 else ${BASE} + i end,
       'Bench directory ' || i, case when i % 2 = 0 then 'UNRESTRICTED' else 'PARTIALLY_RESTRICTED' end, case when i % 2 = 0 then 'FL' else 'LF' end, true, false
     from generate_series(1, ${BENCH.directories}) i`,
    `insert into contact_record (contact_id, directory_uuid, user_id, first_name, last_name, email, mobile, job_title, department, division)
     select ${BASE} + i, ${directoryOf('i')}, u.u_id, u.first_name, u.last_name, u.email, u.primary_mobile, 'Clinician', 'Clinical', 'Services'
     from generate_series(1, ${size.contacts}) i join app_user u on u.u_id = ${BASE} + i`,
    `insert into contact_address (uuid, type_code, name, street, city, suburb, state_code, postcode, country_code, email, phone, mobile, department, division, job_title, contact_id, user_address_uuid)
     select md5('ca-' || c.contact_id || '-' || a.type_code)::uuid, a.type_code, a.name, a.street, a.city, a.suburb, a.state_code, a.postcode, a.country_code, a.email, a.phone,
       a.mobile, a.department, a.division, a.job_title, c.contact_id, a.uuid
     from contact_record c join user_address a on a.user_id = c.user_id where c.contact_id > ${BASE}`,
    // One large library of Northwind's that Olivia and Cara publish to.
    // Room above the seeded entries for the ones the bench's writes add (scale 100 seeds 1,000,000).
    `insert into smart_library (smart_lib_id, company_id, team_id, smart_lib_name, max_entries) values (${BENCH.libraryId}, 1001, null, 'Bench library', ${size.entries + 1_000_000})`,
    `insert into smart_library_publisher (id, smart_lib_id, user_id) values (${BASE} + 1, ${BENCH.libraryId}, 2001), (${BASE} + 2, ${BENCH.libraryId}, 2003)`,
    `insert into smart_tag (smart_tag_id, smart_lib_id, smart_tag_name, name_key) select ${BASE} + i, ${BENCH.libraryId}, 'tag ' || i, 'tag ' || i from generate_series(1, ${BENCH.tags}) i`,
    `insert into smart_folder (smart_folder_id, smart_lib_id, smart_folder_name, name_key) select ${BASE} + i, ${BENCH.libraryId}, 'Folder ' || i, 'folder ' || i from generate_series(1, ${BENCH.folders}) i`,
    // The entry count's row trigger is off while the entries go in, and the count set once: a
    // hundred thousand updates of one library row in one transaction take minutes (each walks
    // the row's versions so far).
    'alter table smart_entry disable trigger smart_entry_count_insert',
    `insert into smart_entry (smart_entry_id, smart_lib_id, smart_entry_type, smart_entry_name, name_key, smart_entry_desc, smart_entry_download_orig, smart_entry_download_pdf,
       notify_user_of_external_url, smart_entry_authors, smart_entry_created, smart_entry_modified, created_by)
     select ${BASE} + i, ${BENCH.libraryId}, 'PDF', 'Bench entry ' || i, 'bench entry ' || i, 'Guidance on ' || lower(${pick(WORDS, b("'se'||i", 0))}) || ', part ' || i || '.',
       'Y', 'Y', 'N', 'Cara Lopez', timestamptz '2025-01-01 00:00:00+00' + i * interval '30 minutes', timestamptz '2025-01-01 00:00:00+00' + i * interval '30 minutes', 2003
     from generate_series(1, ${size.entries}) i`,
    'alter table smart_entry enable trigger smart_entry_count_insert',
    `update smart_library set entry_count = (select count(*) from smart_entry where smart_lib_id = ${BENCH.libraryId}) where smart_lib_id = ${BENCH.libraryId}`,
    // Each entry's OUF and THMB reuse the demo entry 4001's stored blobs (no new bytes).
    `insert into smart_file (smart_file_id, smart_entry_id, smart_lib_id, smart_file_type, smart_file_name, smart_file_bytes, smart_file_md5, mime_type, blob_sha256, dedupe_md5,
       smart_file_created, smart_file_modified)
     select ${BASE} + (i - 1) * 2 + case f.smart_file_type when 'OUF' then 1 else 2 end, ${BASE} + i, ${BENCH.libraryId}, f.smart_file_type,
       'bench-' || i || case f.smart_file_type when 'OUF' then '.pdf' else '-tile.jpg' end, f.smart_file_bytes, f.smart_file_md5, f.mime_type, f.blob_sha256,
       case when f.dedupe_md5 is not null then md5('bench-file-' || i) end, f.smart_file_created, f.smart_file_modified
     from generate_series(1, ${size.entries}) i cross join smart_file f where f.smart_entry_id = 4001`,
    `insert into smart_entry_tag (smart_entry_id, smart_tag_id, position)
     select ${BASE} + i, ${BASE} + 1 + (i + k * 7) % ${BENCH.tags}, k from generate_series(1, ${size.entries}) i cross join generate_series(0, 1) k`,
    `insert into smart_entry_folder (smart_entry_id, smart_folder_id, position) select ${BASE} + i, ${BASE} + 1 + i % ${BENCH.folders}, 0 from generate_series(1, ${size.entries}) i`,
    `insert into sent_notification (notification_id, type, company_id, message, description, url, successful, total_notifications_sent, team_ids, notification_log,
       notification_created, notification_modified, notification_created_by, notification_modified_by)
     select ${BASE} + i, 'GT', 1001, 'Bench notice ' || i || ' about ' || lower(${pick(WORDS, b("'sn'||i", 0))}), 'Bench notice ' || i || '.',
       case when i % 3 = 0 then 'https://northwindhealth.example/notices/' || i end, true, 1 + ${b("'sn'||i", 1)}, '{1101}', 'Success: delivered',
       timestamptz '2024-01-01 00:00:00+00' + i * interval '5 minutes', timestamptz '2024-01-01 00:00:00+00' + i * interval '5 minutes', '2003', '2003'
     from generate_series(1, ${size.notifications}) i`,
    // Each notification in two inboxes: Olivia's (one that grows with the data set: the inbox
    // page reads its newest) and one bench user's; a third of them read.
    `insert into notification_inbox (id, notification_id, user_id, delivered_at, read_at)
     select ${BASE} + (i - 1) * 2 + k, ${BASE} + i, case when k = 0 then 2001 else ${BASE} + 1 + i % ${size.users} end,
       timestamptz '2024-01-01 00:00:00+00' + i * interval '5 minutes',
       case when i % 3 = 0 then timestamptz '2024-01-01 01:00:00+00' + i * interval '5 minutes' end
     from generate_series(1, ${size.notifications}) i cross join generate_series(0, 1) k`,
    scheduledStatement(size),
    // Half the events are Northwind's; Olivia is invited to every one of those, ten bench users to each event.
    `insert into event (e_id, event_uuid, company_id, name, description, address, street, suburb, city, post_code, country, status, timezone_id, utc_start, utc_end, version)
     select ${BASE} + i, ('e0000000-0000-4000-8000-' || lpad((${BASE} + i)::text, 12, '0'))::uuid, case when i % 2 = 0 or ${BASE} + i > ${CN} then 1001 else ${BASE} + i end,
       'Bench event ' || i, 'A benchmark session on ' || lower(${pick(WORDS, b("'ev'||i", 0))}) || '.', 'Bench Hall', i || ' Event Street', 'Haymarket', 'Sydney', '2000', 'Australia',
       case when i % 25 = 0 then 'C' else 'A' end, 'Australia/Sydney',
       timestamptz '2025-01-01 08:00:00+00' + i * interval '9 hours', timestamptz '2025-01-01 10:00:00+00' + i * interval '9 hours', 2
     from generate_series(1, ${size.events}) i`,
    `insert into event_attendee (attendee_id, invite_uuid, event_id, user_id, invite_status, attending_status, invites_sent, reminders_sent)
     select ${BASE} + (i - 1) * 11 + k, md5('ea-' || i || '-' || k)::uuid, ${BASE} + i, case when k = 0 then 2001 else ${BASE} + 1 + (i * 10 + k) % ${size.users} end,
       ${pick(['P', 'A', 'D'], b("'ea'||i||k", 0))}, ${pick(['U', 'Y', 'N', 'M'], b("'ea'||i||k", 1))}, 1, ${b("'ea'||i||k", 2)} % 2
     from generate_series(1, ${size.events}) i cross join generate_series(0, 10) k
     where k > 0 or (select company_id from event where e_id = ${BASE} + i) = 1001`,
  ];
}

/**
 * Company 1001's processed scheduled GT notifications (the sent-scheduled list): one every 50
 * minutes from 2024 (none pending: nothing for a scheduler to deliver), one in twenty FAILED,
 * one in ten with an e-mail template and parameters.
 */
function scheduledStatement(size: BenchSize): string {
  const due = `timestamptz '2024-01-01 00:00:00+00' + i * interval '50 minutes'`;
  return `insert into scheduled_notification (notification_schedule_id, company_id, broadcast_type, schedule_timezone_id, schedule_local_date_time,
       schedule_due_at, message, url, value_ids, total_notifications_sent, notification_log, status, attempts, schedule_created, schedule_modified,
       schedule_created_by, schedule_modified_by, email_template, email_subject, email_params, version)
     select ${BASE} + i, 1001, 'GT', 'Australia/Sydney', (${due}) at time zone 'Australia/Sydney', ${due},
       'Scheduled bench notice ' || i || ' about ' || lower(${pick(WORDS, b("'sc'||i", 0))}), case when i % 3 = 0 then 'https://northwindhealth.example/notices/s' || i end,
       '{1101}', case when i % 20 = 0 then 0 else 1 + ${b("'sc'||i", 1)} end,
       case when i % 20 = 0 then 'Failed: no recipients' else 'Success: delivered to ' || (1 + ${b("'sc'||i", 1)}) || ' users' end,
       case when i % 20 = 0 then 'FAILED' else 'SENT' end, 1,
       ${due} - interval '1 day', ${due}, '2003', '2003',
       case when i % 10 = 5 then 'bench-notice' end, case when i % 10 = 5 then 'Notice ' || i end,
       case when i % 10 = 5 then jsonb_build_array(jsonb_build_object('key', 'n', 'value', i::text)) end, 3
     from generate_series(1, ${size.scheduled}) i`;
}

/** Moves every serial sequence of the public schema past the largest id present. */
const SETVAL_SEQUENCES = `
do $$
declare r record;
begin
  for r in
    select c.relname as tbl, a.attname as col, pg_get_serial_sequence(quote_ident(c.relname), a.attname) as seq
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped
      and pg_get_serial_sequence(quote_ident(c.relname), a.attname) is not null
  loop
    execute format('select setval(%L, greatest((select coalesce(max(%I), 0) from %I), (select last_value from %s)))', r.seq, r.col, r.tbl, r.seq);
  end loop;
end $$`;

/** What a bench database records of its rows (one row). */
export const SEED_TABLE = 'bench_seed';

/** The size a bench database was seeded at, or null when it holds no bench rows. */
export interface Seeded {
  scale: number;
  companies: number;
  layout: number;
}

/** The statement that reads SEED_TABLE's row (none when the table is missing). */
export const SEEDED_SQL = `select scale, companies, layout from ${SEED_TABLE} where to_regclass('${SEED_TABLE}') is not null`;

/** Whether a database seeded as `seeded` holds the data set `size` asks for. */
export const seededAs = (seeded: Seeded | undefined, size: BenchSize) =>
  !!seeded && seeded.scale === size.scale && seeded.companies === size.companies && seeded.layout === LAYOUT;

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i < 0 ? undefined : (argv[i + 1] ?? '');
}

/** The data set the command line asks for: `--scale 1|10|100` (1), `--companies N` (the scale's). */
export function parseSize(argv: string[]): BenchSize {
  const scaleText = option(argv, '--scale') ?? '1';
  const scale = Number(scaleText) as Scale;
  if (!SCALES.includes(scale)) throw new Error(`--scale needs one of ${SCALES.join(', ')}, not "${scaleText}"`);
  const companiesText = option(argv, '--companies');
  if (companiesText === undefined) return benchSize(scale);
  const n = Number(companiesText);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new Error('--companies needs a whole number from 1 to 1000000');
  return benchSize(scale, n);
}

/** The server's own databases: DATABASE_URL names one when it was meant as the server (as `npm run bench` takes it). */
const SERVER_DATABASES = new Set(['postgres', 'template0', 'template1']);

/** Why the seeder refuses the database `databaseUrl` names (undefined: it may seed it; none: the embedded one). */
export function refusedDatabase(databaseUrl: string | null | undefined): string | undefined {
  if (!databaseUrl) return undefined;
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!SERVER_DATABASES.has(name)) return undefined;
  return (
    `DATABASE_URL names the server's database ${name}: seed:bench fills the database its URL names ` +
    `(${SCALES.map(benchDatabase).join(', ')}; npm run bench creates and seeds them itself)`
  );
}

async function main() {
  const size = parseSize(process.argv.slice(2));
  const config = loadConfig({ ...process.env, SEED_DEMO: 'true' });
  const refused = refusedDatabase(config.databaseUrl);
  if (refused) throw new Error(refused);
  const logger = createLogger('warn');
  const orm = await createOrm({
    entities: ENTITIES,
    databaseUrl: config.databaseUrl,
    embeddedDir: path.join(config.dataDir, 'pgdata'),
    logger,
  });
  try {
    const started = Date.now();
    await migrate(orm);
    await seedDemoIfEmpty(orm, logger);
    const em = orm.em.fork() as SqlEntityManager;
    const [{ n }] = await em.execute<{ n: number }[]>(`select count(*)::int as n from company where company_id > ${BASE}`);
    if (n > 0) {
      const [seeded] = await em.execute<Seeded[]>(SEEDED_SQL);
      if (!seededAs(seeded, size))
        throw new Error(
          `the database holds bench rows of another size (${seeded ? JSON.stringify(seeded) : 'unrecorded'}; asked: scale ${size.scale}, ` +
            `${size.companies} companies, layout ${LAYOUT}): drop it and seed again`,
        );
      // The entries earlier runs' createSmartEntry added (ids past the seeded ones) go, so every
      // run reads and writes a library of the seeded size: they added 2,000-4,000 a run, and the
      // library page and the create grew slower with them.
      const removed = await em.execute<{ id: number }[]>(
        `delete from smart_entry where smart_lib_id = ${BENCH.libraryId} and smart_entry_id > ${BASE + size.entries} returning smart_entry_id as id`,
      );
      console.log(
        `bench data already present (scale ${size.scale}, ${n} bench companies): ${removed.length} entries of earlier runs removed`,
      );
      return;
    }
    const hash = await hashPassword(BENCH.password);
    await em.transactional(async (tx) => {
      for (const statement of benchStatements(size, hash)) await tx.execute(statement);
      await tx.execute(SETVAL_SEQUENCES);
      await tx.execute(
        `create table ${SEED_TABLE} (scale int not null, companies int not null, layout int not null, seeded_at timestamptz not null default now())`,
      );
      await tx.execute(`insert into ${SEED_TABLE} (scale, companies, layout) values (${size.scale}, ${size.companies}, ${LAYOUT})`);
    });
    // Fresh statistics, so the planner sees the bulk rows at once.
    await em.execute('analyze');
    console.log(
      `bench data seeded at scale ${size.scale}: ${size.companies} companies, ${size.users} users, ${size.entries} entries, ` +
        `${size.notifications} sent notifications in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await orm.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
