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
// level are evaluated on those rows only. The statements are prepared (runSql's `prepared`): the user's
// values are parameters, planned once per connection, which saved a quarter of the statement's
// PostgreSQL CPU (docs/performance.md); the plan stays a bitmap scan of that index
// (test/discovery/scale.test.ts checks the plan PostgreSQL keeps for all values).
import type { EntityManager } from '@mikro-orm/core';
import { Params, runSql } from '../../db/lean';

export const LEVEL = { none: 0, partial: 1, full: 2 } as const;
export type Level = (typeof LEVEL)[keyof typeof LEVEL];

export interface MatchProfile {
  uId: number;
  countryCode?: string | null;
  professionId?: number | null;
  specialtyId?: number | null;
}

const and = (parts: (string | null)[]) => parts.filter((p): p is string => p !== null).join(' and ') || 'true';

/** Fully met for one scalar dimension, given no mismatch (null: always). */
function scalarFull(column: string, value: string | number | null | undefined): string | null {
  // Unknown user value: full only when the list is open.
  return value === null || value === undefined ? `c.${column} = '{}'` : null;
}

/** The user's keys for `discovery.match_keys`. */
export function matchKeys(p: MatchProfile): string[] {
  const parts = [p.countryCode, p.professionId, p.specialtyId].map((v) => (v === null || v === undefined ? ['?'] : [String(v), '*']));
  return parts.reduce<string[]>((acc, options) => acc.flatMap((prefix) => options.map((o) => (prefix ? `${prefix}|${o}` : o))), ['']);
}

function identifierDimension(p: MatchProfile, params: Params): { ok: string | null; full: string } {
  // The user's identifier ids, read in the same statement.
  const held = `c.identifiers && array(select ui.identifier_id from user_identifier ui where ui.user_id = ${params.add(p.uId)}::int)`;
  const full = `(c.identifiers = '{}' or ${held})`;
  if (!p.countryCode) return { ok: null, full };
  const issuedHere = `exists (select 1 from identifier_definition d where d.identifier_id = any(c.identifiers) and d.country_code = ${params.add(p.countryCode)}::text)`;
  return { ok: `(c.identifiers = '{}' or ${held} or ${issuedHere})`, full };
}

/**
 * `select company_id, level` for every company in scope with a fully (2) or partly (1) met
 * criterion; companies meeting none are absent. `scope` restricts the criteria (a condition
 * on alias `c`, its values already in `params`).
 */
export function companyLevels(p: MatchProfile, params: Params, scope?: string): string {
  const identifiers = identifierDimension(p, params);
  // The expression is written exactly as the index's, so the planner matches it to the index.
  const keys = `discovery.match_keys(c.countries, c.professions, c.specialties) && ${params.add(matchKeys(p))}::text[]`;
  const ok = and([keys, identifiers.ok, scope ?? null]);
  const full = and([
    scalarFull('countries', p.countryCode),
    scalarFull('professions', p.professionId),
    scalarFull('specialties', p.specialtyId),
    identifiers.full,
  ]);
  return `select c.company_id, max(case when ${full} then 2 else 1 end) as level
    from discovery_criterion c
    where ${ok}
    group by c.company_id`;
}

/** Levels of the given companies for the profile (absent companies: none), in one statement. */
export async function levelsFor(em: EntityManager, p: MatchProfile, companyIds: number[]): Promise<Map<number, Level>> {
  const levels = new Map<number, Level>(companyIds.map((id) => [id, LEVEL.none]));
  if (!companyIds.length) return levels;
  const params = new Params();
  const text = companyLevels(p, params, `c.company_id = any(${params.add(companyIds)}::int[])`);
  const rows = await runSql<{ company_id: number; level: number }>(em, text, params.values, { prepared: true });
  for (const row of rows) levels.set(row.company_id, Number(row.level) as Level);
  return levels;
}
