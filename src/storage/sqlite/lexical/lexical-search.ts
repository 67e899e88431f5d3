/**
 * A search of the in-memory lexical index, computed exactly as the FTS path computes it: stage 1 is
 * FTS5's own bm25 over the whole table (it picks the candidates, best first, ties by rowid), stage 2 is
 * `rankBm25` with the searched scopes' statistics (it ranks them).
 */
import { visibilityBounds, visibleUnder, type MemoryStatus, type TimeFilter, type VisibilityBounds } from '../../../core/memory.js';
import type { ChannelHit } from '../../../core/ports/store.js';
import { bm25Document, bm25Query } from '../../../core/text/bm25.js';
import type { Scope } from '../../../core/scope.js';
import { CandidateHeap } from './candidate-heap.js';
import { layerIdSet, type LexicalData } from './lexical-data.js';
import { bestByMaxScore, ftsTf } from './lexical-pruned.js';
import { ftsTermOf, STOP_TERMS, type FtsTerms } from './lexical-tokens.js';

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

/** A row an open write transaction wrote, as that transaction sees it (the index holds committed rows). */
export interface PendingLexicalRow {
  readonly rowid: number;
  readonly id: string;
  readonly scope: string;
  readonly layer: string;
  readonly status: MemoryStatus;
  readonly validFrom: number;
  readonly validTo: number | null;
  readonly recordedAt: number;
  readonly invalidatedAt: number | null;
  readonly fts: FtsTerms;
  /** Engram stem → weighted frequency (`ownTerms`), and the BM25 length. */
  readonly own: ReadonlyMap<string, number>;
  readonly bm25Length: number;
  /** The stored term count (the scope statistics' lengths sum it; `null` counts nothing). */
  readonly termCount: number | null;
}

/** What a write transaction changed: the rows the index must not answer for, and their present state. */
export interface PendingLexical {
  /** Rowids the transaction inserted, changed or deleted. */
  readonly masked: ReadonlySet<number>;
  /** Those that exist in the transaction's view, by rowid. */
  readonly rows: ReadonlyMap<number, PendingLexicalRow>;
}

/** Whether a pending row is of the scopes and layers and visible under the bounds. */
export function pendingRowVisible(
  row: PendingLexicalRow,
  scopes: readonly Scope[],
  layers: readonly string[] | undefined,
  bounds: VisibilityBounds,
): boolean {
  return (
    scopes.includes(row.scope) &&
    (layers === undefined || layers.includes(row.layer)) &&
    visibleUnder(bounds, row.status, row.recordedAt, row.validFrom, row.validTo, row.invalidatedAt)
  );
}

/** A first-stage candidate: an index row, or a pending one. */
interface Candidate {
  readonly row: number;
  readonly score: number;
  readonly pending?: PendingLexicalRow;
}

/**
 * FTS5's candidates and `rankBm25`'s ranking of them, or `null` when a query word is not indexable.
 * With `pending` (a search inside a write transaction), the transaction's rows stand in for the index's
 * rows of the same rowids, in the hits and in every statistic, as FTS5 inside the transaction sees them.
 * `usage.byScope` counts the searches that scored their scopes' rows alone. An index of at least
 * `pruneRows` rows picks the candidates by `bestByMaxScore` (the same ones) outside a transaction.
 */
export function searchLexicalData(
  data: LexicalData,
  query: IndexedLexicalQuery,
  pending?: PendingLexical,
  usage?: { byScope: number; skipped: number },
  pruneRows = Number.POSITIVE_INFINITY,
): ChannelHit[] | null {
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
  const overlay = pending === undefined ? undefined : overlayOf(data, pending);
  const nRow = data.rows + (overlay === undefined ? 0 : overlay.rows.length - overlay.replaced.length);
  if (nRow <= 0) return [];
  let tokens = data.tokens;
  for (const d of overlay?.replaced ?? []) tokens -= data.ftsLength[d] as number;
  for (const row of overlay?.rows ?? []) tokens += row.fts.length;
  const avgdl = tokens / nRow;
  const idf = ftsIdf(data, phraseTerms, nRow, overlay);
  const scopeSet = data.scopeSet(query.scopes);
  const scopeRows = rowsWorthScoringAlone(data, scopeSet, phraseTerms, surfaceTerms);
  if (scopeRows !== null && usage !== undefined) usage.byScope++;
  let candidates: Candidate[];
  // from `pruneRows` rows, skipping the rows that cannot make the candidates pays (`bench/lexical-ab.mjs
  // --baseline full` on the `bench:scale` corpora, mean ms a search, every holder scored against
  // skipping: 100k 1.4 / 1.8 and 300k 3.2 / 3.5, where the scores array is in cache and the skipping's
  // bookkeeping costs more than it saves; 600k 6.1-6.2 / 5.8-6.0; 1M 8.3 / 6.5)
  if (overlay === undefined && scopeRows === null && data.rows >= pruneRows)
    candidates = bestByMaxScore(data, phraseTerms, idf, avgdl, query, scopeSet, usage);
  else {
    // a small scope's own rows, or a transaction's view: every holder scored
    const touchedCount = scoreFts(data, phraseTerms, query.phrases, idf, avgdl, scopeRows);
    candidates = bestVisible(data, touchedCount, query, scopeSet, pending?.masked);
    if (overlay !== undefined && overlay.rows.length > 0)
      candidates = mergeCandidates(candidates, scorePending(overlay.rows, phraseTerms, query, idf, avgdl), query.candidates);
  }
  if (candidates.length === 0) return [];
  return rankCandidates(data, candidates, query, surfaceTerms, scopeSet, overlay, scopeRows);
}

