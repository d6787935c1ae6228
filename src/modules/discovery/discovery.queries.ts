// The discovery module's hand-written SQL (docs/development.md, "Reads and writes"), in
// schema/sql/discovery.sql: a company's criteria with the identifier definitions they reference
// (getRecommendedCriteriaForEntity), the matching rule (matching.ts) as one fragment, the levels
// of some companies (levelsFor), and the recommended companies (recommendedCompaniesWith, made by
// the connection module, whose SQL is in schema/sql/connection.sql). What this module needs of the
// company's table and the connections' is those modules' fragments.
import { sql, type AliasedExpression, type Expression, type ExpressionBuilder, type QueryCreator, type SqlBool } from 'kysely';
import { anyOf, queriesOf, type Query, type Tables } from '../../db/sql';
import { companyDiscoverable, discoverableCompanyRows, type Company } from '../company';
import type { ColumnKey } from '../../db/sql-types';
import { DiscoveryCriterion } from './criterion.entity';
import { IdentifierDefinition, UserIdentifier } from './identifier.entity';
import { COMPANY_FIELD_KINDS, LEVEL } from './discovery.types';
import type { PackedKind, PackedResult, PackedRow } from './discovery.packed';

const { compiled } = queriesOf({ DiscoveryCriterion, IdentifierDefinition, UserIdentifier });

type DB = Tables<{ DiscoveryCriterion: DiscoveryCriterion; IdentifierDefinition: IdentifierDefinition; UserIdentifier: UserIdentifier }>;

/**
 * Whether the company is discoverable (null when there is no such company), its criteria (id
 * order) and the identifier definitions they reference (id order, each once), as JSON arrays whose
 * keys are the GraphQL types' property names. One row.
 */
export const discoverableCriteria = compiled(
  (db, p: { companyId: number }) => {
    const company = sql<number>`${p.companyId}::int`;
    const criteria = db
      .selectFrom('DiscoveryCriterion as c')
      .select((c) =>
        sql`coalesce(json_agg(json_build_object('criterionId', ${c.ref('c.criterionId')}, 'countries', ${c.ref('c.countries')}, 'professions', ${c.ref('c.professions')}, 'specialties', ${c.ref('c.specialties')}, 'identifiers', ${c.ref('c.identifiers')}) order by ${c.ref('c.criterionId')}), '[]')`.as(
          'v',
        ),
      )
      .where('c.company', '=', company);
    const definitions = db
      .selectFrom('IdentifierDefinition as d')
      .select((d) =>
        sql`coalesce(json_agg(json_build_object('identifierId', ${d.ref('d.identifierId')}, 'name', ${d.ref('d.name')}, 'description', ${d.ref('d.description')}, 'formatDesc', ${d.ref('d.formatDesc')}, 'formatRegex', ${d.ref('d.formatRegex')}, 'countryCode', ${d.ref('d.countryCode')}) order by ${d.ref('d.identifierId')}), '[]')`.as(
          'v',
        ),
      )
      .where((d) =>
        d(
          'd.identifierId',
          'in',
          db
            .selectFrom('DiscoveryCriterion as c')
            .select((c) => sql<number>`unnest(${c.ref('c.identifiers')})`.as('id'))
            .where('c.company', '=', company),
        ),
      );
    return db
      .selectNoFrom([
        sql<boolean | null>`${companyDiscoverable(company)}`.as('discoverable'),
        criteria.as('criteria'),
        definitions.as('definitions'),
      ])
      .$castTo<{ discoverable: boolean | null; criteria: DiscoveryCriterion[]; definitions: IdentifierDefinition[] }>();
  },
  { prepared: true },
);

// --- The matching rule (matching.ts) ---

/** A profile as the matching's parameters (matching.ts matchParams): a value the user has not given is null. */
export interface MatchParams {
  uId: number;
  countryCode: string | null;
  professionId: number | null;
  specialtyId: number | null;
  /** The user's keys for `discovery.match_keys` (matching.ts matchKeys). */
  keys: string[];
}

type Criteria = ExpressionBuilder<DB & { c: DB['DiscoveryCriterion'] }, 'c'>;

