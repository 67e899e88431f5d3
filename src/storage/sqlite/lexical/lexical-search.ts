/**
 * A search of the in-memory lexical index, computed exactly as the FTS path computes it: stage 1 is
 * FTS5's own bm25 over the whole table (it picks the candidates, best first, ties by rowid), stage 2 is
 * `rankBm25` with the searched scopes' statistics (it ranks them).
 */
import { visibilityBounds, type TimeFilter } from '../../../core/memory.js';
import type { ChannelHit } from '../../../core/ports/store.js';
import { bm25Document, bm25Query } from '../../../core/text/bm25.js';
import type { Scope } from '../../../core/scope.js';
import { CandidateHeap } from './candidate-heap.js';
import { layerIdSet, type LexicalData } from './lexical-data.js';
import { ftsTermOf, STOP_TERMS } from './lexical-tokens.js';

/** What one search asks of the index, prepared by the caller as the FTS path prepares it. */
export interface IndexedLexicalQuery {
  readonly scopes: readonly Scope[];
  readonly layers: readonly string[] | undefined;
  readonly filter: TimeFilter;
  readonly now: number;
  /** The MATCH expression's phrases in order (word, repetitions). */
  readonly phrases: readonly { word: string; repetitions: number }[];
  /** Engram stem → query weight, in insertion order (as `rankBm25` iterates it). */
  readonly weights: ReadonlyMap<string, number>;
  /** Engram stem → the query words it came from. */
  readonly surfaces: ReadonlyMap<string, ReadonlySet<string>>;
  readonly candidates: number;
  readonly limit: number;
  readonly k1: number;
  readonly b: number;
}

/** FTS5's bm25 parameters (fts5_aux.c), which the FTS path's candidate order uses. */
const FTS_K1 = 1.2;
const FTS_B = 0.75;

/** FTS5's candidates and `rankBm25`'s ranking of them, or `null` when a query word is not indexable. */
export function searchLexicalData(data: LexicalData, query: IndexedLexicalQuery): ChannelHit[] | null {
  // the FTS5 term of every phrase, and of every surface word (for the scope statistics)
  const phraseTerms: string[] = [];
  for (const { word } of query.phrases) {
    const term = ftsTermOf(word);
    if (term === null || STOP_TERMS.has(term)) return null;
    phraseTerms.push(term);
  }
  const surfaceTerms = new Map<string, string[]>();
  for (const [s, words] of query.surfaces) {
    const terms: string[] = [];
    for (const word of words) {
      const term = ftsTermOf(word);
      if (term === null || STOP_TERMS.has(term)) return null;
      if (!terms.includes(term)) terms.push(term);
    }
    surfaceTerms.set(s, terms);
  }
  if (data.rows <= 0) return [];
  const touchedCount = scoreFts(data, phraseTerms, query.phrases);
  const scopeSet = data.scopeSet(query.scopes);
  const candidates = bestVisible(data, touchedCount, query, scopeSet);
  if (candidates.length === 0) return [];
  return rankCandidates(data, candidates, query, surfaceTerms, scopeSet);
}

/**
 * Stage 1, FTS5's bm25 over all rows: per phrase term, idf = ln((N − n + 0.5) / (n + 0.5)) (at least
 * 1e-6) times f·(k1 + 1) / (f + k1·(1 − b + b·len/avgdl)), added once per repetition of the phrase.
 * Leaves the scores in `data.score` and the scored rows in `data.touched`; returns how many there are.
 */
function scoreFts(data: LexicalData, phraseTerms: readonly string[], phrases: IndexedLexicalQuery['phrases']): number {
  const nRow = data.rows;
  const avgdl = data.tokens / nRow;
  const idfOf = new Map<string, number>();
  for (const term of new Set(phraseTerms)) {
    const hits = data.rowsHolding(term, undefined);
    let idf = Math.log((nRow - hits + 0.5) / (hits + 0.5));
    if (idf <= 0) idf = 1e-6;
    idfOf.set(term, idf);
  }
  const score = data.score;
  const ftsLength = data.ftsLength;
  if (data.touched.length < data.present.length) data.touched = new Int32Array(data.present.length);
  const touched = data.touched;
  let touchedCount = 0;
  for (let p = 0; p < phraseTerms.length; p++) {
    const term = phraseTerms[p] as string;
    const repetitions = phrases[p]?.repetitions ?? 1;
    const idf = idfOf.get(term) as number;
    data.forEachHolder(term, (d, f) => {
      const add = idf * ((f * (FTS_K1 + 1.0)) / (f + FTS_K1 * (1 - FTS_B + (FTS_B * (ftsLength[d] as number)) / avgdl)));
      if (score[d] === 0) touched[touchedCount++] = d;
      for (let rep = 0; rep < repetitions; rep++) score[d] = (score[d] as number) + add;
    });
  }
  return touchedCount;
}

/** The best `candidates` scored rows of the scopes and layers visible under the filter; resets the scores. */
function bestVisible(data: LexicalData, touchedCount: number, query: IndexedLexicalQuery, scopeSet: ReadonlySet<number>): number[] {
  const layers = layerIdSet(query.layers);
  const visible = visibilityBounds(query.filter, query.now);
  const score = data.score;
  const touched = data.touched;
  const heap = new CandidateHeap(query.candidates, score);
  for (let i = 0; i < touchedCount; i++) {
    const d = touched[i] as number;
    // the filters only for rows that would enter the heap
    if (!heap.wants(d)) continue;
    if (scopeSet.has(data.scope[d] as number) && (layers === undefined || layers.has(data.layer[d] as number)) && data.visible(d, visible))
      heap.offer(d);
  }
  for (let i = 0; i < touchedCount; i++) score[touched[i] as number] = 0;
  return heap.rows();
}

/** Stage 2, `rankBm25` with the scopes' statistics (as `LexicalStatistics.collect` counts them). */
function rankCandidates(
  data: LexicalData,
  candidates: readonly number[],
  query: IndexedLexicalQuery,
  surfaceTerms: ReadonlyMap<string, readonly string[]>,
  scopeSet: ReadonlySet<number>,
): ChannelHit[] {
  let docs = 0;
  let totalLength = 0;
  for (const id of scopeSet) {
    docs += data.scopeDocs[id] as number;
    totalLength += data.scopeLength[id] as number;
  }
  const avgLength = docs > 0 ? totalLength / docs : 1;
  const { k1, b } = query;
  const stems = [...query.weights.keys()];
  const stemId = stems.map((s) => data.stemIds.get(s) ?? -1);
  const weighed = bm25Query(
    stems.map((s) => query.weights.get(s) as number),
    stems.map((s) => Math.min(data.documentFrequency(surfaceTerms.get(s) ?? [], scopeSet), docs)),
    docs,
  );
  const scored: { rowid: number; score: number; coverage: number }[] = [];
  const tf = new Float64Array(stems.length);
  for (const d of candidates) {
    tf.fill(0);
    const start = data.ownStart[d] as number;
    const end = start + (data.ownCount[d] as number);
    for (let i = start; i < end; i++) {
      const id = data.ownStems[i] as number;
      for (let j = 0; j < stemId.length; j++) if (stemId[j] === id) tf[j] = data.ownFreqs[i] as number;
    }
    const hit = bm25Document(weighed, tf, data.bm25Length[d] as number, avgLength, k1, b);
    if (hit.score > 0) scored.push({ rowid: d, ...hit });
  }
  const hits: ChannelHit[] = scored.map((s) => ({ id: data.idOf(s.rowid), score: s.score, coverage: s.coverage }));
  return hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, query.limit);
}
