/**
 * Calendar windows [start, end) in epoch ms on a wall clock: a fixed UTC offset, or an IANA time zone
 * whose offset changes (daylight saving), each boundary taking the offset the zone has at that instant.
 * All arithmetic runs on "wall" dates through `Date.UTC`, so results never depend on the machine's time zone.
 */
import { dictionary } from './dictionary.js';
import { zoneInstant, zoneOffsetMs } from './time-zone.js';

/** A calendar date on the wall clock: month 1..12, day 1..31 (overflow normalises, as in `Date.UTC`). */
export interface WallDate {
  year: number;
  month: number;
  day: number;
}

/** A half-open time window in epoch ms. */
export interface TimeWindow {
  start: number;
  end: number;
}

/** Milliseconds in a day without a daylight-saving shift (a wall day in a time zone may be 23 or 25 hours). */
export const DAY_MS = 86_400_000;

const SEASON_START_MONTH: Readonly<Record<string, number>> = dictionary({ spring: 3, summer: 6, autumn: 9, fall: 9, winter: 12 });

/** Days in a month (1..12, overflow normalises). */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether a year has a 29 February (proleptic Gregorian). */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The nearest leap year from `year` (itself included) going `step` years at a time: 1 forward, -1 back. */
export function leapYearFrom(year: number, step: 1 | -1): number {
  let leap = year;
  while (!isLeapYear(leap)) leap += step;
  return leap;
}

/** A wall date moved by whole months, its day clamped to the new month (31 March less a month is 29 February, not 2 March). */
export function addMonths(date: WallDate, months: number): WallDate {
  const first = new Date(Date.UTC(date.year, date.month - 1 + months, 1));
  const year = first.getUTCFullYear();
  const month = first.getUTCMonth() + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** The wall clock dates are read on: an IANA time zone ("Europe/Lisbon"), else a fixed offset in minutes east of UTC (default 0). */
export interface WallClock {
  timeZone?: string;
  timezoneOffsetMinutes?: number;
}

/** Window arithmetic for one wall clock. */
export class Calendar {
  readonly #timeZone: string | undefined;
  readonly #offsetMs: number;

  /** A `timeZone` the runtime does not know throws a RangeError on first use: validate it first (`isTimeZone`). */
  constructor(clock: WallClock = {}) {
    this.#timeZone = clock.timeZone;
    this.#offsetMs = (clock.timezoneOffsetMinutes ?? 0) * 60_000;
  }

  /** The instant's wall-clock time, its fields read as UTC (ms). */
  wallTimeOf(instant: number): number {
    return instant + (this.#timeZone === undefined ? this.#offsetMs : zoneOffsetMs(this.#timeZone, instant));
  }

  /** The wall date of an instant. */
  dateOf(instant: number): WallDate {
    const shifted = new Date(this.wallTimeOf(instant));
    return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
  }

  /** Midnight at the start of a wall date, in epoch ms (in a time zone, with the offset it has at that midnight). */
  startOf(date: WallDate): number {
    const wall = Date.UTC(date.year, date.month - 1, date.day);
    return this.#timeZone === undefined ? wall - this.#offsetMs : zoneInstant(this.#timeZone, wall);
  }

  /** The whole wall day of a date. */
  day(date: WallDate): TimeWindow {
    return { start: this.startOf(date), end: this.startOf({ ...date, day: date.day + 1 }) };
  }

  /** Days [first, first + count) starting at a wall date. */
  days(first: WallDate, count: number): TimeWindow {
    return { start: this.startOf(first), end: this.startOf({ ...first, day: first.day + count }) };
  }

  /** The whole calendar month (1..12, overflow normalises). */
  month(year: number, month: number): TimeWindow {
    return { start: this.startOf({ year, month, day: 1 }), end: this.startOf({ year, month: month + 1, day: 1 }) };
  }

  /** Months [first, first + count). */
  months(year: number, firstMonth: number, count: number): TimeWindow {
    return { start: this.startOf({ year, month: firstMonth, day: 1 }), end: this.startOf({ year, month: firstMonth + count, day: 1 }) };
  }

  /** The whole calendar year. */
  year(year: number): TimeWindow {
    return this.months(year, 1, 12);
  }

  /** The Monday-to-Sunday week containing a wall date, shifted by whole weeks. */
  week(date: WallDate, shiftWeeks = 0): TimeWindow {
    const weekday = new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay();
    const monday = date.day - ((weekday + 6) % 7) + 7 * shiftWeeks;
    return this.days({ ...date, day: monday }, 7);
  }

  /** A window of `width` days centred on a wall date ("two weeks before X" is about then, not exactly). */
  around(date: WallDate, width: number): TimeWindow {
    const before = Math.floor((width - 1) / 2);
    return this.days({ ...date, day: date.day - before }, width);
  }

  /** The season that starts in `year` (winter runs December to February). */
  season(name: string, year: number): TimeWindow {
    return this.months(year, SEASON_START_MONTH[name] ?? 1, 3);
  }
}