/**
 * What reading one row's frequency of one term costs (a binary search of its list), in posting visits.
 * Measured on a 100,000-row index: ~12 ns a posting visit, ~90 ns a lookup, ~1 ns a row scanned for its
 * scope. A 100-row scope among 1,000 went 4.2 → 0.45 ms a search; a 100,000-row scope searched row by
 * row would have taken 74 ms against 4.8 by its posting lists, which the rule keeps.
 */
const LOOKUP_COST = 8;
/** Rows of the index checked for their scope per posting visit (a typed-array scan). */
const SCAN_ROWS_PER_VISIT = 12;

/**
 * The rows of the searched scopes when scoring them one by one costs less than walking the query terms'
 * posting lists, which hold every scope's rows; else `null`. A small scope in a large store (one user's
 * memories among a thousand users') is then searched in time of its own size: the scores, and so the
 * candidates and their ranking, are the same either way.
 */
function rowsWorthScoringAlone(
  data: LexicalData,
  scopeSet: ReadonlySet<number>,
  phraseTerms: readonly string[],
  surfaceTerms: ReadonlyMap<string, readonly string[]>,
): Int32Array | null {
  let docs = 0;
  for (const id of scopeSet) docs += data.scopeDocs[id] as number;
  const terms = new Set([...phraseTerms, ...[...surfaceTerms.values()].flat()]);
  let visits = 0;
  for (const term of terms) visits += data.postings.get(term)?.length ?? 0;
  const cost = data.present.length / SCAN_ROWS_PER_VISIT + docs * terms.size * LOOKUP_COST;
  if (cost * 2 >= visits) return null;
  const member = new Uint8Array(data.scopeDocs.length);
  for (const id of scopeSet) member[id] = 1;
  const rows = new Int32Array(docs);
  let n = 0;
  const { present, scope } = data;
  for (let d = 0; d < present.length && n < docs; d++) if (present[d] === 1 && member[scope[d] as number] === 1) rows[n++] = d;
  return rows.subarray(0, n);
}

/** A transaction's rows against the index: the index rows they replace (or delete), and their own. */
interface Overlay {
  /** Masked rows the index holds: their statistics are taken out. */
  readonly replaced: readonly number[];
  /** The transaction's rows: their statistics are put in. */
  readonly rows: readonly PendingLexicalRow[];
}

function overlayOf(data: LexicalData, pending: PendingLexical): Overlay {
  const replaced: number[] = [];
  for (const d of pending.masked) if (d < data.present.length && data.present[d] === 1) replaced.push(d);
  return { replaced, rows: [...pending.rows.values()] };
}

/** FTS5's idf of each phrase term over all `nRow` rows: ln((N − n + 0.5) / (n + 0.5)), at least 1e-6. */
function ftsIdf(data: LexicalData, phraseTerms: readonly string[], nRow: number, overlay: Overlay | undefined): Map<string, number> {
  const idfOf = new Map<string, number>();
  for (const term of new Set(phraseTerms)) {
    let hits = data.rowsHolding(term, undefined);
    if (overlay !== undefined) {
      for (const d of overlay.replaced) if (data.ftsFrequency(term, d) > 0) hits--;
      for (const row of overlay.rows) if (row.fts.terms.has(term)) hits++;
    }
    let idf = Math.log((nRow - hits + 0.5) / (hits + 0.5));
    if (idf <= 0) idf = 1e-6;
    idfOf.set(term, idf);
  }
  return idfOf;
}

