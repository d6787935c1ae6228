// Wall-clock times in IANA zones, through luxon (tzdata from the runtime's ICU), so daylight
// saving changes are handled by a maintained library rather than by offset arithmetic here.
// Asking luxon for a zone's offset formats the instant through Intl (about 5% of the events
// page's CPU when asked per row), so offsets are cached per zone and UTC day: see offsetAt.
import { DateTime, IANAZone, Info, type Zone } from 'luxon';

/** Local date-time as clients send and read it: no offset, seconds optional. */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

export function isValidZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** Parses `YYYY-MM-DDTHH:mm[:ss]` into its canonical `YYYY-MM-DDTHH:mm:ss` form; null when malformed. */
export function parseLocalDateTime(value: string): string | null {
  const m = LOCAL_DATE_TIME.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '00'] = m;
  const dt = DateTime.fromObject({ year: +y, month: +mo, day: +d, hour: +h, minute: +mi, second: +s }, { zone: 'UTC' });
  return dt.isValid ? `${y}-${mo}-${d}T${h}:${mi}:${s}` : null;
}

/**
 * The instant at which a wall-clock time occurs in a zone. A time skipped by a daylight-saving
 * change (02:30 on the night clocks go forward) moves forward by the gap; a time that occurs
 * twice (when clocks go back) is its first occurrence. Decided here from the zone's offsets a day
 * either side, not left to luxon, whose answer in an overlap depends on the day the code runs.
 */
export function localToUtc(localDateTime: string, zone: string): Date {
  const wall = DateTime.fromISO(localDateTime, { zone: 'UTC' });
  if (!wall.isValid || !IANAZone.isValidZone(zone)) throw new Error(`Invalid local date-time ${localDateTime} in ${zone}`);
  const asUtc = wall.toMillis();
  // Any change of offset near this wall clock lies between these two (zones change at most once a day).
  const before = offsetAt(asUtc - DAY_MS, zone);
  const after = offsetAt(asUtc + DAY_MS, zone);
  // An instant that reads this wall clock is the wall clock less the offset in force then.
  const readsWall = [before, after].map((o) => asUtc - o * 60_000).filter((t) => offsetAt(t, zone) * 60_000 === asUtc - t);
  // None: the wall clock was skipped; with the offset before the change it lands after the gap.
  return new Date(readsWall.length ? Math.min(...readsWall) : asUtc - before * 60_000);
}

const DAY_MS = 24 * 3_600_000;

/**
 * A zone's offset over one UTC day: a number when it holds all day, else the first millisecond
 * of the new offset with the offsets either side (a zone changes its offset at most once a day).
 */
type DayOffset = number | { at: number; before: number; after: number };

/** Per zone name: luxon's zone (null when luxon knows no such zone) and the offsets of the days asked so far. */
const zones = new Map<string, { zone: Zone | null; days: Map<number, DayOffset> }>();
/** Days cached over all zones. Past either bound the cache starts again (a century of one zone is 36,525 days; tzdata has ~600 zones). */
let cachedDays = 0;
const MAX_CACHED_DAYS = 50_000;
const MAX_ZONES = 2_000;

/**
 * UTC offset in minutes of the zone at epoch milliseconds `ms`: luxon's own answer
 * (`DateTime.fromMillis(ms, { zone }).offset`, NaN for an unknown zone), read from the cache.
 * A day whose two ends have the same offset has it throughout; otherwise the instant of the
 * change is found once by bisection to the millisecond.
 */
function offsetAt(ms: number, name: string): number {
  let entry = zones.get(name);
  if (!entry) {
    if (zones.size >= MAX_ZONES) {
      zones.clear();
      cachedDays = 0;
    }
    const zone = Info.normalizeZone(name);
    entry = { zone: zone.isValid ? zone : null, days: new Map() };
    zones.set(name, entry);
  }
  const { zone, days } = entry;
  if (!zone || !Number.isFinite(ms)) return NaN;
  if (zone.isUniversal) return zone.offset(ms);
  const day = Math.floor(ms / DAY_MS);
  let span = days.get(day);
  if (span === undefined) {
    span = dayOffset(zone, day * DAY_MS);
    if (++cachedDays > MAX_CACHED_DAYS) {
      for (const z of zones.values()) z.days.clear();
      cachedDays = 1;
    }
    days.set(day, span);
  }
  return typeof span === 'number' ? span : ms < span.at ? span.before : span.after;
}

function dayOffset(zone: Zone, start: number): DayOffset {
  const before = zone.offset(start);
  const after = zone.offset(start + DAY_MS - 1);
  if (before === after) return before;
  // offset(lo) is the old offset, offset(hi) the new one; hi ends on the first millisecond of the new.
  let lo = start;
  let hi = start + DAY_MS - 1;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (zone.offset(mid) === before) lo = mid;
    else hi = mid;
  }
  return { at: hi, before, after };
}

/** UTC offset of the zone at that instant, in minutes (e.g. 660 for Sydney in summer). */
export function offsetMinutesAt(instant: Date, zone: string): number {
  return offsetAt(instant.getTime(), zone);
}

/**
 * The wall-clock time of an instant in a zone, encoded as epoch milliseconds read as if the
 * wall clock were UTC: the legacy clients' "local timestamp" form (eLocalStartDateTime).
 */
export function localTimestamp(instant: Date, zone: string): Date {
  return new Date(instant.getTime() + offsetMinutesAt(instant, zone) * 60_000);
}
