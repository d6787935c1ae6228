// Recommended companies for a user: one SQL statement applies the matching rule, the three
// exclusions (accepted connection, hidden wall, inactive company) and the search terms
// (discovery.queries.ts recommendedCompaniesWith); the service puts them in order (full matches
// first, then by name, then id). The order is applied here rather than by PostgreSQL: sorting the
// 410 rows of the bench's 10,000 companies by the ICU collation was 1.1 of the statement's 2.4 ms
// of execution, and takes 0.22 ms in Node under load, whose Intl.Collator is the same ICU root
// collation (docs/performance.md, "Recommended entities"). The rows come as one packed value
// (discovery.packed.ts): the answer is returned whole (410 companies there), and its rows' objects,
// built as their data arrived over several socket reads, were what the young generation's
// collections promoted (docs/performance.md, "one packed value"). The statement reads the user's
// connections, which are the connection module's: that module makes the queries and hands this
// function to the request (ctx.loaders.recommendCompanies, connection.loaders.ts). The columns the
// entity copies are those of the company's fields it carries (discovery.types.ts), copied by a
// function compiled once (discovery.packed.ts, copier).
import type { EntityManager } from '@mikro-orm/core';
import { matchParams, type MatchProfile } from './matching';
import { copier, packing } from './discovery.packed';
import { RECOMMENDED_COLUMNS, type RecommendedQueries, type RecommendedRow } from './discovery.queries';
import { COMPANY_FIELDS_CARRIED, type RecommendedEntity } from './discovery.types';
import { countryName, stateName } from '../reference-data';
import { fileUrl } from '../company';

/** The decoder of the packed rows, and the copier of the carried columns onto the entity: each compiled once. */
const packed = packing(RECOMMENDED_COLUMNS);
const copyCarried = copier(COMPANY_FIELDS_CARRIED);

type Row = RecommendedRow;

/** ILIKE pattern matching the term anywhere, with its own wildcards taken literally. */
const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, '\\$&')}%`;

export interface RecommendOptions {
  searchTerms: string[];
  /** Version 2 adds usesCAF and cafUrl. */
  withCaf: boolean;
  publicBaseUrl: string;
}

/** The companies recommended to the user, in order, by `queries` (the connection module's recommendedCompanies). */
export async function recommendCompanies(
  em: EntityManager,
  queries: RecommendedQueries,
  profile: MatchProfile,
  options: RecommendOptions,
): Promise<RecommendedEntity[]> {
  const params = { ...matchParams(profile), patterns: options.searchTerms.map(containsPattern) };
  const [asPacked, asPlain] = options.searchTerms.length
    ? [queries.searchedPacked, queries.searchedPlain]
    : [queries.packed, queries.plain];
  const [result] = await asPacked.run(em, params);
  // A value that held a separator: the same rows, plain, in a second statement.
  const rows = packed.unpack(result) ?? (await asPlain.run(em, params));
  return rows.sort(recommendedOrder).map((r) => copyCarried(r, toEntity(r, options)));
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
  const byName = rootCollation(a.companyName, b.companyName);
  if (byName !== 0) return byName;
  if (a.companyName !== b.companyName) return Buffer.compare(Buffer.from(a.companyName), Buffer.from(b.companyName));
  return a.companyId - b.companyId;
}

/** A row's recommended entity but the columns it copies (copyCarried): its own fields, the codes' long names, the images' URLs. */
function toEntity(r: Row, options: RecommendOptions): RecommendedEntity {
  return {
    companyId: r.companyId,
    entityType: 'company',
    entityId: String(r.companyId),
    entityConnectionPending: r.pending,
    companyBannerURL: fileUrl(options.publicBaseUrl, r.bannerKey),
    companyLogoURL: fileUrl(options.publicBaseUrl, r.logoKey),
    companyState: r.companyCountryCode && r.companyStateCode ? stateName(r.companyCountryCode, r.companyStateCode) : null,
    companyCountry: r.companyCountryCode ? countryName(r.companyCountryCode) : null,
    usesCAF: options.withCaf ? r.usesCaf : null,
    cafUrl: options.withCaf ? r.cafUrl : null,
  };
}
