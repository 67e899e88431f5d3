/**
 * 29 February without a year ("on Feb 29", "29 February", "the 29th of February"). chrono-node reads a
 * yearless date in the reference's year and drops it when that year has no 29 February, so it is
 * resolved here like any yearless day, in the nearest leap year: for a query the most recent 29 February
 * not after the reference day, in a stored text that speaks of the future the next not before it. A
 * written year is left to chrono ("Feb 29, 2025", a day that does not exist, names no time).
 */
import { leapYearFrom } from './calendar.js';
import { type Found, type ParseContext, push } from './temporal-patterns.js';

const FEBRUARY = 'feb(?:ruary)?\\.?';
/** The day, then no year after it: a digit, even after a comma, "of" or an apostrophe, makes it a dated day. */
const LEAP_DAY_PATTERN = new RegExp(
  `(?:\\bon\\s+)?(?:\\bthe\\s+)?\\b(?:${FEBRUARY}\\s+(?:the\\s+)?29(?:th)?|29(?:th)?\\s+(?:of\\s+)?${FEBRUARY})(?!\\w)(?!,?\\s*(?:of\\s+)?['’]?\\d)`,
  'g',
);

/** Adds every yearless 29 February of the text to `found`. */
export function findLeapDays(context: ParseContext, found: Found[]): void {
  const { calendar, reference } = context;
  const today = calendar.dateOf(reference);
  const todayStart = calendar.startOf(today);
  for (const match of context.lower.matchAll(LEAP_DAY_PATTERN)) {
    const past = context.direction(match.index ?? 0) === 'past';
    let year = leapYearFrom(today.year, past ? -1 : 1);
    const start = calendar.startOf({ year, month: 2, day: 29 });
    // this year's 29 February is still ahead (past) or already gone (future): the leap year before or after
    if (past ? start > todayStart : start < todayStart) year = leapYearFrom(year + (past ? -1 : 1), past ? -1 : 1);
    push(found, match, calendar.day({ year, month: 2, day: 29 }), context);
  }
}
