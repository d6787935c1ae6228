// Wall-clock times in IANA zones (the scheduler's local send times, the events' local times):
// a time skipped by daylight saving moves forward by the gap, a time that occurs twice is its
// earlier instant, and an instant's wall clock converts back to the same wall clock.
import fc from 'fast-check';
import { DateTime, IANAZone, Settings } from 'luxon';
// The one import of the module (it is moving to src/core): change it here only.
import { isValidZone, localTimestamp, localToUtc, offsetMinutesAt, parseLocalDateTime } from '../../src/core/zoned-time';

const SYDNEY = 'Australia/Sydney';
const LONDON = 'Europe/London';
const HOUR = 3_600_000;
/** Days on which the scheduler may run: northern winter (Sydney on summer time) and northern summer. */
const TODAYS = ['2026-01-15T00:00:00Z', '2026-07-15T00:00:00Z'];

/** The wall clock of an instant in a zone, as `YYYY-MM-DDTHH:mm:ss`. */
const wallClock = (instant: Date, zone: string) => localTimestamp(instant, zone).toISOString().slice(0, 19);

/** Runs fn as if today were `iso` (luxon reads the current time through Settings.now). */
function on<T>(iso: string, fn: () => T): T {
  const real = Settings.now;
  Settings.now = () => Date.parse(iso);
  try {
    return fn();
  } finally {
    Settings.now = real;
  }
}

describe('localToUtc around daylight saving', () => {
  it('an ordinary time: 09:00 in Sydney is 22:00 UTC the day before in summer (UTC+11), 23:00 in winter (UTC+10)', () => {
    expect(localToUtc('2035-03-31T09:00', SYDNEY).toISOString()).toBe('2035-03-30T22:00:00.000Z');
    expect(localToUtc('2035-04-01T09:00', SYDNEY).toISOString()).toBe('2035-03-31T23:00:00.000Z');
  });

  it.each(TODAYS)('a time in the gap moves forward by the gap (run on %s)', (today) => {
    on(today, () => {
      // 02:30 on 7 October 2035 does not exist in Sydney (02:00 -> 03:00): it is 03:30 AEDT.
      const instant = localToUtc('2035-10-07T02:30', SYDNEY);
      expect(instant.toISOString()).toBe('2035-10-06T16:30:00.000Z');
      expect(wallClock(instant, SYDNEY)).toBe('2035-10-07T03:30:00');
      // The last minute before the gap and the first after it are one minute apart.
      expect(localToUtc('2035-10-07T03:00', SYDNEY).getTime() - localToUtc('2035-10-07T01:59', SYDNEY).getTime()).toBe(60_000);
      // 01:30 on 29 March 2020 does not exist in London (01:00 -> 02:00): it is 02:30 BST.
      expect(localToUtc('2020-03-29T01:30', LONDON).toISOString()).toBe('2020-03-29T01:30:00.000Z');
    });
  });

  it('a time in the overlap is its earlier instant, whatever the day the code runs on', () => {
    for (const today of TODAYS) {
      on(today, () => {
        // 02:30 on 1 April 2035 happens twice in Sydney: first on summer time (UTC+11).
        const sydney = localToUtc('2035-04-01T02:30', SYDNEY);
        expect({ today, sydney: sydney.toISOString() }).toEqual({ today, sydney: '2035-03-31T15:30:00.000Z' });
        expect(offsetMinutesAt(sydney, SYDNEY)).toBe(660);
        // 01:30 on 25 October 2020 happens twice in London: first on BST (UTC+1).
        expect({ today, london: localToUtc('2020-10-25T01:30', LONDON).toISOString() }).toEqual({
          today,
          london: '2020-10-25T00:30:00.000Z',
        });
      });
    }
  });

  it('the two instants of a time that occurs twice are an hour apart and read the same wall clock', () => {
    const first = new Date('2035-03-31T15:30:00Z');
    const second = new Date(first.getTime() + HOUR);
    expect([wallClock(first, SYDNEY), wallClock(second, SYDNEY)]).toEqual(['2035-04-01T02:30:00', '2035-04-01T02:30:00']);
    expect([offsetMinutesAt(first, SYDNEY), offsetMinutesAt(second, SYDNEY)]).toEqual([660, 600]);
  });
});

describe('round trip', () => {
  const ZONES = ['Australia/Sydney', 'Australia/Lord_Howe', 'Europe/London', 'America/New_York', 'Asia/Kolkata', 'UTC'];

  it.each(TODAYS)(
    "an instant's wall clock converts back to it, or, in an overlap, to the earlier instant with the same wall clock (property, run on %s)",
    (today) => {
      const seconds = fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2040, 0, 1) / 1000 });
      on(today, () =>
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
        ),
      );
    },
  );

  it("the local timestamp is the instant plus the zone's offset at that instant", () => {
    const summer = new Date('2027-01-07T07:00:00Z');
    expect(offsetMinutesAt(summer, SYDNEY)).toBe(660);
    expect(localTimestamp(summer, SYDNEY).getTime()).toBe(Date.UTC(2027, 0, 7, 18));
    expect(offsetMinutesAt(new Date('2025-04-10T08:00:00Z'), SYDNEY)).toBe(600);
  });
});

