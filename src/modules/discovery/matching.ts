// The matching rule of docs/api/discovery.md ("Matching"), in SQL: one statement scores every criterion in scope against
// a user's profile, so the statement count never grows with the number of companies.
//
// Per criterion and dimension: an empty list is open; the user's value in the list matches;
// no user value is unknown; any other value mismatches. Identifiers: the user holding a value
// for a listed identifier matches; otherwise the dimension is unknown while one of the listed
// identifiers is issued by the user's country (or the country is unknown), since the user can
// still supply it, and a mismatch when none is. A criterion with a mismatch is not met; with no
// mismatch and no unknown it is fully met; otherwise partly met. A company's level is the best
// level among its criteria.
//
// The three scalar dimensions are matched through one GIN index over `discovery.match_keys(countries,
// professions, specialties)`, an immutable SQL function (migration `discovery_match_keys`) giving
// every "country|profession|specialty" tuple a criterion accepts: an open list stands as `*`, and
// every dimension also as `?` (a user without a value there never mismatches). A user's keys are
// the tuples of {their value, *} per dimension, or {?} where they have none; a criterion has no
// scalar mismatch exactly when the two sets overlap. One bitmap scan of that index finds the
// candidates (441 of 30,207 criteria for the bench's Olivia); the identifier dimension and the
// level are evaluated on those rows only. The keys are inlined as a literal (MikroORM formats
// parameters client-side), so the planner sees them.
import { raw, sql, type RawQueryFragment } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';

export const LEVEL = { none: 0, partial: 1, full: 2 } as const;
export type Level = (typeof LEVEL)[keyof typeof LEVEL];

export interface MatchProfile {
  uId: number;
  countryCode?: string | null;
  professionId?: number | null;
  specialtyId?: number | null;
}

type Fragment = RawQueryFragment;

// Placeholders are kept apart by spaces: MikroORM reads two adjacent ones (??) as an identifier.
// A null part is a condition that always holds.
const join = (parts: (Fragment | null)[], keyword: 'and' | 'or'): Fragment =>
  parts.reduce<Fragment | null>((acc, part) => (!part ? acc : acc ? sql`${acc} ${raw(keyword)} ${part}` : part), null) ?? sql`true`;

/** Fully met for one scalar dimension, given no mismatch (null: always). */
function scalarFull(column: string, value: string | number | null | undefined): Fragment | null {
  // Unknown user value: full only when the list is open.
  return value === null || value === undefined ? sql`${sql.ref('c', column)} = '{}'` : null;
}

/** The user's keys for `discovery.match_keys`, as a PostgreSQL text[] literal. */
export function matchKeys(p: MatchProfile): string {
  const parts = [p.countryCode, p.professionId, p.specialtyId].map((v) => (v === null || v === undefined ? ['?'] : [String(v), '*']));
  const keys = parts.reduce<string[]>((acc, options) => acc.flatMap((prefix) => options.map((o) => (prefix ? `${prefix}|${o}` : o))), ['']);
  return `{${keys.map((k) => `"${k.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** The user's identifier ids, read in the same statement. */
const userIdentifierIds = (uId: number) => sql`array(select ui.identifier_id from user_identifier ui where ui.user_id = ${uId})`;

function identifierDimension(p: MatchProfile): { ok: Fragment | null; full: Fragment } {
  const ids = sql.ref('c', 'identifiers');
  const held = sql`${ids} && ${userIdentifierIds(p.uId)}`;
  const full = sql`(${ids} = '{}' or ${held})`;
  if (!p.countryCode) return { ok: null, full };
  const issuedHere = sql`exists (select 1 from identifier_definition d where d.identifier_id = any(${ids}) and d.country_code = ${p.countryCode})`;
  return { ok: sql`(${ids} = '{}' or ${held} or ${issuedHere})`, full };
}

/**
 * `select company_id, level` for every company in scope with a fully (2) or partly (1) met
 * criterion; companies meeting none are absent. `scope` restricts the criteria (a condition
 * on alias `c`).
 */
export function companyLevels(p: MatchProfile, scope?: Fragment): Fragment {
  const identifiers = identifierDimension(p);
  // The expression is written exactly as the index's, so the planner matches it to the index.
  const keys = sql`discovery.match_keys(c.countries, c.professions, c.specialties) && ${matchKeys(p)}::text[]`;
  const ok = join([keys, identifiers.ok, scope ?? null], 'and');
  const full = join(
    [
      scalarFull('countries', p.countryCode),
      scalarFull('professions', p.professionId),
      scalarFull('specialties', p.specialtyId),
      identifiers.full,
    ],
    'and',
  );
  return sql`select c.company_id, max(case when ${full} then 2 else 1 end) as level
    from discovery_criterion c
    where ${ok}
    group by c.company_id`;
}

export function execute<T>(em: EntityManager, query: Fragment): Promise<T[]> {
  return (em as SqlEntityManager).execute<T[]>(query);
}

/** Levels of the given companies for the profile (absent companies: none), in one statement. */
export async function levelsFor(em: EntityManager, p: MatchProfile, companyIds: number[]): Promise<Map<number, Level>> {
  const levels = new Map<number, Level>(companyIds.map((id) => [id, LEVEL.none]));
  if (!companyIds.length) return levels;
  const rows = await execute<{ company_id: number; level: number }>(em, companyLevels(p, sql`c.company_id in (${companyIds})`));
  for (const row of rows) levels.set(row.company_id, Number(row.level) as Level);
  return levels;
}
