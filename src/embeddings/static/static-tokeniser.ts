import type { StaticTable } from './static-table.js';

/** Called once per vocabulary row a text contributes, with the weight of that contribution. */
export type StaticRowVisitor = (row: number, weight: number) => void;

const WORD_PATTERN = /[\p{L}\p{N}]+(?:'[\p{L}\p{N}]+)*/gu;
const NON_ASCII = /[^\u0000-\u007f]/;
const CURLY_APOSTROPHE = /\u2019/g;
const MAX_KEY_LENGTH = 24;
const MAX_CACHED_WORDS = 50_000;
const APOSTROPHE = 0x27;

/** A character of a word in lowercase ASCII text: a digit or a lowercase letter (`[\p{L}\p{N}]` there). */
function isWordCode(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

/**
 * Splits text into lowercase words and maps each to table rows: a known word to its own row with its
 * SIF weight; a word with apostrophes that is unknown whole ("alice's") to its parts; any other unknown
 * word to sub-pieces found by greedy longest match (a word-start piece first, then `##` continuation
 * pieces), which share a weight of 1 because unknown words are rare and so informative.
 *
 * @example
 * ```ts
 * const tokeniser = new StaticTokeniser(table);
 * tokeniser.forEachRow('Kubernetes pods restart', (row, weight) => table.addRow(vector, row, weight));
 * ```
 */
export class StaticTokeniser {
  readonly #table: StaticTable;
  readonly #unknownWords = new Map<string, readonly number[]>();

  constructor(table: StaticTable) {
    this.#table = table;
  }

  /** Visits the rows of every word of `text`, in order. */
  forEachRow(text: string, visit: StaticRowVisitor): void {
    const lower = text.toLowerCase();
    if (NON_ASCII.test(lower)) {
      const normalised = lower.normalize('NFKC').replace(CURLY_APOSTROPHE, "'");
      for (const match of normalised.matchAll(WORD_PATTERN)) this.#visitWord(match[0], visit);
      return;
    }
    // ASCII, lowercase: WORD_PATTERN's words, found by their character codes (a few times faster)
    const n = lower.length;
    let start = 0;
    while (start < n) {
      while (start < n && !isWordCode(lower.charCodeAt(start))) start++;
      if (start >= n) break;
      let end = start;
      for (;;) {
        while (end < n && isWordCode(lower.charCodeAt(end))) end++;
        // an apostrophe between word characters keeps the word going ("don't", "alice's")
        if (end + 1 < n && lower.charCodeAt(end) === APOSTROPHE && isWordCode(lower.charCodeAt(end + 1))) {
          end++;
          continue;
        }
        break;
      }
      this.#visitWord(lower.slice(start, end), visit);
      start = end;
    }
  }

  #visitWord(word: string, visit: StaticRowVisitor): void {
    const row = this.#table.rowOf(word);
    if (row !== undefined) {
      visit(row, this.#table.weightOf(row));
      return;
    }
    if (word.includes("'")) {
      for (const part of word.split("'")) if (part.length > 0) this.#visitWord(part, visit);
      return;
    }
    const rows = this.#pieceRows(word);
    const weight = rows.length === 0 ? 0 : 1 / rows.length;
    for (const pieceRow of rows) visit(pieceRow, weight);
  }

  /** Greedy longest-match segmentation of an unknown word, memoised (bounded). */
  #pieceRows(word: string): readonly number[] {
    const cached = this.#unknownWords.get(word);
    if (cached !== undefined) return cached;
    const rows: number[] = [];
    let position = 0;
    while (position < word.length) {
      const first = rows.length === 0;
      let matched = 0;
      for (let end = Math.min(word.length, position + MAX_KEY_LENGTH); end > position; end--) {
        const piece = word.slice(position, end);
        const row = first
          ? (this.#table.rowOf(piece) ?? this.#table.rowOf(`##${piece}`))
          : (this.#table.rowOf(`##${piece}`) ?? this.#table.rowOf(piece));
        if (row !== undefined) {
          rows.push(row);
          matched = end - position;
          break;
        }
      }
      // A character no piece covers (a rare script, a symbol) is skipped rather than failing the text.
      position += matched === 0 ? 1 : matched;
    }
    if (this.#unknownWords.size >= MAX_CACHED_WORDS) this.#unknownWords.clear();
    this.#unknownWords.set(word, rows);
    return rows;
  }
}
