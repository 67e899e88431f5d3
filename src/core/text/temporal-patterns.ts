/**
 * Date patterns that chrono-node misses or sizes badly: calendar periods ("last week", "this quarter",
 * "the past 3 days"), months with a modifier or preposition ("last May", "in early June 2023"), years
 * ("in 2023", "late 2022") and seasons ("last summer", "winter 2022").
 */
import { addMonths, type Calendar, type TimeWindow } from './calendar.js';
import { dictionary } from './dictionary.js';

/** A date expression found at `index` of the text, with its window. */
export interface Found {
  index: number;
  text: string;
  start: number;
  end: number;
}

/** Which way a yearless date resolves from the reference time. */
export type Direction = 'past' | 'future';

/** What the finders need to know about one parse. */
export interface ParseContext {
  text: string;
  lower: string;
  reference: number;
  calendar: Calendar;
  direction: (index: number) => Direction;
}

export const MONTH_INDEX: Readonly<Record<string, number>> = dictionary({
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  sept: 9,
  oct: 10,
  nov: 11,
  dec: 12,
});
export const MONTH =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?';
const PREPOSITION = '(?:in|during|since|until|till|by|of|from|between|before|after|throughout|through|around|over)';
const PART = '(early|mid|late)';
/** A four-digit year, 1000-2999; where a bare number could be a quantity, `NOT_A_QUANTITY` follows it. */
export const YEAR = '([12]\\d{3})';
/** After a number (or a range of them): no unit that makes it a quantity ("in 1500 ms", "between 1500 and 2000 ms", "2500 dollars"). */
export const NOT_A_QUANTITY = `(?!(?:\\s*(?:and|or|to|-|–)\\s*\\d[\\d,.]*)?\\s*(?:%|percent\\b|x\\b|(?:ms|msecs?|millis(?:econds?)?|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|yrs?|kb|mb|gb|tb|k?bps|hz|mhz|ghz|rpm|mm|cm|m|km|kms|kilomet(?:er|re)s?|met(?:er|re)s?|miles?|mi|ft|feet|foot|inch(?:es)?|kg|kgs|g|grams?|kilos?|lbs?|pounds?|ounces?|oz|ml|l|lit(?:er|re)s?|cal|kcal|calories|dollars?|bucks|usd|eur|euros?|gbp|yen|cents?|items|units|words|pages|lines|rows|records|steps|points|votes|views|tokens|requests|files|times)\\b))`;
const COUNT_WORDS: Readonly<Record<string, number>> = dictionary({
  a: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  'couple of': 2,
  few: 3,
  several: 4,
});

const PERIOD_PATTERN = /\b(last|this|next|previous|coming|current)\s+(week|weekend|month|quarter|year)\b/g;
const ROLLING_PATTERN =
  /\b(?:the\s+)?(past|last|previous)\s+(\d{1,3}|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|couple(?: of)?|few|several)\s+(day|week|month|quarter|year)s?\b/g;
const PAST_PERIOD_PATTERN = /\b(?:the\s+)?past\s+(week|month|quarter|year)\b/g;
const MODIFIED_MONTH_PATTERN = new RegExp(`\\b(last|this|next|previous|coming)\\s+${MONTH}(?!\\s*\\d)`, 'g');
const MONTH_PATTERN = new RegExp(`\\b${PREPOSITION}\\s+(?:the\\s+)?(?:${PART}[\\s-]+)?${MONTH}(?:,?\\s+${YEAR})?\\b(?![\\s,]*\\d)`, 'g');
const PART_MONTH_PATTERN = new RegExp(`\\b${PART}[\\s-]+${MONTH}(?:,?\\s+${YEAR})?\\b(?![\\s,]*\\d)`, 'g');
const YEAR_PATTERN = new RegExp(`\\b(?:${PREPOSITION}|year)\\s+(?:${PART}[\\s-]+)?${YEAR}\\b(?![\\s/.-]*\\d)${NOT_A_QUANTITY}`, 'g');
const PART_YEAR_PATTERN = new RegExp(`\\b${PART}[\\s-]+${YEAR}\\b(?![\\s/.-]*\\d)${NOT_A_QUANTITY}`, 'g');
const ORDINAL = '(first|second|third|fourth|fifth|last|final|1st|2nd|3rd|4th|5th)';
/** "the first week of 2024", "the second weekend of May", "the last week of June 2023". */
const ORDINAL_WEEK_PATTERN = new RegExp(
  `\\b(?:the\\s+)?${ORDINAL}\\s+(week|weekend)\\s+(?:of|in)\\s+(?:(?:${MONTH})(?:,?\\s+${YEAR})?|${YEAR})\\b(?![\\s,]*\\d)`,
  'g',
);
const ORDINAL_INDEX: Readonly<Record<string, number>> = dictionary({
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  '5th': 5,
});
const SEASON_PATTERN = new RegExp(
  `\\b(?:(last|this|next|previous|past)\\s+|${PREPOSITION}\\s+(?:the\\s+)?(?:${PART}[\\s-]+)?)?(spring|summer|autumn|fall|winter)(?:\\s+(?:of\\s+)?${YEAR}${NOT_A_QUANTITY})?\\b`,
  'g',
);

