/**
 * Date expressions in queries and stored texts, as windows [start, end) in epoch ms.
 *
 * chrono-node (English casual parser) finds most expressions; a few patterns it misses or sizes badly
 * are handled first: "last/this/next week|weekend|month|quarter|year", "past 3 days", "last May",
 * "in (early|mid|late) May [2023]", "in 2023", seasons ("last summer", "winter 2022"), quarters and
 * halves ("in Q3", "Q3 2025", "the third quarter of 2025", "H1 2026", "the second half of the year":
 * `temporal-quarters.ts`) and a yearless 29 February (`temporal-leap-day.ts`). The window is as
 * wide as what the expression names: a day, a Monday-to-Sunday week, a month, a quarter, a season, a
 * year. Offsets in weeks ("two weeks before 8 May 2023", "3 weeks ago") give a 7-day window centred on
 * the target day; "the week before X" is the 7 days before X. "since X" runs from X to the end of the
 * reference day; "from X to Y" and "between X and Y" join the two windows, and ranges of bare years,
 * months or days ("between 2019 and 2021", "March–May 2024", "between 5 and 10 May") are read whole by
 * `temporal-ranges.ts`. A year is any of 1000-2999 after a date word, never one followed by a unit ("in 1500 ms").
 *
 * An expression without a year or a modifier ("in June", "on 8 May", "on Friday") resolves to the most
 * recent such date not after the reference time for queries (one recalls the past; a month or quarter
 * under way counts). In stored texts the same holds unless the sentence speaks of the future ("will",
 * "going to", "planned", "due"), where it resolves to the next one; 29 February goes to the nearest
 * leap year that way. Wall-clock dates are read in an IANA time zone, each window boundary
 * taking the zone's offset at that instant, or at a fixed UTC offset (default 0). Text with
 * Chinese characters is also read by the Chinese rules of `temporal-zh.ts`.
 */
import type * as ChronoEn from 'chrono-node/en';
import type { ParsedResult } from 'chrono-node';
import { lazyRequire } from './lazy-require.js';
import { addMonths, Calendar, daysInMonth, leapYearFrom, type TimeWindow, type WallDate } from './calendar.js';
import { type Direction, type Found, type ParseContext, findPatterns, resolveYearless } from './temporal-patterns.js';
import { findLeapDays } from './temporal-leap-day.js';
import { findQuarters } from './temporal-quarters.js';
import { findRanges } from './temporal-ranges.js';
import { findChinese } from './temporal-zh.js';

/** chrono-node loads on the first date parsed (~0.25-0.5 s), not when the engine is imported. */
const chronoEn = lazyRequire<typeof ChronoEn>('chrono-node/en');

/** A date expression found in text and the time window it names. */
export interface TemporalWindow {
  /** Inclusive start, epoch ms. */
  start: number;
  /** Exclusive end, epoch ms. */
  end: number;
  /** The expression as written. */
  text: string;
}

/** Options for reading dates: the wall clock of "yesterday" and "in May". */
export interface TemporalOptions {
  /** IANA time zone ("Europe/Lisbon") whose offset, daylight saving included, each boundary takes; it wins over `timezoneOffsetMinutes`. */
  timeZone?: string;
  /** Minutes east of UTC, one fixed offset for every boundary; default 0 (UTC). */
  timezoneOffsetMinutes?: number;
}

/**
 * Words without which neither chrono nor the patterns find an expression: a digit, a day word, a time
 * unit, a weekday, a month, a season (whole words; "last", "next" or "this" alone name no time). Text
 * without any is not parsed: the parse costs ~0.1 ms a text, and recall's mention channel reads a
 * hundred or more candidates' texts per dated query. (A prefix test, "\bmar", "\bday", "\bsun", let
 * "market", "daylight" and "sunny" through.)
 */
const TEMPORAL_HINT = new RegExp(
  [
    '\\d',
    '\\b(?:now|today|tonight|tonite|tomorrow|tmr|tmrw|yesterday|ago|noon|midnight|mornings?|afternoons?|evenings?|nights?',
    'sec(?:ond)?s?|min(?:ute)?s?|h(?:ou)?rs?|days?|weekends?|weeks?|wks?|fortnights?|months?|mos?|quarters?|qtrs?|years?|yrs?|decades?',
    '(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?',
    'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?',
    'spring|summer|autumn|fall|winter)\\b',
  ].join('|'),
  'i',
);
const HAN = /\p{Script=Han}/u;
const RANGE_JOINER = /^\s*(?:and|to|until|till|through|thru|-|–)\s*$/;
const RANGE_OPENER = /\b(?:between|from)\s*$/;
const SINCE_BEFORE = /\bsince\s*$/;
/** How far before a date "from"/"between" is looked for (they stand right before it). */
const LOOK_BACK_CHARS = 64;
/** How far before a date, within its sentence, a cue of the future is looked for. */
const FUTURE_CUE_CHARS = 240;
// "The conference is on Dec 10", "the table is booked for Friday": a present-tense date is one to come
const FUTURE_CUE =
  /\b(?:will|shall|going to|gonna|plans?|planned|planning|upcoming|scheduled|deadline|due|next|booked|reserved|appointment|(?:is|are)\s+(?:on|for|set for))\b|'ll\b|'s\s+on\b|\b(?:is|are)\s+$/;