/** FTS5's bm25 of one row: Σ over phrases of idf · f·(k1 + 1) / (f + k1·(1 − b + b·len/avgdl)), per repetition. */
function ftsRowScore(
  terms: ReadonlyMap<string, number>,
  length: number,
  avgdl: number,
  phraseTerms: readonly string[],
  phrases: IndexedLexicalQuery['phrases'],
  idf: ReadonlyMap<string, number>,
): number {
  let score = 0;
  for (let p = 0; p < phraseTerms.length; p++) {
    const term = phraseTerms[p] as string;
    const f = terms.get(term);
    if (f === undefined) continue;
    const add = (idf.get(term) as number) * ftsTf(f, length, avgdl);
    for (let rep = 0; rep < (phrases[p]?.repetitions ?? 1); rep++) score += add;
  }
  return score;
}

/** The pending rows of the scopes and layers visible under the filter that match, with their stage-1 score. */
function scorePending(
  rows: readonly PendingLexicalRow[],
  phraseTerms: readonly string[],
  query: IndexedLexicalQuery,
  idf: ReadonlyMap<string, number>,
  avgdl: number,
): Candidate[] {
  const bounds = visibilityBounds(query.filter, query.now);
  const out: Candidate[] = [];
  for (const row of rows) {
    if (!pendingRowVisible(row, query.scopes, query.layers, bounds)) continue;
    const score = ftsRowScore(row.fts.terms, row.fts.length, avgdl, phraseTerms, query.phrases, idf);
    if (score > 0) out.push({ row: row.rowid, score, pending: row });
  }
  return out;
}

/** The best `size` of both lists by (score descending, rowid ascending), as the heap orders them. */
function mergeCandidates(indexed: readonly Candidate[], pending: readonly Candidate[], size: number): Candidate[] {
  return [...indexed, ...pending].sort((x, y) => y.score - x.score || x.row - y.row).slice(0, size);
}

/**
 * Stage 1, FTS5's bm25 over all rows: per phrase term, idf = ln((N − n + 0.5) / (n + 0.5)) (at least
 * 1e-6) times f·(k1 + 1) / (f + k1·(1 − b + b·len/avgdl)), added once per repetition of the phrase.
 * Leaves the scores in `data.score` and the scored rows in `data.touched`; returns how many there are.
 * Given `rows`, scores those rows only, from their own frequencies, adding in the same order (phrase by
 * phrase, once per repetition), so each of their scores is the same number.
 */
function scoreFts(
  data: LexicalData,
  phraseTerms: readonly string[],
  phrases: IndexedLexicalQuery['phrases'],
  idfOf: ReadonlyMap<string, number>,
  avgdl: number,
  rows: Int32Array | null,
): number {
  const score = data.score;
  const ftsLength = data.ftsLength;
  if (data.touched.length < data.present.length) data.touched = new Int32Array(data.present.length);
  const touched = data.touched;
  let touchedCount = 0;
  if (rows !== null) {
    for (const d of rows)
      for (let p = 0; p < phraseTerms.length; p++) {
        const term = phraseTerms[p] as string;
        const f = data.ftsFrequency(term, d);
        if (f === 0) continue;
        const add = (idfOf.get(term) as number) * ftsTf(f, ftsLength[d] as number, avgdl);
        if (score[d] === 0) touched[touchedCount++] = d;
        for (let rep = 0; rep < (phrases[p]?.repetitions ?? 1); rep++) score[d] = (score[d] as number) + add;
      }
    return touchedCount;
  }
  const posted = data.posted;
  for (let p = 0; p < phraseTerms.length; p++) {
    const term = phraseTerms[p] as string;
    const repetitions = phrases[p]?.repetitions ?? 1;
    const idf = idfOf.get(term) as number;
    // the posting list inline (the hot loop of a search: 10^5-10^6 postings at a million rows), then
    // the rows whose text changed, as `forEachHolder` visits them
    const list = data.postings.get(term);
    if (list !== undefined) {
      const docs = list.docs;
      const freqs = list.freqs;
      for (let i = 0; i < list.length; i++) {
        const d = docs[i] as number;
        if (posted[d] !== 1) continue;
        const add = idf * ftsTf(freqs[i] as number, ftsLength[d] as number, avgdl);
        let value = score[d] as number;
        if (value === 0) touched[touchedCount++] = d;
        for (let rep = 0; rep < repetitions; rep++) value += add;
        score[d] = value;
      }
    }
    data.forEachChanged(term, (d, f) => {
      const add = idf * ftsTf(f, ftsLength[d] as number, avgdl);
      if (score[d] === 0) touched[touchedCount++] = d;
      for (let rep = 0; rep < repetitions; rep++) score[d] = (score[d] as number) + add;
    });
  }
  return touchedCount;
}