/** The criterion lists none of `list`. */
const open = (c: Criteria, list: 'c.countries' | 'c.professions' | 'c.specialties' | 'c.identifiers') =>
  sql<SqlBool>`${c.ref(list)} = '{}'`;

/** The user holds a value for one of the criterion's identifiers (their ids read in the same statement). */
const holdsListed = (c: Criteria, p: MatchParams) =>
  sql<SqlBool>`${c.ref('c.identifiers')} && array(${c
    .selectFrom('UserIdentifier as ui')
    .select('ui.identifier')
    .where('ui.user', '=', sql<number>`${p.uId}::int`)})`;

/** One of the criterion's identifiers is issued by the user's country. */
const issuedInCountry = (c: Criteria, p: MatchParams) =>
  c.exists(
    c
      .selectFrom('IdentifierDefinition as d')
      .select(sql.lit(1).as('one'))
      .where('d.identifierId', '=', sql<number>`any(${c.ref('c.identifiers')})`)
      .where('d.countryCode', '=', sql<string>`${p.countryCode}::text`),
  );

/**
 * `company_id, level` (as companyId, level) for every company with a fully (2) or partly (1) met
 * criterion; companies meeting none are absent (matching.ts says the rule). One text for every
 * profile: a value the user has not given is a null parameter.
 */
function companyLevels(db: QueryCreator<DB>, p: MatchParams) {
  // A dimension the user gave no value for is fully met only when the criterion's list is open.
  const given = (value: unknown, type: 'text' | 'int') => sql<SqlBool>`${value}::${sql.raw(type)} is not null`;
  return (
    db
      .selectFrom('DiscoveryCriterion as c')
      .select((c) => [
        c.ref('c.company').as('companyId'),
        sql<number>`max(case when ${c.and([
          c.or([given(p.countryCode, 'text'), open(c, 'c.countries')]),
          c.or([given(p.professionId, 'int'), open(c, 'c.professions')]),
          c.or([given(p.specialtyId, 'int'), open(c, 'c.specialties')]),
          c.or([open(c, 'c.identifiers'), holdsListed(c, p)]),
        ])} then ${sql.lit(LEVEL.full)} else ${sql.lit(LEVEL.partial)} end)`.as('level'),
      ])
      // Written exactly as the index's expression, so the planner matches it to the index.
      .where(
        (c) =>
          sql<SqlBool>`discovery.match_keys(${c.ref('c.countries')}, ${c.ref('c.professions')}, ${c.ref('c.specialties')}) && ${p.keys}::text[]`,
      )
      // Without a country (null or empty) the identifiers are unknown, never a mismatch.
      .where((c) =>
        c.or([
          sql<SqlBool>`nullif(${p.countryCode}::text, '') is null`,
          open(c, 'c.identifiers'),
          holdsListed(c, p),
          issuedInCountry(c, p),
        ]),
      )
      .groupBy('c.company')
  );
}

/** The levels of the companies (an array) for the profile: a row for each company with a met criterion (levelsFor). */
export const matchLevels = compiled(
  (db, p: MatchParams & { companyIds: number[] }) => companyLevels(db, p).where('c.company', '=', anyOf(p.companyIds, 'int')),
  { prepared: true },
);

// --- Recommended companies (discovery.service.ts) ---

/**
 * A recommended company's columns, each under its property's name, in the order they are packed
 * (discovery.packed.ts): the company's fields the entity carries (discovery.types.ts), then those
 * the service reads itself, the level and whether the connection awaits vetting.
 */
export const RECOMMENDED_COLUMNS = {
  ...COMPANY_FIELD_KINDS,
  companyId: 'int',
  companyName: 'text',
  bannerKey: 'text?',
  logoKey: 'text?',
  companyStateCode: 'text?',
  companyCountryCode: 'text?',
  usesCaf: 'bool',
  cafUrl: 'text?',
  level: 'int',
  pending: 'bool',
} as const;

export type RecommendedRow = PackedRow<typeof RECOMMENDED_COLUMNS>;

/** The company's columns the statement reads: those packed, and those the search looks in. */
const COMPANY_COLUMNS = [
  ...new Set([...Object.keys(RECOMMENDED_COLUMNS).filter((k) => k !== 'level' && k !== 'pending'), 'companyDesc', 'companyCity']),
] as ColumnKey<Company>[];

