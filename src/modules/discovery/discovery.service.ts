// Recommended companies for a user: one SQL statement applies the matching rule, the three
// exclusions (accepted connection, hidden wall, inactive company) and the search terms; the
// service puts them in order (full matches first, then by name, then id). The order is applied
// here rather than by PostgreSQL: sorting the 410 rows of the bench's 10,000 companies by the ICU
// collation was 1.1 of the statement's 2.4 ms of execution, and takes 0.22 ms in Node under load,
// whose Intl.Collator is the same ICU root collation (docs/performance.md, "Recommended entities").
// The rows come as one packed value (src/db/packed.ts): the answer is returned whole (410 companies
// there), and its rows' objects, built as their data arrived over several socket reads, were what
// the young generation's collections promoted (docs/performance.md, "one packed value").
import type { EntityManager } from '@mikro-orm/core';
import { companyLevels, LEVEL, type MatchProfile } from './matching';
import { Params, runSql } from '../../db/lean';
import { packing, readPacked, type RowOf } from '../../db/packed';
import type { RecommendedEntity } from './discovery.types';
import { countryName, stateName } from '../reference-data';
import { fileUrl } from '../company';

/** The columns of a recommended company, packed into one value (src/db/packed.ts). */
const COLUMNS = packing({
  company_id: ['co.company_id', 'int'],
  company_name: ['co.company_name', 'text'],
  company_desc: ['co.company_desc', 'text?'],
  company_address: ['co.company_address', 'text?'],
  company_city: ['co.company_city', 'text?'],
  company_postcode: ['co.company_postcode', 'text?'],
  company_state_code: ['co.company_state_code', 'text?'],
  company_country_code: ['co.company_country_code', 'text?'],
  company_contact_name: ['co.company_contact_name', 'text?'],
  company_contact_email: ['co.company_contact_email', 'text?'],
  company_website: ['co.company_website', 'text?'],
  banner_key: ['co.banner_key', 'text?'],
  logo_key: ['co.logo_key', 'text?'],
  uses_caf: ['co.uses_caf', 'bool'],
  caf_url: ['co.caf_url', 'text?'],
  level: ['met.level', 'int'],
  pending: [`coalesce(cc.status = 'pending' and met.level = ${LEVEL.full}, false)`, 'bool'],
});

type Row = RowOf<typeof COLUMNS>;

/** ILIKE pattern matching the term anywhere, with its own wildcards taken literally. */
const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

/** Every term must occur in the name, the description or the city (the patterns are one array parameter). */
const searchCondition = (patterns: string) =>
  `not exists (select 1 from unnest(${patterns}::text[]) t(p)
     where not coalesce(co.company_name ilike t.p or co.company_desc ilike t.p or co.company_city ilike t.p, false))`;

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
  const params = new Params();
  const met = companyLevels(profile, params);
  const uId = params.add(profile.uId);
  const search = options.searchTerms.length ? `and ${searchCondition(params.add(options.searchTerms.map(containsPattern)))}` : '';
  const rows = await readPacked(em, COLUMNS, (on, select) =>
    runSql(
      on,
      `with met as (${met})
      select ${select}
      from met
      join company co on co.company_id = met.company_id
      left join company_connection cc on cc.company_id = met.company_id and cc.user_id = ${uId}::int
      where co.active and not co.hidden_wall and cc.status is distinct from 'accepted' ${search}`,
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
