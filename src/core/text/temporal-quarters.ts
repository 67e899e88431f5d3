/**
 * Quarters and halves of a year: codes ("Q3", "Q3 2025", "2025 Q3", "Q3'25", "H1 2026", "Q4 last
 * year") and words ("the third quarter of 2025", "the first half of 2025", "the second half of the
 * year"). Each window runs from local midnight on the 1st of its first month to the same at the end.
 *
 * A quarter without a year resolves like a month without one ("in June"): for a query the most recent
 * that has started by the reference time, the current one included (Q3 asked on 7 December 2026 is
 * July-September 2026, Q1 asked on 10 February 2026 is Q1 2026); in a stored text that speaks of the
 * future, the next that has not ended. "last Q3" / "next H1" skip the current one, as "last May" does.
 *
 * A code is a whole token: not inside a word or code ("SQ3L", "H1N1", "Q30") nor an HTML heading
 * ("<h1>", "</h1>", "h1 tags"). Without a year it needs a preposition or modifier before it ("in Q3",
 * "by H2", "last Q3") or another quarter beside it ("Q1 and Q3"), so a question numbered "Q1:" or a
 * car called a "Q3" is not a date. "The first half" without "of" a year names no time (of a match, of a
 * book); nor does "the first quarter of the game".
 */
import type { Calendar, TimeWindow } from './calendar.js';
import { dictionary } from './dictionary.js';
import { type Found, type ParseContext, NOT_A_QUANTITY, YEAR, push, resolveYearless } from './temporal-patterns.js';

// not "to" or "and": they join two periods into a range ("from Q3 2024 to Q1 2025"), which needs them between the two
const PREPOSITION = 'in|during|since|until|till|by|of|for|from|between|before|after|throughout|through|around|over';
const MODIFIER = 'last|this|next|previous|coming|current';
/** What may follow a period: a year (written, two-digit, or relative), else nothing. */
const YEAR_AFTER = `(?:(?:,?\\s+(?:of\\s+)?|\\s*[-/]\\s*)${YEAR}(?![.,]?\\d)${NOT_A_QUANTITY}|\\s?['’](\\d{2})(?!\\w)|\\s+(?:of\\s+)?(last|this|next)\\s+year\\b|\\s+of\\s+the\\s+year\\b)`;
/** "in the", "by", "last": what makes a bare code a date. */
const LEAD = `(?:\\b(?:(${PREPOSITION})\\s+(?:the\\s+)?|(${MODIFIER})\\s+))?`;
/** "Q3", "H1": not after a letter, digit or "<" / "</", not before one, ">" or a decimal ("SQ3L", "H1N1", "Q30", "<h1>", "Q3.5"). */
const CODE = '(?<![\\w<]|<\\/)(?:q([1-4])|h([12]))(?![\\w>]|[.,]\\d)';
const CODE_PATTERN = new RegExp(`${LEAD}(?:\\b${YEAR}(?:\\s+|\\s*[-/]\\s*))?${CODE}(?:${YEAR_AFTER})?`, 'g');
const ORDINAL_PATTERN = new RegExp(
  `${LEAD}(?:the\\s+)?\\b(first|second|third|fourth|1st|2nd|3rd|4th|last|final)\\s+(quarter|half)\\b(?!-)(?:${YEAR_AFTER})?`,
  'g',
);
/** After a bare code: a markup heading ("h1 tags"), not a period. */
const MARKUP_AFTER = /^\s*(?:tags?|elements?|headings?|headers?|selectors?)\b/;
/** Right before a bare code: another code and a joiner ("Q1 and Q3", "Q1–Q3"). */
const CODE_BEFORE = /(?<![\w<])[qh][1-4]\s*(?:and|or|to|through|thru|until|till|-|–|—)\s*(?:the\s+)?$/;
/** Right after a bare code: a joiner and another code. */
const CODE_AFTER = /^\s*(?:and|or|to|through|thru|until|till|-|–|—)\s*(?:the\s+)?[qh][1-4](?![\w>])/;
const ORDINAL_INDEX: Readonly<Record<string, number>> = dictionary({
  first: 1,
  '1st': 1,
  second: 2,
  '2nd': 2,
  third: 3,
  '3rd': 3,
  fourth: 4,
  '4th': 4,
  last: 4,
  final: 4,
});

/** A period of a year: its first month and length in months. */
interface Period {
  firstMonth: number;
  months: number;
}

