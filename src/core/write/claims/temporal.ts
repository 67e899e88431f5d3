/**
 * Time expressions inside claim values: detect them, strip them from non-schedule values, and compare
 * two schedule values by the calendar components both of them state ("Fridays at 11am" ≈ "at 11am on Friday").
 */
import type * as Chrono from 'chrono-node';
import { lazyRequire } from '../../text/lazy-require.js';
import { NUMBER_PATTERN } from './claim-text.js';
import { termsOf } from './pos-tags.js';

/** chrono-node loads on the first claim value checked (~0.5 s), not when the engine is imported. */
const chrono = lazyRequire<typeof Chrono>('chrono-node');

/** A fixed reference instant keeps parsing deterministic; only explicitly stated components are compared. */
const REFERENCE = new Date(Date.UTC(2000, 0, 3, 12, 0, 0));

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Expressions chrono does not cover but people use for schedules. */
const EXTRA_TEMPORAL = new RegExp(
  [
    '\\b(?:every|each)(?: other)? (?:day|night|morning|afternoon|evening|week|weekday|weekend|month|quarter|year|sprint|' +
      WEEKDAYS.join('|') +
      ')s?\\b',
    '\\b(?:daily|nightly|weekly|biweekly|fortnightly|monthly|quarterly|yearly|annually|hourly)\\b',
    '\\b(?:every|each|once every|once a|twice a) (?:\\d+|two|three|four|five|six|few|couple of)? ?(?:minutes?|hours?|days?|weeks?|months?|quarters?|years?|sprints?)\\b',
    '\\b(?:in the|this|tomorrow|tonight|on) (?:morning|afternoon|evening|night)s?\\b',
    '\\b(?:on )?weekdays\\b|\\b(?:on )?weekends\\b',
    '\\b(?:in )?(?:q[1-4]|h[12])(?: \\d{4})?\\b',
    '\\b(?:last|next|this) (?:week|month|quarter|year|sprint)\\b',
    '\\b(?:(?:the )?(?:first|second|third|fourth|last) (?:' +
      WEEKDAYS.join('|') +
      '|weekday|day|business day) of (?:the|each|every) (?:month|quarter|year))\\b',
    '\\b(?:(?:19|20)\\d{2})\\b',
    '\\b(?:end|start|beginning|middle) of (?:the )?(?:week|month|quarter|year|sprint)\\b',
    '\\b(?:before|after) lunch\\b|\\bat (?:noon|midnight)\\b',
  ].join('|'),
  'gi',
);

/** "Fridays" → "Friday" so chrono sees a weekday. */
function singularWeekdays(text: string): string {
  return text.replace(/\b(mon|tues|wednes|thurs|fri|satur|sun)days\b/gi, (_m, d: string) => `${d}day`);
}

/** Character spans of every time expression in `text`. */
function temporalSpans(text: string): Array<[number, number]> {
  const normalised = singularWeekdays(text);
  const spans: Array<[number, number]> = [];
  for (const r of chrono().parse(normalised, REFERENCE)) spans.push([r.index, r.index + r.text.length]);
  for (const m of normalised.matchAll(EXTRA_TEMPORAL)) spans.push([m.index, m.index + m[0].length]);
  return spans;
}

/** Removes time expressions (and their leading prepositions) from a phrase. */
export function stripTemporal(text: string): string {
  const spans = temporalSpans(text).sort((a, b) => b[0] - a[0]);
  let out = singularWeekdays(text);
  for (const [start, end] of spans) out = `${out.slice(0, start)} ${out.slice(end)}`;
  return out
    .replace(/\b(?:on|at|in|from|until|by|since|every|each|during|around)\s*(?=$|,)/gi, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s,]+$/g, '')
    .trim();
}

/** Does the text name a time anywhere ("a customer site all day Tuesday", "Amsterdam from 5 to 20 May")? */
export function containsTemporal(text: string): boolean {
  return temporalSpans(text).length > 0;
}

/** Is the phrase nothing but a time expression ("on Tuesday", "at 3pm on Friday", "Q3", "June 12")? */
export function isTemporal(text: string): boolean {
  if (temporalSpans(text).length === 0) return false;
  const rest = stripTemporal(text)
    .replace(/\b(?:on|at|in|for|from|to|and|the|every|each|of)\b/gi, '')
    .trim();
  return rest.replace(/[\s,.-]/g, '') === '';
}

/**
 * Splits "the weekly sync every Tuesday" into ["the weekly sync", "every Tuesday"]: the shortest non-empty head
 * whose remainder is entirely temporal. Undefined when there is no such tail.
 */
export function splitTrailingTemporal(text: string): [string, string] | undefined {
  const words = text.split(' ');
  for (let i = 1; i < words.length; i += 1) {
    const tail = words.slice(i).join(' ');
    if (isTemporal(tail)) return [words.slice(0, i).join(' '), tail];
  }
  return undefined;
}

type Components = Partial<Record<'weekday' | 'day' | 'month' | 'year' | 'hour' | 'minute' | 'quarter', number>>;

/** The calendar components a phrase states explicitly. */
function componentsOf(text: string): Components {
  const normalised = singularWeekdays(text);
  const out: Components = {};
  for (const r of chrono().parse(normalised, REFERENCE)) {
    for (const key of ['weekday', 'day', 'month', 'year', 'hour', 'minute'] as const) {
      if (out[key] === undefined && r.start.isCertain(key)) out[key] = r.start.get(key) ?? undefined;
    }
  }
  const quarter = /\bq([1-4])\b/i.exec(normalised);
  if (quarter) out.quarter = Number(quarter[1]);
  const year = /\b((?:19|20)\d{2})\b/.exec(normalised);
  if (out.year === undefined && year) out.year = Number(year[1]);
  return out;
}