function countOf(word: string): number {
  return COUNT_WORDS[word] ?? Number.parseInt(word, 10);
}

/** Narrows a window to the early, mid or late third of a month or year. */
function partOf(window: TimeWindow, part: string | undefined, calendar: Calendar, unitMonths: boolean): TimeWindow {
  if (part === undefined) return window;
  const first = calendar.dateOf(window.start);
  if (unitMonths) {
    const offset = part === 'early' ? 0 : part === 'mid' ? 4 : 8;
    return calendar.months(first.year, 1 + offset, 4);
  }
  if (part === 'early') return calendar.days(first, 10);
  if (part === 'mid') return calendar.days({ ...first, day: 11 }, 10);
  return { start: calendar.startOf({ ...first, day: 21 }), end: window.end };
}

/** The instance of a month (or season) nearest the reference in the preferred direction. */
export function resolveYearless(
  build: (year: number) => TimeWindow,
  context: ParseContext,
  direction: Direction,
  strict: boolean,
): TimeWindow {
  const { reference, calendar } = context;
  const thisYear = calendar.dateOf(reference).year;
  const candidates = [thisYear - 2, thisYear - 1, thisYear, thisYear + 1].map(build);
  if (direction === 'past') {
    const past = candidates.filter((window) => (strict ? window.end <= reference : window.start <= reference));
    return past[past.length - 1] ?? candidates[0] ?? build(thisYear);
  }
  return candidates.find((window) => (strict ? window.start > reference : window.end > reference)) ?? build(thisYear);
}

export function push(found: Found[], match: RegExpMatchArray, window: TimeWindow, context: ParseContext): void {
  const index = match.index ?? 0;
  found.push({ index, text: context.text.slice(index, index + match[0].length), start: window.start, end: window.end });
}

function findPeriods(context: ParseContext, found: Found[]): void {
  const { lower, calendar, reference } = context;
  const today = calendar.dateOf(reference);
  for (const match of lower.matchAll(PERIOD_PATTERN)) {
    const [, modifier = 'this', unit = 'week'] = match;
    const shift = modifier === 'last' || modifier === 'previous' ? -1 : modifier === 'next' || modifier === 'coming' ? 1 : 0;
    let window: TimeWindow;
    if (unit === 'week') window = calendar.week(today, shift);
    else if (unit === 'weekend') {
      const monday = calendar.dateOf(calendar.week(today, shift).start);
      window = calendar.days({ ...monday, day: monday.day + 5 }, 2);
    } else if (unit === 'month') window = calendar.month(today.year, today.month + shift);
    else if (unit === 'quarter') window = calendar.months(today.year, Math.floor((today.month - 1) / 3) * 3 + 1 + 3 * shift, 3);
    else window = calendar.year(today.year + shift);
    push(found, match, window, context);
  }
  const rolling = (match: RegExpMatchArray, count: number, unit: string): void => {
    let first = { ...today };
    if (unit === 'day') first.day -= count;
    else if (unit === 'week') first.day -= 7 * count;
    else first = addMonths(today, -count * (unit === 'month' ? 1 : unit === 'quarter' ? 3 : 12));
    push(found, match, { start: calendar.startOf(first), end: calendar.day(today).end }, context);
  };
  for (const match of lower.matchAll(ROLLING_PATTERN)) rolling(match, countOf(match[2] ?? '1'), match[3] ?? 'day');
  for (const match of lower.matchAll(PAST_PERIOD_PATTERN)) rolling(match, 1, match[1] ?? 'week');
}

function findMonths(context: ParseContext, found: Found[]): void {
  const { lower, calendar } = context;
  for (const match of lower.matchAll(MODIFIED_MONTH_PATTERN)) {
    const [, modifier = 'this', name = ''] = match;
    const month = MONTH_INDEX[name.slice(0, 3)] ?? 1;
    const build = (year: number): TimeWindow => calendar.month(year, month);
    const window =
      modifier === 'this'
        ? build(calendar.dateOf(context.reference).year)
        : resolveYearless(build, context, modifier === 'next' || modifier === 'coming' ? 'future' : 'past', true);
    push(found, match, window, context);
  }
  const monthMatch = (match: RegExpMatchArray, part: string | undefined, name: string, year: string | undefined): void => {
    const month = MONTH_INDEX[name.slice(0, 3)] ?? 1;
    const build = (y: number): TimeWindow => calendar.month(y, month);
    const window = year !== undefined ? build(Number(year)) : resolveYearless(build, context, context.direction(match.index ?? 0), false);
    push(found, match, partOf(window, part, calendar, false), context);
  };
  for (const match of lower.matchAll(MONTH_PATTERN)) monthMatch(match, match[1], match[2] ?? '', match[3]);
  for (const match of lower.matchAll(PART_MONTH_PATTERN)) monthMatch(match, match[1], match[2] ?? '', match[3]);
}

