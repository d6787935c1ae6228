// Country, subdivision and time-zone reference data. Nothing here is typed by hand:
// names and codes come from i18n-iso-countries, iso-3166 and countries-and-timezones,
// offsets and zone names from the runtime's ICU, so upgrading a package or Node
// updates the data. Results are cached per process because they are static data,
// not per-request state; rows are frozen so a caller cannot corrupt the cache.
// i18n-iso-countries' main module registers all of its 80 languages (23,000 objects of live heap,
// docs/performance.md); the names shown are English, so only that language is registered.
const countries = require('i18n-iso-countries/index') as typeof import('i18n-iso-countries');
countries.registerLocale(require('i18n-iso-countries/langs/en.json') as import('i18n-iso-countries').LocaleData);
// iso-3166 is ESM-only. Node 24 loads it synchronously through require(esm) (it has no
// top-level await), and TypeScript's nodenext mode compiles this import to require().
import { iso31661, iso31662 } from 'iso-3166';
import { getAllTimezones, getTimezonesForCountry } from 'countries-and-timezones';

export type Country = { countryCode: string; countryName: string };

export type State = { stateCode: string; stateName: string; countryCode: string };

export type Timezone = {
  timezoneId: string;
  timezoneName: string;
  timezoneDSTName: string;
  offsetHours: number;
  dstOffsetHours: number;
  offsetMinutes: number;
  dstOffsetMinutes: number;
};

const ALPHA2 = /^[A-Za-z]{2}$/;

// Names are shown to people, so sort them as English speakers expect ("Åland" near "Albania").
const byName = new Intl.Collator('en').compare;

/**
 * Upper-cased code for a two-letter ASCII string; null when absent (undefined, null or '');
 * 'invalid' for anything else. Does not check that the code is assigned.
 */
export function normaliseCountryCode(input: unknown): Uppercase<string> | null | 'invalid' {
  // GraphQL hands an omitted nullable argument over as null, so treat it like undefined.
  if (input === undefined || input === null || input === '') return null;
  if (typeof input !== 'string' || !ALPHA2.test(input)) return 'invalid';
  return input.toUpperCase() as Uppercase<string>;
}

// ---------------------------------------------------------------------------------------
// Countries

let countryCache: { list: readonly Country[]; names: ReadonlyMap<string, string> } | undefined;

function countryData(): NonNullable<typeof countryCache> {
  if (!countryCache) {
    const english = countries.getNames('en', { select: 'official' });
    // iso-3166 decides which codes exist: i18n-iso-countries also carries XK (Kosovo),
    // which is a user-assigned code, not an ISO 3166-1 one.
    const list = iso31661
      .map(({ alpha2, name }) => Object.freeze({ countryCode: alpha2, countryName: english[alpha2] ?? name }))
      .sort((a, b) => byName(a.countryName, b.countryName) || (a.countryCode < b.countryCode ? -1 : 1));
    countryCache = { list, names: new Map(list.map((c) => [c.countryCode, c.countryName])) };
  }
  return countryCache;
}

/** All ISO 3166-1 alpha-2 countries with English names, sorted by name. */
export function listCountries(): Country[] {
  return countryData().list.slice();
}

/** English name of an ISO 3166-1 alpha-2 code (any case), or null. */
export function countryName(code: string): string | null {
  // Checked first because i18n-iso-countries would also resolve alpha-3 and numeric codes.
  if (typeof code !== 'string' || !ALPHA2.test(code)) return null;
  return countryData().names.get(code.toUpperCase()) ?? null;
}

// ---------------------------------------------------------------------------------------
// Subdivisions (ISO 3166-2)

let stateCache: { byCountry: ReadonlyMap<string, readonly State[]>; names: ReadonlyMap<string, string> } | undefined;

function stateData(): NonNullable<typeof stateCache> {
  if (!stateCache) {
    const byCountry = new Map<string, State[]>();
    const names = new Map<string, string>();
    // Every level is kept (e.g. French regions and departments), since each is a valid
    // ISO 3166-2 code; the code part after the dash is 1 to 3 characters long.
    for (const { code, name } of iso31662) {
      const dash = code.indexOf('-');
      const countryCode = code.slice(0, dash);
      const state = Object.freeze({ stateCode: code.slice(dash + 1), stateName: name, countryCode });
      const list = byCountry.get(countryCode) ?? [];
      list.push(state);
      byCountry.set(countryCode, list);
      names.set(code, name);
    }
    // Some countries reuse a name on two levels (a division and its district), so the
    // code breaks ties to keep the order stable.
    for (const list of byCountry.values()) {
      list.sort((a, b) => byName(a.stateName, b.stateName) || (a.stateCode < b.stateCode ? -1 : 1));
    }
    stateCache = { byCountry, names };
  }
  return stateCache;
}

/** ISO 3166-2 subdivisions of a country (any case), sorted by name; [] if none or unknown. */
export function listStates(countryCode: string): State[] {
  const code = normaliseCountryCode(countryCode);
  if (code === null || code === 'invalid') return [];
  return stateData().byCountry.get(code)?.slice() ?? [];
}

