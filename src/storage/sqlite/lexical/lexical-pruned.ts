/**
 * Stage 1 of an index search (FTS5's bm25 over all rows, the best `candidates` visible rows) without
 * scoring every row that holds a query term: the MaxScore method (Turtle & Flood, 1995). Each term has a
 * bound on what it can add to a row's score (its idf times the bm25 tf of its largest frequency in its
 * shortest row, per repetition of its phrases). Once the candidates are full, the lowest of them is the
 * bar: the terms whose bounds together stay below it cannot bring a row in on their own, so only the
 * other terms' lists are walked. They are walked a window of rows at a time, adding each row's shares;
 * then the window's rows, in rowid order, look the other terms up (a galloping search from where each
 * list was left) only while their best possible score can still reach the bar, and only rows that can
 * are scored. At a million rows a long query's terms hold ~500,000 postings, and the rows worth scoring
 * are a few thousand.
 *
 * The answer is the exhaustive one, to the bit: a row's score is added up in the order the exhaustive
 * scorer adds it (phrase by phrase, once per repetition); a row is skipped only when its bound is below
 * the bar by more than rounding could make up, so rows that tie with the bar (and win on their rowid)
 * are scored; rows whose text changed since they were posted (the delta) are scored first, one by one.
 */
import { visibilityBounds } from '../../../core/memory.js';
import { CandidateHeap } from './candidate-heap.js';
import { layerIdSet, type LexicalData } from './lexical-data.js';
import type { Postings } from './postings.js';
import type { IndexedLexicalQuery } from './lexical-search.js';

/** FTS5's bm25 parameters (fts5_aux.c), which the FTS path's candidate order uses. */
const FTS_K1 = 1.2;
const FTS_B = 0.75;

/** The tf part of FTS5's bm25 for weighted frequency `f` in a row of `length` tokens. */
export function ftsTf(f: number, length: number, avgdl: number): number {
  return (f * (FTS_K1 + 1.0)) / (f + FTS_K1 * (1 - FTS_B + (FTS_B * length) / avgdl));
}

/** A row is skipped only when its bound times this is still below the bar (float sums in another order). */
const ROUNDING = 1 + 1e-9;

/** One query term: its list, where the walk is in it, and what it can add to a row at most. */
interface TermCursor {
  readonly docs: Int32Array;
  readonly freqs: Float32Array;
  readonly length: number;
  position: number;
  /** Its idf summed over its phrases and their repetitions: a row's share is this times the tf. */
  readonly weight: number;
  /** The most this term adds to a row's score. */
  readonly bound: number;
}

/** Rows taken at a time (a multiple of 32): the walked lists fill a window, then its rows are finished in rowid order. */
const WINDOW = 4096;
/**
 * A search's working arrays, kept between searches (a search runs to its end without yielding and
 * leaves them all zero; `dirty` while one runs, so the next search clears what one that threw left), by
 * window offset: `partial`, the walked lists' shares; `holders`, which of the first 31 walked lists hold
 * the row, a bit each; and `held`, the rows that some walked list holds, a bit each (read back in rowid
 * order).
 */
const scratch = { partial: new Float64Array(WINDOW), holders: new Int32Array(WINDOW), held: new Int32Array(WINDOW >> 5), dirty: false };
const EMPTY_DOCS = new Int32Array(0);
const EMPTY_FREQS = new Float32Array(0);

/**
 * The best `query.candidates` rows of the scopes and layers visible under the filter by FTS5's bm25
 * (score descending, rowid ascending), exactly as scoring every holder of a query term ranks them.
 * `usage.skipped` counts the rows found in a list that were left unscored because they could not reach
 * the bar.
 */
