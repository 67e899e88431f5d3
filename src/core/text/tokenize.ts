/**
 * Word tokens for lexical matching, dedup overlap and concept extraction. Unicode-aware: letters, marks
 * and digits of any script; a dot or apostrophe between two word characters stays inside the token, so
 * `v2.1`, `acme.com` and `don't` are one token each, and `80L` keeps its unit.
 */
import { hasCjk, segmentCjk } from './cjk.js';
import { compatibilityForm } from './lexical-text.js';
import { STOP_WORDS } from './stop-words.js';

const TOKEN_PATTERN = /[\p{L}\p{N}\p{M}]+(?:['.][\p{L}\p{N}\p{M}]+)*/gu;
const DIGIT_GROUP_COMMA = /(\d),(?=\d{3}(?!\d))/g;
const CURLY_APOSTROPHE = /[\u2019\u02BC]/g;
const POSSESSIVE = /'s$/u;

/**
 * Lowercase word tokens of `text` in order, possessive `'s` dropped, digit-group commas joined; a token
 * holding Chinese, Japanese or Korean characters is cut into its words (see `segmentCjk`).
 * @example tokenize("Alice's v2.1 build took 1,500 ms") // ['alice', 'v2.1', 'build', 'took', '1500', 'ms']
 * @example tokenize('我喜欢喝咖啡') // ['我', '喜欢', '喝', '咖啡']
 */
export function tokenize(text: string): string[] {
  const normalized = compatibilityForm(text).replace(CURLY_APOSTROPHE, "'").replace(DIGIT_GROUP_COMMA, '$1').toLowerCase();
  const tokens: string[] = [];
  for (const match of normalized.matchAll(TOKEN_PATTERN)) {
    const token = match[0].replace(POSSESSIVE, '');
    if (token.length === 0) continue;
    if (hasCjk(token)) tokens.push(...segmentCjk(token));
    else tokens.push(token);
  }
  return tokens;
}

/**
 * The tokens of `text` that carry meaning: {@link tokenize} minus {@link STOP_WORDS}, in order.
 * @example contentTerms('I think we should move the deploy to Friday') // ['think', 'move', 'deploy', 'friday']
 */
export function contentTerms(text: string): string[] {
  return tokenize(text).filter((token) => !STOP_WORDS.has(token));
}

/**
 * {@link contentTerms}, their count remembered for {@link contentTermCount}. A memory's text is read for
 * its terms twice on the way in (its importance, then the length BM25 stores with it); the write path
 * reads them with this, so the second read is a lookup. Recall's reads do not fill the memo.
 */
export function countedContentTerms(text: string): string[] {
  const terms = contentTerms(text);
  if (text.length <= TERM_COUNT_MEMO_CHARS) {
    if (termCounts.size >= TERM_COUNT_MEMO) termCounts.delete(termCounts.keys().next().value as string);
    termCounts.set(text, terms.length);
  }
  return terms;
}

/** How many content terms `text` has (`contentTerms(text).length`), from the memo when the write path read them. */
export function contentTermCount(text: string): number {
  return termCounts.get(text) ?? contentTerms(text).length;
}

/** Texts whose content-term count is remembered: a few write batches' worth, none longer than a chunk. */
const TERM_COUNT_MEMO = 1024;
const TERM_COUNT_MEMO_CHARS = 4096;
const termCounts = new Map<string, number>();

const CAMEL_LOWER_UPPER = /([\p{Ll}\p{N}])(\p{Lu})/gu;
const CAMEL_ACRONYM_WORD = /(\p{Lu}+)(\p{Lu}\p{Ll})/gu;
const NON_WORD = /[^\p{L}\p{N}\p{M}]+/u;
const SINGLE_LETTER = /^\p{L}$/u;

/**
 * Splits an identifier or tool name (snake_case, camelCase, kebab-case, dotted, spaced) into lowercase
 * words without stop words or single letters, deduplicated in order of first appearance.
 * @example normalizeTokens('navigate_to_kitchen') // ['navigate', 'kitchen']
 * @example normalizeTokens('graspObject') // ['grasp', 'object']
 */
export function normalizeTokens(identifier: string): string[] {
  const spaced = identifier.normalize('NFKC').replace(CAMEL_ACRONYM_WORD, '$1 $2').replace(CAMEL_LOWER_UPPER, '$1 $2');
  const seen = new Set<string>();
  const words: string[] = [];
  for (const part of spaced.split(NON_WORD)) {
    const word = part.toLowerCase();
    if (word.length === 0 || SINGLE_LETTER.test(word) || STOP_WORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
    words.push(word);
  }
  return words;
}
