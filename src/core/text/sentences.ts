/**
 * Sentence boundaries for chunking and entity extraction: after `.`, `!`, `?` or `…` (and any closing
 * quotes or brackets) followed by whitespace, and at every line break; not after titles and initials
 * ("Dr. Smith", "St. Mary's", "J. R. R. Tolkien", "No. 5") nor before a lowercase word ("e.g. this",
 * "at 9 a.m. on Mondays").
 */

/** A half-open character range [start, end) of a text. */
export interface TextSpan {
  start: number;
  end: number;
}

const BOUNDARY = /[.!?…]+["'”’)\]]*(?=\s|$)|\n/g;
/** Abbreviations that never end a sentence: titles and Latin shorthands ("Dr. Patel", "St. Mary's", "e.g. this"). */
const NEVER_FINAL = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'vs',
  'gen',
  'capt',
  'sgt',
  'lt',
  'col',
  'rev',
  'fr',
  'hon',
  'fig',
  'e.g',
  'i.e',
  'cf',
  'viz',
  'approx',
]);
/**
 * Abbreviations that end a sentence only before a capital ("at 9 a.m. Bring coffee" / "at 9 a.m. on
 * Mondays"): a lowercase word or a number after them continues the sentence.
 */
const SOMETIMES_FINAL = new Set(['etc', 'a.m', 'p.m', 'am', 'pm', 'inc', 'ltd', 'co', 'corp', 'dept', 'est', 'ca', 'min', 'max']);
const WORD_BEFORE = /([\p{L}.]+)[.]$/u;
const INITIAL = /(?:^|[^\p{L}])\p{Lu}$/u;

/**
 * Does the full stop at `dot` close an abbreviation inside a sentence rather than the sentence: a title
 * ("Dr. Patel", "Mrs. Lee", "St. Mark's Road"), an initial ("J. R. R. Tolkien"), "e.g.", "vs.", "No. 5", or
 * "etc.", "a.m.", "p.m." before a lowercase word or a number?
 * @example isAbbreviationDot('My dentist is Dr. Patel.', 17) // true
 */
export function isAbbreviationDot(text: string, dot: number): boolean {
  if (text[dot] !== '.') return false;
  const word = WORD_BEFORE.exec(text.slice(Math.max(0, dot - 12), dot + 1))?.[1]?.toLowerCase();
  // a word the window cut ("…ndr.") is no abbreviation
  const whole = word !== undefined && !/\p{L}/u.test(text[dot - word.length - 1] ?? '');
  if (word !== undefined && whole) {
    const next = /\S/u.exec(text.slice(dot + 1, dot + 9))?.[0];
    if (NEVER_FINAL.has(word)) return true;
    // "No. 5", but "the answer is no. We left"
    if (word === 'no') return next !== undefined && /\d/.test(next);
    if (SOMETIMES_FINAL.has(word)) return next !== undefined && /[\p{Ll}\d]/u.test(next);
  }
  return INITIAL.test(text.slice(Math.max(0, dot - 2), dot));
}

function isBoundary(text: string, punctuationStart: number, end: number): boolean {
  if (text[punctuationStart] !== '.') return true;
  if (isAbbreviationDot(text, punctuationStart)) return false;
  const next = /\S/u.exec(text.slice(end, end + 8));
  return next === null || !/\p{Ll}/u.test(next[0]);
}

function pushTrimmed(text: string, start: number, end: number, spans: TextSpan[]): void {
  let from = start;
  let to = end;
  while (from < to && /\s/u.test(text[from] ?? '')) from++;
  while (to > from && /\s/u.test(text[to - 1] ?? '')) to--;
  if (to > from) spans.push({ start: from, end: to });
}

/**
 * Sentence spans of `text` in order, trimmed of surrounding whitespace; together they cover every
 * non-whitespace character.
 * @example splitSentences('Dr. Smith came. He left!') // [{ start: 0, end: 15 }, { start: 16, end: 24 }]
 */
export function splitSentences(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  let sentenceStart = 0;
  for (const match of text.matchAll(BOUNDARY)) {
    const end = match.index + match[0].length;
    if (match[0] !== '\n' && !isBoundary(text, match.index, end)) continue;
    pushTrimmed(text, sentenceStart, end, spans);
    sentenceStart = end;
  }
  pushTrimmed(text, sentenceStart, text.length, spans);
  return spans;
}
