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
 * twice (when clocks go back) is its first occurrence. Both are luxon's documented behaviour.
 */
export function localToUtc(localDateTime: string, zone: string): Date {
  const dt = DateTime.fromISO(localDateTime, { zone });
  if (!dt.isValid) throw new Error(`Invalid local date-time ${localDateTime} in ${zone}`);
  return dt.toJSDate();
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