function findYearsAndSeasons(context: ParseContext, found: Found[]): void {
  const { lower, calendar } = context;
  for (const match of lower.matchAll(YEAR_PATTERN))
    push(found, match, partOf(calendar.year(Number(match[2])), match[1], calendar, true), context);
  for (const match of lower.matchAll(PART_YEAR_PATTERN))
    push(found, match, partOf(calendar.year(Number(match[2])), match[1], calendar, true), context);
  for (const match of lower.matchAll(SEASON_PATTERN)) {
    const [whole, modifier, part, name = 'summer', year] = match;
    const hasPreposition = modifier === undefined && whole.trim() !== name && !whole.startsWith(name);
    if (modifier === undefined && year === undefined && !hasPreposition) continue;
    const build = (y: number): TimeWindow => calendar.season(name, y);
    let window: TimeWindow;
    if (year !== undefined) window = build(Number(year));
    else if (modifier === 'this') {
      const today = calendar.dateOf(context.reference);
      const startYear = name === 'winter' && today.month < 3 ? today.year - 1 : today.year;
      window = build(startYear);
    } else if (modifier === 'next') window = resolveYearless(build, context, 'future', true);
    else if (modifier !== undefined) window = resolveYearless(build, context, 'past', true);
    else window = resolveYearless(build, context, context.direction(match.index ?? 0), false);
    if (part !== undefined) {
      const first = calendar.dateOf(window.start);
      const offset = part === 'early' ? 0 : part === 'mid' ? 1 : 2;
      window = calendar.months(first.year, first.month + offset, 1);
    }
    push(found, match, window, context);
  }
}

/**
 * "The n-th week of" a month or year is its n-th run of seven days from the 1st ("the first week of
 * 2024" is 1-7 January), "the last week" its final seven days; "the n-th weekend" is the n-th Saturday
 * and Sunday that start in it. A month without a year resolves like "in May".
 */
function findOrdinalWeeks(context: ParseContext, found: Found[]): void {
  const { lower, calendar } = context;
  for (const match of lower.matchAll(ORDINAL_WEEK_PATTERN)) {
    const [, ordinal = 'first', unit = 'week', monthName, monthYear, bareYear] = match;
    const last = ordinal === 'last' || ordinal === 'final';
    const n = ORDINAL_INDEX[ordinal] ?? 1;
    const span =
      monthName !== undefined
        ? monthYear !== undefined
          ? calendar.month(Number(monthYear), MONTH_INDEX[monthName.slice(0, 3)] ?? 1)
          : resolveYearless(
              (y) => calendar.month(y, MONTH_INDEX[monthName.slice(0, 3)] ?? 1),
              context,
              context.direction(match.index ?? 0),
              false,
            )
        : calendar.year(Number(bareYear));
    const first = calendar.dateOf(span.start);
    // the last millisecond is on the last day, whatever that day's length (23 or 25 hours when clocks change)
    const lastDay = calendar.dateOf(span.end - 1);
    let window: TimeWindow;
    if (unit === 'week') {
      window = last ? calendar.days({ ...lastDay, day: lastDay.day - 6 }, 7) : calendar.days({ ...first, day: 1 + 7 * (n - 1) }, 7);
    } else {
      const weekday = new Date(Date.UTC(first.year, first.month - 1, first.day)).getUTCDay();
      const firstSaturday = 1 + ((6 - weekday + 7) % 7);
      if (last) {
        const lastWeekday = new Date(Date.UTC(lastDay.year, lastDay.month - 1, lastDay.day)).getUTCDay();
        const back = (lastWeekday - 6 + 7) % 7; // days back to the last Saturday
        window = calendar.days({ ...lastDay, day: lastDay.day - back }, 2);
      } else window = calendar.days({ ...first, day: firstSaturday + 7 * (n - 1) }, 2);
    }
    if (window.start >= span.end) continue; // "the fifth weekend" of a month that has four
    push(found, match, window, context);
  }
}

/** Adds every pattern-based expression of the text to `found`. */
export function findPatterns(context: ParseContext, found: Found[]): void {
  findOrdinalWeeks(context, found);
  findPeriods(context, found);
  findMonths(context, found);
  findYearsAndSeasons(context, found);
}
