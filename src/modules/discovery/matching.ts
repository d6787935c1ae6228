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
// level are evaluated on those rows only. The rule's SQL is one fragment (discovery.queries.ts
// companyLevels), one text for every profile (a value the user has not given is a null parameter),
// shared by levelsFor and the recommended companies. The statements are prepared: the user's
// values are parameters, planned once per connection, which saved a quarter of the statement's
// PostgreSQL CPU (docs/performance.md); the plan stays a bitmap scan of that index
// (test/discovery/scale.test.ts checks the plan PostgreSQL keeps for all values).
import type { EntityManager } from '@mikro-orm/core';
import { matchLevels, type MatchParams } from './discovery.queries';
import { LEVEL, type Level } from './discovery.types';

export interface MatchProfile {
  uId: number;
  countryCode?: string | null;
  professionId?: number | null;
  specialtyId?: number | null;
}

/** The user's keys for `discovery.match_keys`. */
export function matchKeys(p: MatchProfile): string[] {
  const parts = [p.countryCode, p.professionId, p.specialtyId].map((v) => (v === null || v === undefined ? ['?'] : [String(v), '*']));
  return parts.reduce<string[]>((acc, options) => acc.flatMap((prefix) => options.map((o) => (prefix ? `${prefix}|${o}` : o))), ['']);
}

/** The profile as the matching's parameters (discovery.queries.ts). */
export function matchParams(p: MatchProfile): MatchParams {
  return {
    uId: p.uId,
    countryCode: p.countryCode ?? null,
    professionId: p.professionId ?? null,
    specialtyId: p.specialtyId ?? null,
    keys: matchKeys(p),
  };
}

/** Levels of the given companies for the profile (absent companies: none), in one statement. */
export async function levelsFor(em: EntityManager, p: MatchProfile, companyIds: number[]): Promise<Map<number, Level>> {
  const levels = new Map<number, Level>(companyIds.map((id) => [id, LEVEL.none]));
  if (!companyIds.length) return levels;
  const rows = await matchLevels.run(em, { ...matchParams(p), companyIds });
  for (const row of rows) levels.set(row.companyId, Number(row.level) as Level);
  return levels;
}