const DURATION_LEAD = /^for\b/;
const DURATION_BEFORE = /\bfor\s+(?:about\s+|almost\s+|nearly\s+|over\s+|around\s+)?$/;
/** What a duration counts ("3 years", "a month", "a couple of weeks"): "for tomorrow" or "for Friday" names a day. */
const COUNTED =
  /^(?:for\s+)?(?:about\s+|almost\s+|nearly\s+|over\s+|around\s+)?(?:\d|an?\b|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|few|several|couple|many|some)/;
const RELATIVE_MODIFIER = /\b(?:last|next|this|coming|past|previous|ago|before|after|later|earlier|from now)\b/;

/** The unit an offset expression counts in ("two weeks before ..." → week), if any. */
function offsetUnit(text: string): string | undefined {
  return /\b(day|week|month|year)s?\b/.exec(text)?.[1];
}

/** How much text chrono reads in one call: it re-reads the rest of its text at every match. */
const CHRONO_SEGMENT_CHARS = 2000;

/**
 * chrono's results for `text`, each with its index in `text`. A long text is read in segments that end
 * at a sentence or line break (else at a space): chrono copies and re-scans the rest of its input at
 * every match, so 20,000 dates in one 200,000-character text took it half a minute.
 */
function chronoResults(text: string, reference: Date): Array<{ result: ParsedResult; index: number }> {
  const parse = (segment: string): ParsedResult[] => chronoEn().casual.parse(segment, reference);
  if (text.length <= CHRONO_SEGMENT_CHARS) return parse(text).map((result) => ({ result, index: result.index }));
  const results: Array<{ result: ParsedResult; index: number }> = [];
  for (let from = 0; from < text.length;) {
    let to = Math.min(text.length, from + CHRONO_SEGMENT_CHARS);
    if (to < text.length) {
      const window = text.slice(from, to);
      const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('\n'), window.lastIndexOf('! '), window.lastIndexOf('? '));
      const cut = sentence > CHRONO_SEGMENT_CHARS / 2 ? sentence + 1 : window.lastIndexOf(' ');
      if (cut > 0) to = from + cut;
    }
    for (const result of parse(text.slice(from, to))) results.push({ result, index: from + result.index });
    from = to;
  }
  return results;
}

