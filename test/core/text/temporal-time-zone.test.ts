/**
 * Date windows in an IANA time zone: each boundary takes the zone's offset at that instant, so
 * "yesterday" asked the day after a daylight-saving change is that whole local day (23 or 25 hours),
 * where one fixed offset is an hour off at one end.
 */
import { describe, expect, it } from 'vitest';
import { parseTemporalExpression } from '../../../src/core/text/index.js';
import { isTimeZone, zoneOffsetMs } from '../../../src/core/text/time-zone.js';

const HOUR = 3_600_000;

/** The wall-clock time of an instant in a zone, "YYYY-MM-DD HH:MM:SS" (sv-SE prints ISO-like). */
function wallOf(timeZone: string, instant: number): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone, dateStyle: 'short', timeStyle: 'medium' }).format(instant);
}

/** An instant given as a wall-clock time in a zone, found by the formatter (not by the code under test). */
function instantOf(timeZone: string, wall: string): number {
  const guess = Date.parse(`${wall.replace(' ', 'T')}Z`);
  for (let offsetMinutes = -14 * 60; offsetMinutes <= 14 * 60; offsetMinutes += 15) {
    const instant = guess - offsetMinutes * 60_000;
    if (wallOf(timeZone, instant) === wall) return instant;
  }
  throw new Error(`${wall} does not occur in ${timeZone}`);
}

// the day after each 2026 change: spring forward (a 23-hour day) and fall back (a 25-hour day)
const CHANGES = [
  { zone: 'America/New_York', yesterday: '2026-03-08', today: '2026-03-09', hours: 23 },
  { zone: 'America/New_York', yesterday: '2026-11-01', today: '2026-11-02', hours: 25 },
  { zone: 'Europe/Lisbon', yesterday: '2026-03-29', today: '2026-03-30', hours: 23 },
  { zone: 'Europe/Lisbon', yesterday: '2026-10-25', today: '2026-10-26', hours: 25 },
] as const;

describe('dates in an IANA time zone across a daylight-saving change', () => {
  it.each(CHANGES)('"yesterday" asked in $zone on $today is the whole local $yesterday ($hours h)', ({ zone, yesterday, today, hours }) => {
    for (const askedAt of ['00:30:00', '10:00:00', '23:30:00']) {
      const asked = instantOf(zone, `${today} ${askedAt}`);
      const window = parseTemporalExpression('yesterday', asked, { timeZone: zone });
      expect(window, askedAt).not.toBeNull();
      expect(wallOf(zone, window?.start ?? 0), askedAt).toBe(`${yesterday} 00:00:00`);
      expect(wallOf(zone, window?.end ?? 0), askedAt).toBe(`${today} 00:00:00`);
      expect((window?.end ?? 0) - (window?.start ?? 0), askedAt).toBe(hours * HOUR);
      // one fixed offset (the zone's when asked) puts the start an hour off
      const fixed = parseTemporalExpression('yesterday', asked, { timezoneOffsetMinutes: zoneOffsetMs(zone, asked) / 60_000 });
      expect(Math.abs((fixed?.start ?? 0) - (window?.start ?? 0)), askedAt).toBe(HOUR);
      expect(fixed?.end, askedAt).toBe(window?.end);
    }
  });

  it.each(CHANGES)('weeks, weekends and months that span the change in $zone start and end at local midnights', ({ zone, today }) => {
    const asked = instantOf(zone, `${today} 12:00:00`);
    for (const query of ['last weekend', 'this week', 'last week', 'this month', 'the last week of March', 'the last weekend of October']) {
      const window = parseTemporalExpression(query, asked, { timeZone: zone });
      expect(window, query).not.toBeNull();
      expect(wallOf(zone, window?.start ?? 0).slice(11), `${query} start`).toBe('00:00:00');
      expect(wallOf(zone, window?.end ?? 0).slice(11), `${query} end`).toBe('00:00:00');
    }
    const since = parseTemporalExpression('since yesterday', asked, { timeZone: zone });
    expect(wallOf(zone, since?.end ?? 0)).toMatch(/ 00:00:00$/);
  });

  it('starts quarters and halves at local midnight, and reads which has started on the local date', () => {
    const zone = 'America/New_York';
    // 02:00 UTC on 1 October is still 30 September in New York: Q3 is current there, Q4 has not started
    const asked = Date.parse('2026-10-01T02:00:00Z');
    const expected: Array<[string, string, string]> = [
      ['this quarter', '2026-07-01', '2026-10-01'],
      ['in Q3', '2026-07-01', '2026-10-01'],
      ['in Q4', '2025-10-01', '2026-01-01'],
      ['Q1 2026', '2026-01-01', '2026-04-01'],
      ['H2 2026', '2026-07-01', '2027-01-01'],
      ['the first half of 2026', '2026-01-01', '2026-07-01'],
      ['the fourth quarter of 2026', '2026-10-01', '2027-01-01'],
    ];
    for (const [query, start, end] of expected) {
      const window = parseTemporalExpression(query, asked, { timeZone: zone });
      expect(window, query).not.toBeNull();
      expect(wallOf(zone, window?.start ?? 0), `${query} start`).toBe(`${start} 00:00:00`);
      expect(wallOf(zone, window?.end ?? 0), `${query} end`).toBe(`${end} 00:00:00`);
    }
    // in UTC the same instant is already in Q4
    expect(parseTemporalExpression('in Q4', asked)?.start).toBe(Date.UTC(2026, 9, 1));
  });

  it('starts a day whose midnight is skipped at the instant the clocks jump to', () => {
    // Chile moves its clocks from 00:00 to 01:00 on the first Sunday of September
    const zone = 'America/Santiago';
    const skipped = ['2026-09-06', '2026-09-07'] as const;
    const asked = instantOf(zone, `${skipped[1]} 12:00:00`);
    const window = parseTemporalExpression('yesterday', asked, { timeZone: zone });
    expect(wallOf(zone, window?.start ?? 0)).toBe(`${skipped[0]} 01:00:00`);
    expect(wallOf(zone, (window?.start ?? 0) - 1)).toMatch(/^2026-09-05 23:59:59/);
    expect(wallOf(zone, window?.end ?? 0)).toBe(`${skipped[1]} 00:00:00`);
  });

  it('reads a day in a zone without daylight saving as the fixed offset does', () => {
    const asked = Date.parse('2026-03-30T19:00:00Z'); // 00:30 on 31 March in India
    expect(parseTemporalExpression('what did we do yesterday', asked, { timeZone: 'Asia/Kolkata' })).toEqual(
      parseTemporalExpression('what did we do yesterday', asked, { timezoneOffsetMinutes: 330 }),
    );
  });

  it('knows IANA zones and nothing else', () => {
    for (const zone of ['Europe/Lisbon', 'america/new_york', 'UTC', 'Asia/Calcutta']) expect(isTimeZone(zone), zone).toBe(true);
    for (const zone of ['Europe/Atlantis', '', '+05:30', 'x'.repeat(200)]) expect(isTimeZone(zone), zone).toBe(false);
  });
});
