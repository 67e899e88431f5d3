/**
 * Sentence boundaries for chunking and entity extraction: after `.`, `!`, `?` or `…` (and any closing
 * quotes or brackets) followed by whitespace, and at every line break; not after titles and initials
 * ("Dr. Smith", "J. R. R. Tolkien") nor before a lowercase word ("e.g. this").
 */

/** A half-open character range [start, end) of a text. */
export interface TextSpan {
  start: number;
  end: number;
}

const BOUNDARY = /[.!?…]+["'”’)\]]*(?=\s|$)|\n/g;
const NEVER_FINAL = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'vs',
  'gen',
  'capt',
  'sgt',
  'lt',
  'col',
  'rev',
  'no',
  'fig',
  'e.g',
  'i.e',
  'cf',
  'approx',
]);
const WORD_BEFORE = /([\p{L}.]+)[.]$/u;
const INITIAL = /(?:^|[^\p{L}])\p{Lu}$/u;

function isBoundary(text: string, punctuationStart: number, end: number): boolean {
  if (text[punctuationStart] !== '.') return true;
  const before = text.slice(Math.max(0, punctuationStart - 12), punctuationStart + 1);
  const word = WORD_BEFORE.exec(before)?.[1]?.toLowerCase();
  if (word !== undefined && NEVER_FINAL.has(word)) return false;
  if (INITIAL.test(text.slice(Math.max(0, punctuationStart - 2), punctuationStart))) return false;
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