/**
 * Compares two time expressions by the components both state: `different` when any shared component differs,
 * `same` when all shared ones agree, `unknown` when either states none.
 */
export function compareTemporal(a: string, b: string): 'same' | 'different' | 'unknown' {
  const ca = componentsOf(a);
  const cb = componentsOf(b);
  const keysA = Object.keys(ca) as Array<keyof Components>;
  const keysB = Object.keys(cb) as Array<keyof Components>;
  if (keysA.length === 0 || keysB.length === 0) return 'unknown';
  const shared = keysA.filter((k) => cb[k] !== undefined);
  if (shared.length === 0) return 'different';
  return shared.every((k) => ca[k] === cb[k]) ? 'same' : 'different';
}

/** A stretch of time as written inside a period: "2019", "March 2019", "the summer of 2015". */
const SPAN = "[\\w.,' ]{1,30}?";
/** Where a period ends inside a clause: its end, a comma, or a word that starts another phrase. */
const PERIOD_END = '(?=\\s*(?:$|,|\\b(?:as|at|in|on|with|when|while|and|but|before|after|where|because)\\b))';
/** A decade: "the 2010s", "the late 90s". */
const DECADE = "the (?:early |mid |mid-|late )?(?:(?:19|20)\\d0|'?\\d0)s";
const IS_DECADE = new RegExp(`^${DECADE}$`, 'i');
const DURATION =
  '(?:about |almost |nearly |over |around |roughly |more than |less than |just over |just under )?' +
  `(?:${NUMBER_PATTERN}|a few|a couple of|several|many|a|an) (?:years?|months?|weeks?|days?|decades?|summers?|winters?)`;

/**
 * Periods that are stated and closed: both ends ("from 2019 to 2022", "between 2010 and 2015", "2019-2022"),
 * the end ("until 2022"), a length ("for three years", "for two years in the 2010s"), a past decade
 * ("in the 2010s") or a distance back ("ten years ago"). Each names the spans chrono must read as times.
 */
const CLOSED_PERIODS: ReadonlyArray<{ re: RegExp; spans: readonly number[] }> = [
  {
    re: new RegExp(`\\b(?:from|between) (${SPAN}) (?:to|until|till|through|thru|and|-|–) (${SPAN})${PERIOD_END}`, 'i'),
    spans: [1, 2],
  },
  // leading, before the clause's subject: "From 2019 to 2022(,) I lived in Lisbon"
  {
    re: new RegExp(
      `^(?:[Ff]rom|[Bb]etween) (${SPAN}) (?:to|until|till|through|thru|and|-|–) (${SPAN})(?:,|(?= (?:i|we|he|she|they|my|our|the|[A-Z][\\w'-]*) ))`,
    ),
    spans: [1, 2],
  },
  { re: /\b(?:from |in |during |between )?((?:19|20)\d{2}) ?[-–—] ?((?:19|20)?\d{2})\b/i, spans: [1, 2] },
  { re: new RegExp(`\\b(?:until|till|up until|through|thru) (${SPAN})${PERIOD_END}`, 'i'), spans: [1] },
  { re: new RegExp(`\\bfor ${DURATION}(?: (?:in|during) (${SPAN}))?${PERIOD_END}`, 'i'), spans: [1] },
  { re: new RegExp(`\\b(?:in|during|throughout) ${DECADE}\\b`, 'i'), spans: [] },
  { re: new RegExp(`\\b${DURATION} ago\\b`, 'i'), spans: [] },
];

/** A clause stated in the past tense, not the present perfect ("lived", "was based", "used to work"). */
function statedInPast(clause: string): boolean {
  if (/\b(?:has|have|will|shall|is|are|am)\b/i.test(clause)) return false;
  return /\b(?:was|were|had|used to)\b/i.test(clause) || termsOf(clause).some((t) => t.tags.has('PastTense'));
}

/**
 * A past-tense clause about a closed period ("I lived in Lisbon from 2019 to 2022"): the clause without the
 * period ("I lived in Lisbon") and the period as written. Undefined when the clause is not in the past tense
 * or states no closed period; a period alone ("the sprint was from June 1 to June 14") is left to the caller.
 */
export function splitClosedPeriod(clause: string): { rest: string; period: string } | undefined {
  let rest = clause;
  const periods: string[] = [];
  for (const { re, spans } of CLOSED_PERIODS) {
    const m = re.exec(rest);
    if (!m || !spans.every((i) => m[i] === undefined || isTemporal(m[i] ?? '') || IS_DECADE.test(m[i] ?? ''))) continue;
    periods.push(m[0].trim().toLowerCase().replace(/\s+/g, ' '));
    rest = `${rest.slice(0, m.index)} ${rest.slice(m.index + m[0].length)}`;
  }
  rest = rest
    .replace(/\s+/g, ' ')
    .replace(/\s+,/g, ',')
    .replace(/^[\s,]+|[\s,]+$/g, '');
  if (periods.length === 0 || rest === '' || !statedInPast(rest)) return undefined;
  return { rest, period: periods.join(' ') };
}
