// Recommended companies for a user: one SQL statement applies the matching rule, the three
// exclusions (accepted connection, hidden wall, inactive company) and the search terms; the
// service puts them in order (full matches first, then by name, then id). The order is applied
// here rather than by PostgreSQL: sorting the 410 rows of the bench's 10,000 companies by the ICU
// collation was 1.1 of the statement's 2.4 ms of execution, and takes 0.22 ms in Node under load,
// whose Intl.Collator is the same ICU root collation (docs/performance.md, "Recommended entities").
// The rows come as one packed value (packed.ts): the answer is returned whole (410 companies
// there), and its rows' objects, built as their data arrived over several socket reads, were what
// the young generation's collections promoted (docs/performance.md, "one packed value"). The
// company's table and columns are named by its metadata (test/unit/sql-owners.test.ts).
import type { EntityManager } from '@mikro-orm/core';
import { companyLevels, LEVEL, type MatchProfile } from './matching';
import { Params, runSql, tableOf, type NamesOf } from '../../db/lean';
import { packing, readPacked, type RowOf } from './packed';
import type { RecommendedEntity } from './discovery.types';
import { countryName, stateName } from '../reference-data';
import { Company, fileUrl } from '../company';
import { sqlDoor } from '../../core/sql-doors';

/** The fixed parts of the statement, written from the company's metadata. */
function statementParts(n: NamesOf) {
  const co = n(Company);
  // The caller's connection to each company, asked of the connection module (which imports this
  // one, so through its declared door: src/core/sql-doors.ts).
  const connection = sqlDoor('connectionStatus')(n);
  const c = (prop: Parameters<typeof co.column>[0]) => `co.${co.column(prop)}`;
  return {
    /** The columns of a recommended company, packed into one value (packed.ts). */
    columns: packing({
      company_id: [c('companyId'), 'int'],
      company_name: [c('companyName'), 'text'],
      company_desc: [c('companyDesc'), 'text?'],
      company_address: [c('companyAddress'), 'text?'],
      company_city: [c('companyCity'), 'text?'],
      company_postcode: [c('companyPostcode'), 'text?'],
      company_state_code: [c('companyStateCode'), 'text?'],
      company_country_code: [c('companyCountryCode'), 'text?'],
      company_contact_name: [c('companyContactName'), 'text?'],
      company_contact_email: [c('companyContactEmail'), 'text?'],
      company_website: [c('companyWebsite'), 'text?'],
      banner_key: [c('bannerKey'), 'text?'],
      logo_key: [c('logoKey'), 'text?'],
      uses_caf: [c('usesCaf'), 'bool'],
      caf_url: [c('cafUrl'), 'text?'],
      level: ['met.level', 'int'],
      pending: [`coalesce(${connection.status} = 'pending' and met.level = ${LEVEL.full}, false)`, 'bool'],
    }),
    /** The companies met, active and not hidden walls. */
    companies: `join ${co.table} co on ${c('companyId')} = met.company_id`,
    discoverable: `${c('active')} and not ${c('hiddenWall')}`,
    /** The user's connection to each company met, and that it is not an accepted one. */
    connection: connection.join,
    notConnected: `${connection.status} is distinct from 'accepted'`,
    /** Every term must occur in the name, the description or the city (the patterns are one array parameter). */
    search: (patterns: string) =>
      `not exists (select 1 from unnest(${patterns}::text[]) t(p)
     where not coalesce(${c('companyName')} ilike t.p or ${c('companyDesc')} ilike t.p or ${c('companyCity')} ilike t.p, false))`,
  };
}

let parts: ReturnType<typeof statementParts> | undefined;
/** The statement's fixed parts, written once (on first use). */
const partsOf = (em: EntityManager) => (parts ??= statementParts((entity) => tableOf(em, entity)));

type Row = RowOf<ReturnType<typeof statementParts>['columns']>;

/** ILIKE pattern matching the term anywhere, with its own wildcards taken literally. */
const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

export interface RecommendOptions {
  searchTerms: string[];
  /** Version 2 adds usesCAF and cafUrl. */
  withCaf: boolean;
  publicBaseUrl: string;
}

export async function recommendCompanies(
  em: EntityManager,
  profile: MatchProfile,
  options: RecommendOptions,
): Promise<RecommendedEntity[]> {
  const { columns, companies, discoverable, connection, notConnected, search } = partsOf(em);
  const params = new Params();
  const met = companyLevels(profile, params);
  const uId = params.add(profile.uId);
  const searching = options.searchTerms.length ? `and ${search(params.add(options.searchTerms.map(containsPattern)))}` : '';
  const rows = await readPacked(em, columns, (on, select) =>
    runSql(
      on,
      `with met as (${met})
      select ${select}
      from met
      ${companies}
      ${connection('met.company_id', `${uId}::int`)}
      where ${discoverable} and ${notConnected} ${searching}`,
      params.values,
      { prepared: true },
    ),
  );
  return rows.sort(recommendedOrder).map((r) => toEntity(r, options));
}

/** ICU's root collation, the one PostgreSQL's "und-x-icu" names. */
const rootCollation = new Intl.Collator('und').compare;

/**
 * Full matches first, then by name in the root collation, then by id. Names the collation holds
 * equal but that differ (a name in two normal forms) are ordered by their UTF-8 bytes, as
 * PostgreSQL orders them for a deterministic collation.
 */
function recommendedOrder(a: Row, b: Row): number {
  if (a.level !== b.level) return b.level - a.level;
  const byName = rootCollation(a.company_name, b.company_name);
  if (byName !== 0) return byName;
  if (a.company_name !== b.company_name) return Buffer.compare(Buffer.from(a.company_name), Buffer.from(b.company_name));
  return a.company_id - b.company_id;
}

function toEntity(r: Row, options: RecommendOptions): RecommendedEntity {
  return {
    companyId: r.company_id,
    entityType: 'company',
    entityId: String(r.company_id),
    entityConnectionPending: r.pending,
    companyBannerURL: fileUrl(options.publicBaseUrl, r.banner_key),
    companyLogoURL: fileUrl(options.publicBaseUrl, r.logo_key),
    companyName: r.company_name,
    companyDesc: r.company_desc,
    companyAddress: r.company_address,
    companyCity: r.company_city,
    companyPostcode: r.company_postcode,
    companyState: r.company_country_code && r.company_state_code ? stateName(r.company_country_code, r.company_state_code) : null,
    companyCountry: r.company_country_code ? countryName(r.company_country_code) : null,
    companyContactName: r.company_contact_name,
    companyContactEmail: r.company_contact_email,
    companyWebsite: r.company_website,
    usesCAF: options.withCaf ? r.uses_caf : null,
    cafUrl: options.withCaf ? r.caf_url : null,
  };
}
