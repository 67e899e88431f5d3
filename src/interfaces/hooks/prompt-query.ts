/**
 * The query a prompt hook searches with. Prompts can be far longer than a query may be (a pasted log,
 * a file): the context builder and recall take at most 10,000 characters, so a longer prompt is cut to
 * its beginning and its end, each at a word boundary: the task is usually stated first and the actual
 * question asked last, while the middle is the pasted material.
 */
import { cleanText, splitsSurrogatePair } from './clean-text.js';

/** The longest query the context builder and recall accept. */
export const MAX_PROMPT_QUERY_CHARS = 10_000;

const SEPARATOR = ' … ';
/** Share of the room given to the beginning of the prompt; the rest goes to its end. */
const HEAD_SHARE = 0.6;
/** How far back (or forward) to look for a space before cutting inside a word. */
const WORD_SEARCH_CHARS = 200;

/**
 * The prompt, trimmed, if it fits in `max` characters; else its beginning and end joined by " … ",
 * cut at word boundaries, never longer than `max`. NUL characters are dropped and unpaired surrogates
 * replaced by U+FFFD, which the engine would refuse (a pasted binary output).
 *
 * @example
 * ```ts
 * promptQuery('word '.repeat(5_000)).length <= 10_000; // true
 * ```
 */
export function promptQuery(prompt: string, max = MAX_PROMPT_QUERY_CHARS): string {
  const text = cleanText(prompt).trim();
  if (text.length <= max) return text;
  const room = Math.max(0, max - SEPARATOR.length);
  const headEnd = wordEndBefore(text, Math.ceil(room * HEAD_SHARE));
  const tailStart = wordStartAfter(text, text.length - (room - headEnd));
  return `${text.slice(0, headEnd).trimEnd()}${SEPARATOR}${text.slice(tailStart).trimStart()}`;
}

/** The largest cut position ≤ `limit` that ends a word (falls back to `limit` inside one huge token). */
function wordEndBefore(text: string, limit: number): number {
  if (/\s/.test(text[limit] ?? ' ')) return limit;
  for (let i = limit - 1; i > 0 && i >= limit - WORD_SEARCH_CHARS; i--) {
    if (/\s/.test(text[i] as string)) return i;
  }
  return keepSurrogatePair(text, limit, -1);
}

/** The smallest cut position ≥ `start` that begins a word (falls back to `start` inside one huge token). */
function wordStartAfter(text: string, start: number): number {
  if (start <= 0 || /\s/.test(text[start - 1] as string)) return start;
  for (let i = start; i < text.length && i <= start + WORD_SEARCH_CHARS; i++) {
    if (/\s/.test(text[i] as string)) return i + 1;
  }
  return keepSurrogatePair(text, start, 1);
}

/** Moves a cut that would split a UTF-16 surrogate pair one unit towards `direction`, off the pair. */
function keepSurrogatePair(text: string, at: number, direction: 1 | -1): number {
  return splitsSurrogatePair(text, at) ? at + direction : at;
}
