/**
 * Ranges whose ends are too bare for the other readers: years ("between 2019 and 2021", "2019-2021"),
 * months ("between March and May 2024", "March–May"), and days of one month ("between 5 and 10 May",
 * "from May 5 to 10"). Each is one window from the start of the first end to the end of the last; a
 * side without a year takes the other side's, and a range without any resolves as a whole like "in
 * May". "and" joins only after "between" ("March and May" names two months, not a range).
 */
import { daysInMonth, type TimeWindow } from './calendar.js';
import { type Found, type ParseContext, MONTH, MONTH_INDEX, NOT_A_QUANTITY, YEAR, push, resolveYearless } from './temporal-patterns.js';

const OPENER = '(?:(between|from)\\s+(?:the\\s+)?)?';
const JOINER = '\\s*(and|to|until|till|through|thru|-|–|—)\\s*';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';

const YEAR_RANGE = new RegExp(`\\b${OPENER}(?:years?\\s+)?${YEAR}${JOINER}${YEAR}\\b(?![\\s/.-]*\\d)${NOT_A_QUANTITY}`, 'g');
const MONTH_RANGE = new RegExp(`\\b${OPENER}${MONTH}(?:,?\\s+${YEAR})?${JOINER}${MONTH}(?:,?\\s+${YEAR})?\\b(?![\\s,]*\\d)`, 'g');
const DAYS_BEFORE_MONTH = new RegExp(`\\b${OPENER}${DAY}${JOINER}${DAY}(?:\\s+of)?\\s+${MONTH}(?:,?\\s+${YEAR})?\\b(?![\\s,:]*\\d)`, 'g');
const DAYS_AFTER_MONTH = new RegExp(
  `\\b${OPENER}${MONTH}\\s+${DAY}${JOINER}${DAY}\\b(?:,?\\s+${YEAR}\\b)?(?![\\s,:]*\\d|\\s*(?:am|pm|[ap]\\.m\\.|h\\b|hours?|o'clock))`,
  'g',
);

/** Whether the joiner makes a range here: "and" only after "between", "from" not before "and". */
function joins(opener: string | undefined, joiner: string | undefined): boolean {
  if (joiner === 'and') return opener === 'between';
  return opener !== 'between';
}

function monthOf(name: string | undefined): number {
  return MONTH_INDEX[(name ?? '').slice(0, 3)] ?? 1;
}

/** The years of a range's two ends when either is written: the missing one is the nearest that keeps the order. */
function yearsOf(first: string | undefined, last: string | undefined, wrapsYear: boolean): [number, number] | null {
  if (first !== undefined && last !== undefined) return [Number(first), Number(last)];
  if (last !== undefined) return [Number(last) - (wrapsYear ? 1 : 0), Number(last)];
  if (first !== undefined) return [Number(first), Number(first) + (wrapsYear ? 1 : 0)];
  return null;
}

function findYearRanges(context: ParseContext, found: Found[]): void {
  const { calendar } = context;
  for (const match of context.lower.matchAll(YEAR_RANGE)) {
    const [, opener, first = '', joiner, last = ''] = match;
    // a bare "1500-2000" is more often an amount than years: bare ranges need years that read as recent
    if (opener === undefined && !/^(?:19|20)\d\d$/.test(first)) continue;
    if (!joins(opener, joiner) || Number(last) < Number(first)) continue;
    push(found, match, { start: calendar.year(Number(first)).start, end: calendar.year(Number(last)).end }, context);
  }
}

function findMonthRanges(context: ParseContext, found: Found[]): void {
  const { calendar } = context;
  for (const match of context.lower.matchAll(MONTH_RANGE)) {
    const [, opener, firstName, firstYear, joiner, lastName, lastYear] = match;
    if (!joins(opener, joiner)) continue;
    // "may" is also a verb: a range ending in it needs an opener or a year ("March to may" is not one)
    if (opener === undefined && lastYear === undefined && joiner !== '-' && joiner !== '–' && joiner !== '—') continue;
    const firstMonth = monthOf(firstName);
    const lastMonth = monthOf(lastName);
    const wraps = lastMonth < firstMonth;
    const build = (year: number): TimeWindow => ({
      start: calendar.month(year, firstMonth).start,
      end: calendar.month(wraps ? year + 1 : year, lastMonth).end,
    });
    const years = yearsOf(firstYear, lastYear, wraps);
    const window =
      years === null
        ? resolveYearless(build, context, context.direction(match.index ?? 0), false)
        : { start: calendar.month(years[0], firstMonth).start, end: calendar.month(years[1], lastMonth).end };
    if (window.start < window.end) push(found, match, window, context);
  }
}

function findDayRanges(context: ParseContext, found: Found[]): void {
  const { calendar } = context;
  const dayRange = (match: RegExpMatchArray, parts: (string | undefined)[]): void => {
    const [opener, firstDay, joiner, lastDay, name, year] = parts;
    if (!joins(opener, joiner)) return;
    const month = monthOf(name);
    const first = Number(firstDay);
    const last = Number(lastDay);
    const build = (y: number): TimeWindow => calendar.days({ year: y, month, day: first }, last - first + 1);
    if (first < 1 || last <= first || last > daysInMonth(year !== undefined ? Number(year) : 2024, month)) return;
    const window = year !== undefined ? build(Number(year)) : resolveYearless(build, context, context.direction(match.index ?? 0), false);
    push(found, match, window, context);
  };
  for (const match of context.lower.matchAll(DAYS_BEFORE_MONTH)) dayRange(match, match.slice(1));
  for (const match of context.lower.matchAll(DAYS_AFTER_MONTH)) {
    const [, opener, name, firstDay, joiner, lastDay, year] = match;
    dayRange(match, [opener, firstDay, joiner, lastDay, name, year]);
  }
}

/** Adds every range of bare years, months or days of a month to `found`. */
export function findRanges(context: ParseContext, found: Found[]): void {
  findYearRanges(context, found);
  findMonthRanges(context, found);
  findDayRanges(context, found);
}