export function bestByMaxScore(
  data: LexicalData,
  phraseTerms: readonly string[],
  idfOf: ReadonlyMap<string, number>,
  avgdl: number,
  query: IndexedLexicalQuery,
  scopeSet: ReadonlySet<number>,
  usage?: { skipped: number },
): { row: number; score: number }[] {
  const layers = layerIdSet(query.layers);
  const visible = visibilityBounds(query.filter, query.now);
  const ftsLength = data.ftsLength;
  const posted = data.posted;
  const heap = new CandidateHeap(query.candidates);
  const admits = (d: number): boolean =>
    scopeSet.has(data.scope[d] as number) && (layers === undefined || layers.has(data.layer[d] as number)) && data.visible(d, visible);

  // each distinct term once, with every phrase that names it (a row's score adds them in phrase order)
  const terms = [...new Set(phraseTerms)];
  const termOfPhrase = phraseTerms.map((term) => terms.indexOf(term));
  const repetitions = query.phrases.map((phrase) => phrase.repetitions);
  const idf = phraseTerms.map((term) => idfOf.get(term) as number);
  /** Row `d`'s score, added up phrase by phrase as the exhaustive scorer adds it; `frequencyOf(p)`: phrase p's term's. */
  const exact = (d: number, frequencyOf: (p: number) => number): number => {
    let value = 0;
    for (let p = 0; p < termOfPhrase.length; p++) {
      const f = frequencyOf(p);
      if (f === 0) continue;
      const add = (idf[p] as number) * ftsTf(f, ftsLength[d] as number, avgdl);
      for (let rep = 0; rep < (repetitions[p] ?? 1); rep++) value += add;
    }
    return value;
  };

  // rows whose text changed since they were posted: scored one by one from their present terms
  for (const [d, own] of data.delta) {
    if (data.present[d] !== 1 || !terms.some((term) => own.has(term))) continue;
    const value = exact(d, (p) => own.get(phraseTerms[p] as string) ?? 0);
    if (heap.wants(d, value) && admits(d)) heap.offer(d, value);
  }

  // the terms in ascending order of their bounds: a prefix of them cannot bring a row in on their own
  const weights = new Float64Array(terms.length);
  for (let p = 0; p < phraseTerms.length; p++) {
    const t = termOfPhrase[p] as number;
    weights[t] = (weights[t] as number) + (idf[p] as number) * (repetitions[p] ?? 1);
  }
  const cursors: TermCursor[] = terms.map((term, t) => {
    const list: Postings | undefined = data.postings.get(term);
    const weight = weights[t] as number;
    if (list === undefined || list.length === 0) return { docs: EMPTY_DOCS, freqs: EMPTY_FREQS, length: 0, position: 0, weight, bound: 0 };
    list.bound(ftsLength);
    const bound = weight * ftsTf(list.maxFreq, list.minLength, avgdl);
    return { docs: list.docs, freqs: list.freqs, length: list.length, position: 0, weight, bound };
  });
  const order = terms.map((_, t) => t);
  order.sort((x, y) => (cursors[x] as TermCursor).bound - (cursors[y] as TermCursor).bound);
  const sorted = order.map((t) => cursors[t] as TermCursor);
  const slotOfPhrase = termOfPhrase.map((t) => order.indexOf(t));
  const below = new Float64Array(sorted.length + 1);
  for (let i = 0; i < sorted.length; i++) below[i + 1] = (below[i] as number) + (sorted[i] as TermCursor).bound;

  // rows are taken a window at a time: the walked lists add their shares into `partial`, then the
  // window's rows are finished in rowid order
  const slots = sorted.length;
  const { partial, held, holders } = scratch;
  // a search that threw part way left them dirty
  if (scratch.dirty) {
    partial.fill(0);
    held.fill(0);
    holders.fill(0);
  }
  scratch.dirty = true;
  /** Where each walked list's rows of the window start (they end at its position). */
  const windowStart = new Int32Array(slots);
  /**
   * Slot `i`'s frequency in row `d` (offset `o`) of the window: a walked list searched within the window
   * when it holds the row, a looked-up one where it stopped.
   */
  const frequencyAt = (i: number, d: number, o: number): number => {
    const { docs, freqs, position } = sorted[i] as TermCursor;
    if (i < essential) return position < docs.length && docs[position] === d ? (freqs[position] as number) : 0;
    if (i < 31 && ((holders[o] as number) & (1 << i)) === 0) return 0;
    let low = windowStart[i] as number;
    let high = position - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const doc = docs[middle] as number;
      if (doc === d) return freqs[middle] as number;
      if (doc < d) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  };
  let essential = 0;
  let bar = heap.floor();
  for (;;) {
    // sorted[0, essential) are looked up row by row, sorted[essential, n) walked
    while (essential < slots && (below[essential + 1] as number) * ROUNDING < bar) essential++;
    let low = 2147483647;
    for (let i = essential; i < slots; i++) {
      const cursor = sorted[i] as TermCursor;
      if (cursor.position < cursor.length && (cursor.docs[cursor.position] as number) < low) low = cursor.docs[cursor.position] as number;
    }
    if (low === 2147483647) break;
    const high = low + WINDOW;
    for (let i = essential; i < slots; i++) {
      const cursor = sorted[i] as TermCursor;
      const { docs, freqs, length, weight } = cursor;
      const bit = i < 31 ? 1 << i : 0;
      let position = cursor.position;
      windowStart[i] = position;
      for (; position < length; position++) {
        const d = docs[position] as number;
        if (d >= high) break;
        const o = d - low;
        const f = freqs[position] as number;
        held[o >> 5] = (held[o >> 5] as number) | (1 << (o & 31));
        holders[o] = (holders[o] as number) | bit;
        partial[o] = (partial[o] as number) + weight * ftsTf(f, ftsLength[d] as number, avgdl);
      }
      cursor.position = position;
    }
    for (let word = 0; word < held.length; word++) {
      let bits = held[word] as number;
      if (bits === 0) continue;
      held[word] = 0;
      for (; bits !== 0; bits &= bits - 1) {
        const o = (word << 5) | (31 - Math.clz32(bits & -bits));
        const d = low + o;
        if (posted[d] === 1) {
          // the looked-up lists, largest bound first, while the row can still reach the bar
          let best = (partial[o] as number) + (below[essential] as number);
          let reachable = best * ROUNDING >= bar;
          for (let i = essential - 1; i >= 0 && reachable; i--) {
            const cursor = sorted[i] as TermCursor;
            cursor.position = seek(cursor.docs, cursor.length, cursor.position, d);
            best -= cursor.bound;
            if (cursor.position < cursor.length && cursor.docs[cursor.position] === d)
              best += cursor.weight * ftsTf(cursor.freqs[cursor.position] as number, ftsLength[d] as number, avgdl);
            reachable = best * ROUNDING >= bar;
          }
          if (!reachable) {
            if (usage !== undefined) usage.skipped++;
          } else if (admits(d)) {
            // the filters first: a search whose scopes, layers or time hold few of the rows fills its
            // candidates late (the bar stays low), and scoring a row costs more than filtering it
            const value = exact(d, (p) => frequencyAt(slotOfPhrase[p] as number, d, o));
            if (heap.wants(d, value)) {
              heap.offer(d, value);
              bar = heap.floor();
            }
          }
        }
        partial[o] = 0;
        holders[o] = 0;
      }
    }
  }
  scratch.dirty = false;
  return heap.rows();
}

/** The first position at or after `from` whose row is at least `d` (a galloping search). */
function seek(docs: Int32Array, length: number, from: number, d: number): number {
  if (from >= length || (docs[from] as number) >= d) return from;
  let low = from;
  let step = 1;
  let high = from + 1;
  while (high < length && (docs[high] as number) < d) {
    low = high;
    step *= 2;
    high = from + step;
  }
  if (high > length) high = length;
  // docs[low] < d; the answer is in (low, high]
  while (low + 1 < high) {
    const middle = (low + high) >>> 1;
    if ((docs[middle] as number) < d) low = middle;
    else high = middle;
  }
  return high;
}