/** The status of a user's connection to a company, as a subquery joined laterally (the connection module's connectionStatusOf). */
export type ConnectionStatusOf = (
  companyId: Expression<number>,
  userId: Expression<number>,
) => AliasedExpression<{ status: string }, 'connection_s'>;

export type RecommendParams = MatchParams & {
  /** ILIKE patterns, each of which must occur in the name, the description or the city (searched queries only). */
  patterns: string[];
};

/**
 * The columns as one packed value (discovery.packed.ts): the rows' count, their NULLs' count, and
 * every value as text (a NULL as chr(29), a boolean as t or f) joined by chr(31).
 */
export function packedSelection(columns: readonly (readonly [Expression<unknown>, PackedKind])[]) {
  const written = columns.map(([value, kind]) =>
    kind === 'bool'
      ? sql`coalesce(case (${value}) when true then 't' when false then 'f' end, chr(29))`
      : sql`coalesce((${value})::text, chr(29))`,
  );
  const nullable = columns.filter(([, kind]) => kind === 'text?').map(([value]) => sql`(${value})`);
  return [
    sql<number>`count(*)::int`.as('n'),
    (nullable.length ? sql<number>`coalesce(sum(num_nulls(${sql.join(nullable)})), 0)::int` : sql<number>`0`).as('nulls'),
    sql<string | null>`string_agg(concat_ws(chr(31), ${sql.join(written)}), chr(31))`.as('packed'),
  ];
}

/**
 * The companies recommended to a user, given how the status of a user's connection to a company is
 * read (`status`: the connection module's, which imports this one). One statement: the levels of
 * the companies met (companyLevels), the company's columns for those discoverable (the company
 * module's fragment), the user's connection to each, none accepted, and every search pattern found.
 * `packed` answers one row (PackedResult), `plain` the same rows as they are (when a value held a
 * separator); `searched*` also apply the patterns. The order is the service's.
 */
export function recommendedCompaniesWith(status: ConnectionStatusOf) {
  const query = (packed: boolean, searched: boolean) =>
    compiled(
      (db, p: RecommendParams) =>
        db
          .with('met', (w) => companyLevels(w, p))
          .selectFrom('met')
          .innerJoin(discoverableCompanyRows(COMPANY_COLUMNS).as('co'), 'co.companyId', 'met.companyId')
          .leftJoinLateral(
            (j) => status(j.ref('met.companyId'), sql<number>`${p.uId}::int`),
            (j) => j.onTrue(),
          )
          .select((s) => {
            const pending = sql`coalesce(${s.ref('connection_s.status')} = ${sql.lit('pending')} and ${s.ref('met.level')} = ${sql.lit(LEVEL.full)}, false)`;
            const value = (name: string) =>
              name === 'level' ? s.ref('met.level') : name === 'pending' ? pending : s.ref(`co.${name as ColumnKey<Company>}`);
            const columns = Object.entries(RECOMMENDED_COLUMNS).map(([name, kind]) => [name, value(name), kind] as const);
            return packed
              ? packedSelection(columns.map(([, expression, kind]) => [expression, kind] as const))
              : columns.map(([name, expression]) => sql`${expression}`.as(name));
          })
          .where((w) => sql<SqlBool>`${w.ref('connection_s.status')} is distinct from ${sql.lit('accepted')}`)
          .$if(searched, (q) =>
            q.where(
              (w) =>
                sql<SqlBool>`not exists (select 1 from unnest(${p.patterns}::text[]) t(p) where not coalesce(${w.ref('co.companyName')} ilike t.p or ${w.ref('co.companyDesc')} ilike t.p or ${w.ref('co.companyCity')} ilike t.p, false))`,
            ),
          ),
      { prepared: true },
    );
  return {
    packed: query(true, false) as unknown as Query<RecommendParams, PackedResult>,
    plain: query(false, false) as unknown as Query<RecommendParams, RecommendedRow>,
    searchedPacked: query(true, true) as unknown as Query<RecommendParams, PackedResult>,
    searchedPlain: query(false, true) as unknown as Query<RecommendParams, RecommendedRow>,
  };
}

export type RecommendedQueries = ReturnType<typeof recommendedCompaniesWith>;