/**
 * The best `candidates` scored rows of the scopes and layers visible under the filter, leaving out
 * `masked` rows (a transaction's own); resets the scores.
 */
function bestVisible(
  data: LexicalData,
  touchedCount: number,
  query: IndexedLexicalQuery,
  scopeSet: ReadonlySet<number>,
  masked?: ReadonlySet<number>,
): Candidate[] {
  const layers = layerIdSet(query.layers);
  const visible = visibilityBounds(query.filter, query.now);
  const score = data.score;
  const touched = data.touched;
  const heap = new CandidateHeap(query.candidates);
  // each score is read once and cleared as it is read (one pass over the rows); the filters run only
  // for rows that would enter the heap
  for (let i = 0; i < touchedCount; i++) {
    const d = touched[i] as number;
    const value = score[d] as number;
    score[d] = 0;
    if (!heap.wants(d, value) || (masked !== undefined && masked.has(d))) continue;
    if (scopeSet.has(data.scope[d] as number) && (layers === undefined || layers.has(data.layer[d] as number)) && data.visible(d, visible))
      heap.offer(d, value);
  }
  return heap.rows();
}

/** Stage 2, `rankBm25` with the scopes' statistics (as `LexicalStatistics.collect` counts them). */
function rankCandidates(
  data: LexicalData,
  candidates: readonly Candidate[],
  query: IndexedLexicalQuery,
  surfaceTerms: ReadonlyMap<string, readonly string[]>,
  scopeSet: ReadonlySet<number>,
  overlay: Overlay | undefined,
  scopeRows: Int32Array | null,
): ChannelHit[] {
  // the scopes' statistics; a transaction's rows replace the index's rows of the same rowids
  const replaced = overlay?.replaced.filter((d) => scopeSet.has(data.scope[d] as number)) ?? [];
  const rows = overlay?.rows.filter((row) => query.scopes.includes(row.scope)) ?? [];
  let docs = rows.length - replaced.length;
  let totalLength = 0;
  for (const id of scopeSet) {
    docs += data.scopeDocs[id] as number;
    totalLength += data.scopeLength[id] as number;
  }
  for (const d of replaced) totalLength -= Math.max(0, data.termCount[d] as number);
  for (const row of rows) totalLength += row.termCount ?? 0;
  const avgLength = docs > 0 ? totalLength / docs : 1;
  const { k1, b } = query;
  const stems = [...query.weights.keys()];
  const stemId = stems.map((s) => data.stemIds.get(s) ?? -1);
  const weighed = bm25Query(
    stems.map((s) => query.weights.get(s) as number),
    stems.map((s) => {
      const terms = surfaceTerms.get(s) ?? [];
      let df = scopeRows === null ? data.documentFrequency(terms, scopeSet) : data.documentFrequencyIn(terms, scopeRows);
      for (const d of replaced) if (terms.some((term) => data.ftsFrequency(term, d) > 0)) df--;
      for (const row of rows) if (terms.some((term) => row.fts.terms.has(term))) df++;
      return Math.min(df, docs);
    }),
    docs,
  );
  const hits: ChannelHit[] = [];
  const tf = new Float64Array(stems.length);
  for (const { row: d, pending } of candidates) {
    tf.fill(0);
    if (pending !== undefined) {
      for (let j = 0; j < stems.length; j++) tf[j] = pending.own.get(stems[j] as string) ?? 0;
      const hit = bm25Document(weighed, tf, pending.bm25Length, avgLength, k1, b);
      if (hit.score > 0) hits.push({ id: pending.id, score: hit.score, coverage: hit.coverage });
      continue;
    }
    const start = data.ownStart[d] as number;
    const end = start + (data.ownCount[d] as number);
    for (let i = start; i < end; i++) {
      const id = data.ownStems[i] as number;
      for (let j = 0; j < stemId.length; j++) if (stemId[j] === id) tf[j] = data.ownFreqs[i] as number;
    }
    const hit = bm25Document(weighed, tf, data.bm25Length[d] as number, avgLength, k1, b);
    if (hit.score > 0) hits.push({ id: data.idOf(d), score: hit.score, coverage: hit.coverage });
  }
  return hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, query.limit);
}