function findWithChrono(context: ParseContext, found: Found[]): void {
  const { text, calendar, reference } = context;
  // chrono mixes the machine's local zone into some casual phrases ("last night"), so it is handed a
  // reference whose local fields are the wall clock, and its components are read back as wall fields
  const wall = new Date(calendar.wallTimeOf(reference));
  const localReference = new Date(
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate(),
    wall.getUTCHours(),
    wall.getUTCMinutes(),
    wall.getUTCSeconds(),
  );
  for (const { result, index } of chronoResults(text, localReference)) {
    const start = result.start;
    const lowerText = result.text.toLowerCase();
    // "for 3 years", "for about a month": a duration, not a date chrono would put that far ahead
    const duration = DURATION_LEAD.test(lowerText) || DURATION_BEFORE.test(context.lower.slice(Math.max(0, index - 16), index));
    if (duration && COUNTED.test(lowerText)) continue;
    let date: WallDate = { year: start.get('year') ?? 1970, month: start.get('month') ?? 1, day: start.get('day') ?? 1 };
    const direction = context.direction(index);
    const explicit = RELATIVE_MODIFIER.test(lowerText);
    const unit = result.tags().has('result/relativeDate') ? offsetUnit(lowerText) : undefined;
    if (unit === 'month' || unit === 'year') date = clampRollover(date, calendar.dateOf(reference).day);
    let window: TimeWindow;
    if (start.isCertain('day') || start.isCertain('weekday') || !start.isCertain('month')) {
      if (!start.isCertain('year') && !explicit && (start.isCertain('day') || start.isCertain('weekday'))) {
        const today = calendar.startOf(calendar.dateOf(reference));
        if (direction === 'past' && calendar.startOf(date) > today)
          date = start.isCertain('day') ? yearOver(date, -1) : { ...date, day: date.day - 7 };
        // chrono reads a yearless day or weekday as the nearest, before or after: one that has passed is the next one
        else if (direction === 'future' && calendar.startOf(date) < today)
          date = start.isCertain('day') ? yearOver(date, 1) : { ...date, day: date.day + 7 };
      }
      window = calendar.day(date);
      const adjacent = /^the\s+(week|month|year)\s+(before|after)\b/.exec(lowerText);
      if (adjacent !== null) {
        // chrono points one unit away from X; "the week before X" covers everything up to X
        const unitName = adjacent[1] ?? 'week';
        window =
          adjacent[2] === 'before'
            ? { start: window.start, end: spanEnd(calendar, date, unitName) }
            : { start: spanStart(calendar, date, unitName), end: window.end };
      } else if (unit === 'week') window = calendar.around(date, 7);
    } else if (start.isCertain('month')) {
      const build = (year: number): TimeWindow => calendar.month(year, date.month);
      window = start.isCertain('year') ? build(date.year) : resolveYearless(build, context, direction, false);
    } else window = calendar.year(date.year);
    const end = result.end;
    if (end !== undefined && end !== null) {
      const endDate = { year: end.get('year') ?? date.year, month: end.get('month') ?? date.month, day: end.get('day') ?? date.day };
      const last = end.isCertain('day') ? calendar.day(endDate) : calendar.month(endDate.year, endDate.month);
      window = joinWindows(window, last, context);
    }
    found.push({ index, text: result.text, start: window.start, end: window.end });
  }
}

/** The same day a year earlier or later; 29 February goes to the nearest leap year that way, never rolling into March. */
function yearOver(date: WallDate, step: 1 | -1): WallDate {
  const year = date.month === 2 && date.day === 29 ? leapYearFrom(date.year + step, step) : date.year + step;
  return { ...date, year };
}

/** End of the span that starts at `date` and lasts one unit. */
function spanEnd(calendar: Calendar, date: WallDate, unit: string): number {
  if (unit === 'week') return calendar.days(date, 7).end;
  return calendar.startOf(addMonths(date, unit === 'month' ? 1 : 12));
}

/** Start of the span that ends with the day `date` and lasts one unit. */
function spanStart(calendar: Calendar, date: WallDate, unit: string): number {
  if (unit === 'week') return calendar.startOf({ ...date, day: date.day - 6 });
  const back = addMonths(date, unit === 'month' ? -1 : -12);
  return calendar.startOf({ ...back, day: back.day + 1 });
}

/**
 * chrono moves a date by months or years on a JavaScript Date, so the 31st less a month, or 29 February
 * less a year, rolls over into the next month; such a date is the last day of the month it left.
 */
function clampRollover(date: WallDate, referenceDay: number): WallDate {
  if (date.day >= referenceDay) return date;
  const previous = addMonths({ ...date, day: 1 }, -1);
  return { ...previous, day: daysInMonth(previous.year, previous.month) };
}

/** Keeps the longest of overlapping expressions, then joins ranges and applies "since". */
function settle(found: Found[], context: ParseContext): TemporalWindow[] {
  const byLength = [...found].sort((left, right) => right.text.length - left.text.length || left.index - right.index);
  const kept: Found[] = [];
  // the characters a kept expression covers: an overlap is read off them, not by comparing every pair
  // (a text of 20,000 dates compared 200 million pairs)
  const covered = new Uint8Array(context.text.length + 1);
  for (const candidate of byLength) {
    const end = candidate.index + candidate.text.length;
    let overlaps = false;
    for (let at = candidate.index; at < end && !overlaps; at++) overlaps = covered[at] === 1;
    if (overlaps) continue;
    covered.fill(1, candidate.index, end);
    kept.push(candidate);
  }
  kept.sort((left, right) => left.index - right.index);
  const settled: Found[] = [];
  for (const current of kept) {
    const previous = settled[settled.length - 1];
    if (previous !== undefined) {
      const between = context.text.slice(previous.index + previous.text.length, current.index);
      const opener =
        RANGE_OPENER.test(context.lower.slice(Math.max(0, previous.index - LOOK_BACK_CHARS), previous.index)) ||
        /^(?:between|from)\b/i.test(previous.text);
      if (RANGE_JOINER.test(between) && (opener || /to|until|till|through|thru|-|–/.test(between))) {
        settled[settled.length - 1] = {
          index: previous.index,
          text: context.text.slice(previous.index, current.index + current.text.length),
          ...joinWindows(previous, current, context),
        };
        continue;
      }
    }
    settled.push(current);
  }
  const today = context.calendar.day(context.calendar.dateOf(context.reference));
  return settled.map(({ index, text, start, end }) => {
    const since = SINCE_BEFORE.test(context.lower.slice(Math.max(0, index - 8), index)) || /^since\b/i.test(text);
    return since && start < today.end ? { start, end: today.end, text } : { start, end, text };
  });
}

