// Recommended companies for a user: one SQL statement applies the matching rule, the three
// exclusions (accepted connection, hidden wall, inactive company) and the search terms; the
// service puts them in order (full matches first, then by name, then id). The order is applied
// here rather than by PostgreSQL: sorting the 410 rows of the bench's 10,000 companies by the ICU
// collation was 1.1 of the statement's 2.4 ms of execution, and takes 0.22 ms in Node under load,
// whose Intl.Collator is the same ICU root collation (docs/performance.md, "Recommended entities").
// The rows come as one packed value (packed.ts): the answer is returned whole (410 companies
// there), and its rows' objects, built as their data arrived over several socket reads, were what
// the young generation's collections promoted (docs/performance.md, "one packed value"). The
// company's table and columns are named by its metadata (test/unit/sql-owners.test.ts), and the
// columns the entity copies are those of the company's fields it carries (discovery.types.ts),
// listed once, at first use, and copied by a function compiled once (packed.ts, copier).
import type { EntityManager, EntityMetadata, EntityProperty } from '@mikro-orm/core';
import { companyLevels, LEVEL, type MatchProfile } from './matching';
import { Params, runSql, tableOf, type NamesOf } from '../../db/lean';
import { copier, packing, readPacked, type PackedColumns, type PackedKind, type RowOf } from './packed';
import { COMPANY_FIELDS_CARRIED, type RecommendedEntity } from './discovery.types';
import { countryName, stateName } from '../reference-data';
import { Company, fileUrl } from '../company';
import { sqlDoor } from '../../core/sql-doors';

/**
 * How a company column is packed, by its SQL type and whether it may be NULL (packed.ts reads only
 * NOT NULL integers and booleans). The SQL type, not the property's: a `string | null` property
 * reflects as no type at all.
 */
function packedKind(prop: EntityProperty): PackedKind {
  const type = prop.columnTypes[0] ?? '';
  if (/^(?:varchar|character varying|text|char)\b/.test(type)) return prop.nullable ? 'text?' : 'text';
  if (/^(?:int|integer|serial)\b/.test(type) && !prop.nullable) return 'int';
  if (type === 'boolean' && !prop.nullable) return 'bool';
  throw new Error(`Company.${prop.name} (${type}${prop.nullable ? ', nullable' : ''}) cannot be packed`);
}

/** The fixed parts of the statement, written from the company's metadata. */
function statementParts(n: NamesOf, company: EntityMetadata<Company>) {
  const co = n(Company);
  // The caller's connection to each company, asked of the connection module (which imports this
  // one, so through its declared door: src/core/sql-doors.ts).
  const connection = sqlDoor('connectionStatus')(n);
  const c = (prop: Parameters<typeof co.column>[0]) => `co.${co.column(prop)}`;
  /** The company's columns the recommended entity copies (discovery.types.ts), each under its property's name. */
  const carried: PackedColumns = Object.fromEntries(
    COMPANY_FIELDS_CARRIED.map((prop) => [prop, [c(prop), packedKind(company.properties[prop])] as const]),
  );
  return {
    /** The columns of a recommended company, packed into one value (packed.ts), each under its property's name. */
    columns: packing({
      ...carried,
      companyId: [c('companyId'), 'int'],
      // Also carried; named here for recommendedOrder, which reads it.
      companyName: [c('companyName'), 'text'],
      bannerKey: [c('bannerKey'), 'text?'],
      logoKey: [c('logoKey'), 'text?'],
      companyStateCode: [c('companyStateCode'), 'text?'],
      companyCountryCode: [c('companyCountryCode'), 'text?'],
      usesCaf: [c('usesCaf'), 'bool'],
      cafUrl: [c('cafUrl'), 'text?'],
      level: ['met.level', 'int'],
      pending: [`coalesce(${connection.status} = 'pending' and met.level = ${LEVEL.full}, false)`, 'bool'],
    }),
    /** Copies the carried columns of a row onto its recommended entity. */
    copyCarried: copier(COMPANY_FIELDS_CARRIED),
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

type Parts = ReturnType<typeof statementParts>;
let parts: Parts | undefined;
/** The statement's fixed parts, written once (on first use). */
const partsOf = (em: EntityManager) => (parts ??= statementParts((entity) => tableOf(em, entity), em.getMetadata().get(Company)));

type Row = RowOf<Parts['columns']>;

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
  const { columns, copyCarried, companies, discoverable, connection, notConnected, search } = partsOf(em);
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
