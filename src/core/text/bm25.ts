/**
 * Scope-local BM25, shared by every store: a store finds lexical candidates its own way (FTS5,
 * tsvector) and ranks them here with the document frequencies and lengths of the scopes searched, so
 * one scope's vocabulary never skews another's and every backend ranks alike.
 */
import { storedStringList } from '../readable-records.js';
import { stem } from './stem.js';
import { contentTermCount, contentTerms } from './tokenize.js';

/** How many candidates per requested hit a store should rescore. */
export const BM25_CANDIDATES_PER_HIT = 4;
export const BM25_MIN_CANDIDATES = 200;
const EMPTY_COUNTS: ReadonlyMap<string, number> = new Map();
/** Tags count this much relative to the content. */
const TAG_WEIGHT = 0.5;
/** Entities (usually also in the content) count this much. */
const ENTITY_WEIGHT = 0.25;

/** The stop-word-free, stemmed terms of a text, with counts: what BM25 counts in documents and queries. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of contentTerms(text)) {
    const s = stem(token);
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return counts;
}

/**
 * A bounded memo of {@link termCounts} by text, so a store ranking the same memories query after query
 * tokenises and stems each text once (tokenising candidates was over a third of a small scope's
 * recall). Least recently used texts go first once `max` texts are held.
 */
export class TermCountCache {
  readonly #max: number;
  readonly #counts = new Map<string, Map<string, number>>();

  constructor(max = 20_000) {
    this.#max = Math.max(1, Math.floor(max));
  }

  /** The term counts of `text`, from the memo when it holds them. */
  counts(text: string): Map<string, number> {
    const held = this.#counts.get(text);
    if (held !== undefined) {
      this.#counts.delete(text);
      this.#counts.set(text, held);
      return held;
    }
    const computed = termCounts(text);
    if (this.#counts.size >= this.#max) {
      const oldest = this.#counts.keys().next().value;
      if (oldest !== undefined) this.#counts.delete(oldest);
    }
    this.#counts.set(text, computed);
    return computed;
  }
}

/** The document length BM25 uses (stored with each memory). */
export function termLength(text: string): number {
  return contentTermCount(text);
}

/** One candidate as stores hold it: tags and entities as JSON arrays. */
export interface Bm25Candidate {
  id: string;
  content: string;
  tags: string;
  entities: string;
  term_count: number | null;
}

/** Statistics of the scopes searched. */
export interface Bm25Statistics {
  docs: number;
  avgLength: number;
  df: ReadonlyMap<string, number>;
}

/**
 * Ranks candidates by BM25 over content, tags and entities (weighted fields), best first, ties by id.
 * `weights`: query stem → weight. Defaults k1 1.2, b 0.75. Each hit also says its query `coverage`.
 */
export function rankBm25(
  candidates: readonly Bm25Candidate[],
  weights: ReadonlyMap<string, number>,
  statistics: Bm25Statistics,
  params: { k1?: number; b?: number } | undefined,
  limit: number,
  cache?: TermCountCache,
): { id: string; score: number; coverage: number }[] {
  const { docs, avgLength, df } = statistics;
  const k1 = params?.k1 ?? 1.2;
  const b = params?.b ?? 0.75;
  const stems = [...weights.keys()];
  const query = bm25Query(
    stems.map((s) => weights.get(s) as number),
    stems.map((s) => Math.min(df.get(s) ?? 0, docs)),
    docs,
  );
  const scored: { id: string; score: number; coverage: number }[] = [];
  const tf = new Float64Array(stems.length);
  for (const row of candidates) {
    const count = (text: string) => (cache !== undefined ? cache.counts(text) : termCounts(text));
    const counts = count(row.content);
    const tagCounts = row.tags === '[]' ? EMPTY_COUNTS : count(storedStringList(row.tags).join(' '));
    const entityCounts = row.entities === '[]' ? EMPTY_COUNTS : count(storedStringList(row.entities).join(' '));
    stems.forEach((s, j) => {
      tf[j] = (counts.get(s) ?? 0) + TAG_WEIGHT * (tagCounts.get(s) ?? 0) + ENTITY_WEIGHT * (entityCounts.get(s) ?? 0);
    });
    const hit = bm25Document(query, tf, row.term_count ?? termLength(row.content), avgLength, k1, b);
    if (hit.score > 0) scored.push({ id: row.id, ...hit });
  }
  return scored.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, limit);
}

/** A query's terms as BM25 weighs them: weight and idf per term, and the query's total mass. */
export interface Bm25Query {
  readonly weights: readonly number[];
  readonly idf: readonly number[];
  readonly mass: number;
}

/** Weights and idfs of a query's terms, from each term's document frequency among `docs` documents. */
export function bm25Query(weights: readonly number[], documentFrequencies: readonly number[], docs: number): Bm25Query {
  const idf = documentFrequencies.map((n) => Math.log(1 + (docs - n + 0.5) / (n + 0.5)));
  const mass = weights.reduce((sum, w, j) => sum + w * (idf[j] as number), 0);
  return { weights, idf, mass };
}

/**
 * One document's BM25 score, and its coverage: the idf-weighted share of the query's terms it
 * contains (1 = every term). `tf[j]` is the (field-weighted) frequency of the query's term j.
 */
export function bm25Document(
  query: Bm25Query,
  tf: ArrayLike<number>,
  length: number,
  avgLength: number,
  k1: number,
  b: number,
): { score: number; coverage: number } {
  const norm = k1 * (1 - b + (b * length) / (avgLength || 1));
  let score = 0;
  let matched = 0;
  for (let j = 0; j < query.weights.length; j++) {
    const f = tf[j] as number;
    if (f <= 0) continue;
    const weighted = (query.weights[j] as number) * (query.idf[j] as number);
    score += weighted * ((f * (k1 + 1)) / (f + norm));
    matched += weighted;
  }
  return { score, coverage: query.mass > 0 ? Math.min(1, matched / query.mass) : 0 };
}