/**
 * One window from the first's start to the last's end. A first end that would begin after the last
 * ends (a yearless "March" read as this year before "May 2024") moves back whole years, end and all.
 */
function joinWindows(first: TimeWindow, last: TimeWindow, context: ParseContext): TimeWindow {
  const { calendar } = context;
  let { start, end } = first;
  for (let back = 1; start >= last.end && end > start; back += 1) {
    const startDate = calendar.dateOf(first.start);
    const endDate = calendar.dateOf(first.end);
    start = calendar.startOf(addMonths(startDate, -12 * back));
    end = calendar.startOf(addMonths(endDate, -12 * back));
  }
  return { start, end: Math.max(last.end, end) };
}

function findAll(text: string, reference: number, options: TemporalOptions, direction: (index: number) => Direction): TemporalWindow[] {
  const english = TEMPORAL_HINT.test(text);
  const chinese = HAN.test(text);
  if (!english && !chinese) return [];
  const clock =
    options.timeZone !== undefined ? { timeZone: options.timeZone } : { timezoneOffsetMinutes: options.timezoneOffsetMinutes ?? 0 };
  const context: ParseContext = { text, lower: text.toLowerCase(), reference, calendar: new Calendar(clock), direction };
  const found: Found[] = [];
  if (english) {
    findRanges(context, found);
    // before the patterns: "Q3 2025" ties with "in 2025" inside "in 2025 Q3", and the first found wins a tie
    findQuarters(context, found);
    findLeapDays(context, found);
    findPatterns(context, found);
    findWithChrono(context, found);
  }
  if (chinese) findChinese(context, found);
  return settle(found, context);
}

/**
 * The first date expression in a query as a window [start, end) relative to `referenceTime`
 * (epoch ms), or null when the query names no time; yearless dates resolve to the past, unless the
 * query asks about what is to come ("what's planned for Thursday?", "what is due on Friday?").
 * @example parseTemporalExpression('what did we do last May?', Date.UTC(2024, 2, 15)) // { start: Date.UTC(2023, 4, 1), end: Date.UTC(2023, 5, 1), text: 'last May' }
 */
export function parseTemporalExpression(query: string, referenceTime: number, options: TemporalOptions = {}): TemporalWindow | null {
  const direction: Direction = asksAhead(query) ? 'future' : 'past';
  return findAll(query, referenceTime, options, () => direction)[0] ?? null;
}

/** Words of a question about what is to come ("what's planned for Thursday?", "what is due on Friday?"). */
const AHEAD_CUE =
  /\b(?:will|shall|going to|gonna|planned|planning|plans?|upcoming|coming up|scheduled|due|deadline|booked|reserved|agenda)\b|'ll\b/i;
/** …unless it asks in the past tense ("what was planned for Thursday?"). */
const PAST_TENSE_QUESTION = /\b(?:did|was|were|had)\b/i;

/** Whether a query asks about what is to come: a yearless date in it then resolves forward. */
function asksAhead(query: string): boolean {
  return AHEAD_CUE.test(query) && !PAST_TENSE_QUESTION.test(query);
}

/**
 * Every date expression in a stored text, in order, as windows relative to `referenceTime` (when the
 * text was written); a yearless date resolves forward when its sentence speaks of the future.
 * @example extractDates('We moved to Berlin in June 2021 and will visit Paris next week', Date.UTC(2024, 2, 15)).length // 2
 */
export function extractDates(text: string, referenceTime: number, options: TemporalOptions = {}): TemporalWindow[] {
  const lower = text.toLowerCase();
  const direction = (index: number): Direction => {
    // the cue is near the date, in its sentence: a text without a full stop is not read back to its start
    // at every date (20,000 dates in 200,000 characters took 28 s)
    const before = lower.slice(Math.max(0, index - FUTURE_CUE_CHARS), index);
    const sentenceStart = Math.max(before.lastIndexOf('.'), before.lastIndexOf('!'), before.lastIndexOf('?'), before.lastIndexOf('\n'));
    return FUTURE_CUE.test(before.slice(sentenceStart + 1)) ? 'future' : 'past';
  };
  return findAll(text, referenceTime, options, direction);
}