describe('offsets cached per zone and UTC day', () => {
  // offsetMinutesAt keeps each zone's offset per UTC day, and the instant of a change on the day
  // it happens. Each case below asks one side of a change first (filling that day's entry) and then
  // the other side, so a day cached as a single offset, or a change put at the wrong instant,
  // answers wrongly.
  const at = (ms: number, zone: string) => offsetMinutesAt(new Date(ms), zone);
  const luxon = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).offset;

  it.each([
    // Sydney starts summer time at 02:00 AEST (UTC+10 -> UTC+11) and ends it at 03:00 AEDT.
    ['Australia/Sydney', '2035-10-06T16:00:00.000Z', 600, 660],
    ['Australia/Sydney', '2035-03-31T16:00:00.000Z', 660, 600],
    // New York: negative offsets, spring forward at 02:00 EST and fall back at 02:00 EDT.
    ['America/New_York', '2026-03-08T07:00:00.000Z', -300, -240],
    ['America/New_York', '2026-11-01T06:00:00.000Z', -240, -300],
    // Lord Howe moves by half an hour: UTC+11 -> UTC+10:30 in April, back in October.
    ['Australia/Lord_Howe', '2026-04-04T15:00:00.000Z', 660, 630],
    ['Australia/Lord_Howe', '2026-10-03T15:30:00.000Z', 630, 660],
  ])('%s changes at %s, to the millisecond, from %p to %p minutes', (zone, iso, before, after) => {
    const change = Date.parse(iso);
    // After the change first, then before it, then after again: every answer from the one cached day.
    expect([at(change, zone), at(change - 1, zone), at(change + 1, zone)]).toEqual([after, before, after]);
    // The day's ends and the hour either side.
    const dayStart = Math.floor(change / 86_400_000) * 86_400_000;
    expect([at(dayStart, zone), at(change - HOUR, zone), at(change + HOUR, zone), at(dayStart + 86_400_000 - 1, zone)]).toEqual([
      before,
      before,
      after,
      after,
    ]);
  });

  it('a day asked first before its change, then after it, answers both sides', () => {
    // New York's fall-back day of 2027 (06:00 UTC on 7 November), not asked by any case above.
    const change = Date.parse('2027-11-07T06:00:00.000Z');
    expect(at(change - 1, 'America/New_York')).toBe(-240);
    expect(at(change, 'America/New_York')).toBe(-300);
    expect(at(change - 1, 'America/New_York')).toBe(-240);
  });

  it("a day's offsets are computed once: asking again does not format through luxon's zone", () => {
    const zone = 'Europe/Paris';
    const change = Date.parse('2031-03-30T01:00:00.000Z');
    expect(at(change - 1, zone)).toBe(60);
    const spy = jest.spyOn(IANAZone.prototype, 'offset');
    try {
      const answers = [at(change, zone), at(change - 1, zone), at(change - HOUR / 2, zone), at(change + 5 * HOUR, zone)];
      expect(answers).toEqual([120, 60, 60, 120]);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it("equals luxon's direct answer over a sweep of instants in zones with and without daylight saving", () => {
    const zones = [
      'Australia/Sydney',
      'Australia/Lord_Howe',
      'America/New_York',
      'America/St_Johns',
      'America/Santiago',
      'Pacific/Chatham',
      'Europe/London',
      'Asia/Kolkata',
      'UTC',
    ];
    // Every 5 h 11 min 7 s (plus a few milliseconds) over 2025 and 2026: every day, at drifting times of day.
    const from = Date.UTC(2025, 0, 1);
    const to = Date.UTC(2027, 0, 1);
    const mismatches: string[] = [];
    for (const zone of zones) {
      for (let ms = from, i = 0; ms < to; ms += 18_667_000 + (i++ % 7)) {
        if (at(ms, zone) !== luxon(ms, zone)) mismatches.push(`${zone} ${new Date(ms).toISOString()}`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("equals luxon's direct answer at any millisecond from 1970 to 2100 (property)", () => {
    const zones = ['Australia/Sydney', 'Australia/Lord_Howe', 'America/New_York', 'Europe/London', 'America/Sao_Paulo', 'Asia/Tehran'];
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2100, 0, 1) }), fc.constantFrom(...zones), (ms, zone) => {
        expect(at(ms, zone)).toBe(luxon(ms, zone));
      }),
      { numRuns: 5000 },
    );
  });

  it('a zone luxon does not know has no offset, as with luxon; UTC is 0', () => {
    expect(at(0, 'Mars/Olympus')).toBeNaN();
    expect(luxon(0, 'Mars/Olympus')).toBeNaN();
    expect(at(Date.UTC(2030, 6, 1), 'UTC')).toBe(0);
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
