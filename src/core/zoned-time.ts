// Wall-clock times in IANA zones, through luxon (tzdata from the runtime's ICU), so daylight
// saving changes are handled by a maintained library rather than by offset arithmetic here.
import { DateTime, IANAZone } from 'luxon';

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

function offsetAt(ms: number, zone: string): number {
  return DateTime.fromMillis(ms, { zone }).offset;
}

/** UTC offset of the zone at that instant, in minutes (e.g. 660 for Sydney in summer). */
export function offsetMinutesAt(instant: Date, zone: string): number {
  return DateTime.fromJSDate(instant, { zone }).offset;
}

/**
 * The wall-clock time of an instant in a zone, encoded as epoch milliseconds read as if the
 * wall clock were UTC: the legacy clients' "local timestamp" form (eLocalStartDateTime).
 */
export function localTimestamp(instant: Date, zone: string): Date {
  return new Date(instant.getTime() + offsetMinutesAt(instant, zone) * 60_000);
}