/** Name of a subdivision given its country and the code part after the dash (any case), or null. */
export function stateName(countryCode: string, stateCode: string): string | null {
  const code = normaliseCountryCode(countryCode);
  if (code === null || code === 'invalid' || typeof stateCode !== 'string') return null;
  return stateData().names.get(`${code}-${stateCode.toUpperCase()}`) ?? null;
}

// ---------------------------------------------------------------------------------------
// Time zones

const DAY_MS = 86_400_000;
// 'longOffset' gives "GMT+05:30", "GMT-03:30", or "GMT"/"GMT+00:00" at zero.
const LONG_OFFSET = /GMT(?:([+-])(\d{1,2}):(\d{2})(?::\d{2})?)?$/;

function acceptedByIntl(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function offsetAt(format: Intl.DateTimeFormat, instant: number, timeZone: string): number {
  const match = LONG_OFFSET.exec(format.format(instant));
  // A wrong offset would be served silently, so fail loudly if ICU changes its format.
  if (!match) throw new Error(`Unexpected UTC offset format for time zone ${timeZone}`);
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

function longName(format: Intl.DateTimeFormat, instant: number): string {
  return format.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

// Math.trunc(-30 / 60) is -0; keep it a plain 0 for clients.
function wholeHours(minutes: number): number {
  return Math.trunc(minutes / 60) || 0;
}

function describeZone(timeZone: string, year: number): Timezone {
  const offsets = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  let min = Infinity;
  let max = -Infinity;
  let minAt = 0;
  let maxAt = 0;
  // One sample a day at 12:00 UTC: no DST period is shorter than a day, so none is
  // missed (Morocco's Ramadan hour is a few weeks), and it costs ~0.2 s for all zones.
  for (let t = Date.UTC(year, 0, 1, 12); t < Date.UTC(year + 1, 0, 1); t += DAY_MS) {
    const offset = offsetAt(offsets, t, timeZone);
    if (offset < min) [min, minAt] = [offset, t];
    if (offset > max) [max, maxAt] = [offset, t];
  }
  // The lower offset counts as standard even where tzdata says otherwise (Europe/Dublin
  // and Africa/Casablanca model their lower offset as "negative DST").
  const dst = max - min;
  const names = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'long' });
  const standardName = longName(names, minAt);
  return Object.freeze({
    timezoneId: timeZone,
    timezoneName: standardName,
    timezoneDSTName: dst === 0 ? standardName : longName(names, maxAt),
    offsetHours: wholeHours(min),
    dstOffsetHours: wholeHours(dst),
    offsetMinutes: min,
    dstOffsetMinutes: dst,
  });
}

function canonicalZoneIds(): string[] {
  // Intl.supportedValuesOf alone will not do: V8 reports CLDR ids (Asia/Calcutta, not
  // Asia/Kolkata). countries-and-timezones lists IANA's canonical zones (links are
  // hidden unless asked for), Etc/UTC, Etc/GMT and Etc/GMT±N included.
  const ids = new Set<string>();
  for (const zone of Object.values(getAllTimezones())) if (!zone.aliasOf) ids.add(zone.name);
  // A zone newer than the package's data but already in ICU is still listed.
  const known = getAllTimezones({ deprecated: true });
  for (const id of Intl.supportedValuesOf('timeZone')) if (!(id in known)) ids.add(id);
  // Drops tzdata's placeholder "Factory" zone, which ICU rejects.
  return [...ids].filter(acceptedByIntl).sort();
}

let zoneCache: { year: number; list: readonly Timezone[]; byId: ReadonlyMap<string, Timezone> } | undefined;

function zoneData(): NonNullable<typeof zoneCache> {
  // Offsets and DST are those of the current year, so rebuild once when the year turns.
  const year = new Date().getUTCFullYear();
  if (zoneCache?.year !== year) {
    const list = canonicalZoneIds().map((id) => describeZone(id, year));
    zoneCache = { year, list, byId: new Map(list.map((zone) => [zone.timezoneId, zone])) };
  }
  return zoneCache;
}

/**
 * Canonical IANA time zones, sorted by id, with this year's standard offset and DST.
 * With a country code (any case): that country's zones; [] for an unknown or malformed
 * code; an empty code counts as absent.
 */
export function listTimezones(countryCode?: string): Timezone[] {
  const code = normaliseCountryCode(countryCode);
  const { list, byId } = zoneData();
  if (code === null) return list.slice();
  if (code === 'invalid') return [];
  return (getTimezonesForCountry(code) ?? [])
    .map((zone) => byId.get(zone.name))
    .filter((zone): zone is Timezone => zone !== undefined)
    .sort((a, b) => (a.timezoneId < b.timezoneId ? -1 : 1));
}

let validZoneIds: ReadonlySet<string> | undefined;

/**
 * True for an exact (case-sensitive) IANA zone id the runtime can use: canonical zones
 * and their links (Asia/Calcutta, UTC, US/Eastern). Rejects offsets such as "+05:00"
 * and case variants, which Intl would accept but are not zone ids.
 */
export function isValidTimezone(id: string): boolean {
  if (typeof id !== 'string') return false;
  if (!validZoneIds) {
    const candidates = new Set([...Object.keys(getAllTimezones({ deprecated: true })), ...Intl.supportedValuesOf('timeZone')]);
    validZoneIds = new Set([...candidates].filter(acceptedByIntl));
  }
  return validZoneIds.has(id);
}
