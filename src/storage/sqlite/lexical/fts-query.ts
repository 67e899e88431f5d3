/**
 * Builds a safe FTS5 MATCH expression from user terms: every word becomes a quoted string (so no user
 * text is ever parsed as FTS5 syntax), words are OR-ed, and per-term weights become repetitions,
 * since FTS5's bm25 sums one contribution per phrase of the query.
 */

import { hasCjk, segmentCjk } from '../../../core/text/index.js';

export interface FtsQuery {
  /** The MATCH expression. */
  readonly match: string;
  /** Multiply `-bm25()` by this to express scores in the callers' weight units. */
  readonly scale: number;
}

/** Weights are quantised to this many repetitions at most (the heaviest term gets all of them). */
const MAX_REPETITIONS = 8;
/** Bounds the work one query can cause. */
const MAX_WORDS = 64;
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
/**
 * How many tokens one query word may hold. FTS5 cuts a word such as "node.js" or "api.example.com" into
 * tokens and matches them as a phrase; a 10,000-character "a.b.a.b…" was a phrase of 5,000 tokens, and
 * matching it took seconds at every recall. A longer word is matched by its first tokens.
 */
const MAX_PHRASE_TOKENS = 8;
const TOKEN_RUNS = /[\p{L}\p{N}]+/gu;

/** `word` up to the end of its MAX_PHRASE_TOKENS-th token. */
function phraseHead(word: string): string {
  let count = 0;
  for (const run of word.matchAll(TOKEN_RUNS)) if ((count += 1) === MAX_PHRASE_TOKENS) return word.slice(0, run.index + run[0].length);
  return word;
}

/**
 * The MATCH expression for `terms`, or `null` when no term contains a searchable word.
 * A term with spaces is split into words, each matched on its own with the term's weight; so is a
 * term of unspaced CJK text ("数据库迁移" → 数据, 库, 迁移).
 *
 * @example
 * ```ts
 * buildFtsQuery([{ term: 'AND' }, { term: 'cat"s' }]); // { match: '"and" OR "cat""s"', scale: 1 }
 * ```
 */
export function buildFtsQuery(terms: readonly { term: string; weight?: number }[]): FtsQuery | null {
  const phrases = ftsPhrases(terms);
  if (phrases === null) return null;
  const quoted: string[] = [];
  for (const { word, repetitions } of phrases.words) {
    const phrase = `"${word.replaceAll('"', '""')}"`;
    for (let i = 0; i < repetitions; i++) quoted.push(phrase);
  }
  return { match: quoted.join(' OR '), scale: phrases.scale };
}

/**
 * The phrases of {@link buildFtsQuery}'s MATCH expression, in order: each word (lower-cased) with how
 * many times it is repeated. FTS5's bm25 sums one contribution per phrase in this order.
 */
export function ftsPhrases(
  terms: readonly { term: string; weight?: number }[],
): { words: { word: string; repetitions: number }[]; scale: number } | null {
  const weights = new Map<string, number>();
  for (const { term, weight = 1 } of terms) {
    if (typeof term !== 'string' || !(weight > 0) || !Number.isFinite(weight)) continue;
    // a CJK word is matched by its dictionary words, as FTS5 indexed them (lexical_text) and as PostgreSQL's lexemes hold them
    for (const word of term.split(/\s+/u).flatMap((part) => (hasCjk(part) ? segmentCjk(part.toLowerCase()) : [part]))) {
      if (!WORD_CHARACTER.test(word)) continue;
      const key = phraseHead(word).toLowerCase();
      if (!weights.has(key) && weights.size >= MAX_WORDS) continue;
      weights.set(key, (weights.get(key) ?? 0) + weight);
    }
  }
  if (weights.size === 0) return null;
  const values = [...weights.values()];
  const max = Math.max(...values);
  const uniform = values.every((w) => w === max);
  const words: { word: string; repetitions: number }[] = [];
  for (const [word, weight] of weights) {
    const repetitions = uniform ? 1 : Math.min(MAX_REPETITIONS, Math.max(1, Math.round((weight / max) * MAX_REPETITIONS)));
    words.push({ word, repetitions });
  }
  return { words, scale: uniform ? max : max / MAX_REPETITIONS };
}