/** The year a match names, if it names one: written, two-digit ("'25"), or relative ("last year", "of the year"). */
function yearOf(
  context: ParseContext,
  parts: { before?: string; after?: string; short?: string; relative?: string; whole: string },
): number | undefined {
  const thisYear = context.calendar.dateOf(context.reference).year;
  if (parts.before !== undefined) return Number(parts.before);
  if (parts.after !== undefined) return Number(parts.after);
  if (parts.short !== undefined) {
    // the century that puts the year nearest the reference, never more than 20 years ahead of it
    const year = Math.floor(thisYear / 100) * 100 + Number(parts.short);
    return year > thisYear + 20 ? year - 100 : year;
  }
  if (parts.relative !== undefined) return thisYear + (parts.relative === 'last' ? -1 : parts.relative === 'next' ? 1 : 0);
  if (/\bof\s+the\s+year$/.test(parts.whole)) return thisYear;
  return undefined;
}

/** The window of a period in a named year, else resolved from the modifier, else like a yearless month. */
function windowOf(
  context: ParseContext,
  period: Period,
  year: number | undefined,
  modifier: string | undefined,
  index: number,
): TimeWindow {
  const { calendar } = context;
  const build = (y: number): TimeWindow => calendar.months(y, period.firstMonth, period.months);
  if (year !== undefined) return build(year);
  if (modifier === 'this' || modifier === 'current') return containing(calendar, context.reference, period);
  if (modifier === 'next' || modifier === 'coming') return resolveYearless(build, context, 'future', true);
  if (modifier !== undefined) return resolveYearless(build, context, 'past', true);
  return resolveYearless(build, context, context.direction(index), false);
}

/** The period's instance in the reference's year ("this Q3"). */
function containing(calendar: Calendar, reference: number, period: Period): TimeWindow {
  return calendar.months(calendar.dateOf(reference).year, period.firstMonth, period.months);
}

function findCodes(context: ParseContext, found: Found[]): void {
  const { lower } = context;
  for (const match of lower.matchAll(CODE_PATTERN)) {
    const [whole, preposition, modifier, before, quarter, half, after, short, relative] = match;
    const index = match.index ?? 0;
    const year = yearOf(context, { before, after, short, relative, whole });
    const end = index + whole.length;
    if (year === undefined) {
      const led = preposition !== undefined || modifier !== undefined;
      const next = CODE_AFTER.exec(lower.slice(end, end + 24));
      const paired = next !== null || CODE_BEFORE.test(lower.slice(Math.max(0, index - 24), index));
      // "h1 tags", and "h1 and h2 headings" of both
      const markupAt = end + (next?.[0].length ?? 0);
      if ((!led && !paired) || MARKUP_AFTER.test(lower.slice(markupAt, markupAt + 16))) continue;
    }
    const period: Period =
      quarter !== undefined ? { firstMonth: 3 * Number(quarter) - 2, months: 3 } : { firstMonth: half === '2' ? 7 : 1, months: 6 };
    push(found, match, windowOf(context, period, year, modifier, index), context);
  }
}

function findOrdinals(context: ParseContext, found: Found[]): void {
  const { lower } = context;
  for (const match of lower.matchAll(ORDINAL_PATTERN)) {
    const [whole, , modifier, ordinal = 'first', unit, after, short, relative] = match;
    const index = match.index ?? 0;
    const year = yearOf(context, { after, short, relative, whole });
    const end = index + whole.length;
    const n = ORDINAL_INDEX[ordinal] ?? 1;
    if (year === undefined) {
      // "the first half", "the last quarter", "the first quarter of the game": not a time of year
      if (unit === 'half' || ordinal === 'last' || ordinal === 'final' || modifier !== undefined) continue;
      if (/^\s+of\b/.test(lower.slice(end, end + 8))) continue;
    }
    if (unit === 'half' && n > 2) continue;
    const period: Period = unit === 'quarter' ? { firstMonth: 3 * n - 2, months: 3 } : { firstMonth: n === 2 ? 7 : 1, months: 6 };
    push(found, match, windowOf(context, period, year, undefined, index), context);
  }
}

/** Adds every quarter and half of a year the text names to `found`. */
export function findQuarters(context: ParseContext, found: Found[]): void {
  findCodes(context, found);
  findOrdinals(context, found);
}
