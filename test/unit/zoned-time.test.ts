// Wall-clock times in IANA zones (the scheduler's local send times, the events' local times):
// a time skipped by daylight saving moves forward by the gap, a time that occurs twice is its
// earlier instant, and an instant's wall clock converts back to it.
import fc from 'fast-check';
// The one import of the module (it is moving to src/core): change it here only.
import { isValidZone, localTimestamp, localToUtc, offsetMinutesAt, parseLocalDateTime } from '../../src/core/zoned-time';

const SYDNEY = 'Australia/Sydney';
const HOUR = 3_600_000;

/** The wall clock of an instant in a zone, as `YYYY-MM-DDTHH:mm:ss`. */
const wallClock = (instant: Date, zone: string) => localTimestamp(instant, zone).toISOString().slice(0, 19);

describe('localToUtc around daylight saving in Sydney', () => {
  it('an ordinary time: 09:00 is 22:00 UTC the day before in summer (UTC+11), 23:00 in winter (UTC+10)', () => {
    expect(localToUtc('2035-03-31T09:00', SYDNEY).toISOString()).toBe('2035-03-30T22:00:00.000Z');
    expect(localToUtc('2035-04-01T09:00', SYDNEY).toISOString()).toBe('2035-03-31T23:00:00.000Z');
  });

  it('a time in the gap (02:30 on 7 October 2035 does not exist) moves forward by the gap, to 03:30 AEDT', () => {
    const instant = localToUtc('2035-10-07T02:30', SYDNEY);
    expect(instant.toISOString()).toBe('2035-10-06T16:30:00.000Z');
    expect(wallClock(instant, SYDNEY)).toBe('2035-10-07T03:30:00');
    // The last minute before the gap and the first after it are an instant apart.
    expect(localToUtc('2035-10-07T03:00', SYDNEY).getTime() - localToUtc('2035-10-07T01:59', SYDNEY).getTime()).toBe(60_000);
  });

  it('a time in the overlap (02:30 on 1 April 2035 happens twice) is the earlier instant, still on summer time', () => {
    const instant = localToUtc('2035-04-01T02:30', SYDNEY);
    expect(instant.toISOString()).toBe('2035-03-31T15:30:00.000Z');
    expect(offsetMinutesAt(instant, SYDNEY)).toBe(660);
    // An hour later the wall clock reads 02:30 again, on standard time.
    const second = new Date(instant.getTime() + HOUR);
    expect(wallClock(second, SYDNEY)).toBe('2035-04-01T02:30:00');
    expect(offsetMinutesAt(second, SYDNEY)).toBe(600);
  });
});

describe('round trip', () => {
  const ZONES = ['Australia/Sydney', 'Australia/Lord_Howe', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'UTC'];

  it("an instant's wall clock converts back to it, or, in an overlap, to the earlier instant with the same wall clock (property)", () => {
    const seconds = fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 });
    fc.assert(
      fc.property(seconds, fc.constantFrom(...ZONES), (s, zone) => {
        const instant = new Date(s * 1000);
        const wall = wallClock(instant, zone);
        const back = localToUtc(wall, zone);
        expect(wallClock(back, zone)).toBe(wall);
        // Lord Howe shifts by half an hour, the others by an hour.
        expect([0, HOUR / 2, HOUR]).toContain(instant.getTime() - back.getTime());
      }),
      { numRuns: 2000 },
    );
  });

  it("the local timestamp is the instant plus the zone's offset at that instant", () => {
    const summer = new Date('2027-01-07T07:00:00Z');
    expect(offsetMinutesAt(summer, SYDNEY)).toBe(660);
    expect(localTimestamp(summer, SYDNEY).getTime()).toBe(Date.UTC(2027, 0, 7, 18));
    expect(offsetMinutesAt(new Date('2025-04-10T08:00:00Z'), SYDNEY)).toBe(600);
  });
});

describe('parseLocalDateTime and isValidZone', () => {
  it.each([
    ['2035-03-31T09:00', '2035-03-31T09:00:00'],
    ['2035-03-31T09:00:15', '2035-03-31T09:00:15'],
    ['2024-02-29T23:59', '2024-02-29T23:59:00'],
  ])('%p is %p', (value, canonical) => {
    expect(parseLocalDateTime(value)).toBe(canonical);
  });

  it.each([
    '2023-02-29T10:00',
    '2035-13-01T09:00',
    '2035-03-31T25:00',
    '2035-03-31T09:60',
    '2035-03-31 09:00',
    '2035-03-31T09:00Z',
    '2035-03-31T9:00',
    '',
  ])('%p is not a local date-time', (value) => {
    expect(parseLocalDateTime(value)).toBeNull();
  });

  it('knows IANA zones, not invented names', () => {
    expect(isValidZone(SYDNEY)).toBe(true);
    expect(isValidZone('Pacific/Auckland')).toBe(true);
    expect(isValidZone('Mars/Olympus')).toBe(false);
    expect(isValidZone('')).toBe(false);
  });
});
