/**
 * An in-memory lexical index for the SQLite store: the same ranking and scores as the FTS path
 * (FTS5 bm25 picks the candidates, scope-local BM25 ranks them), without asking FTS5 to score every
 * match. Derived data, never a second source of truth, like the ANN index:
 *
 * - built from the `memories` table (in chunks, between searches, which use FTS5 meanwhile);
 * - caught up before every search, in the search's own snapshot: rows above its highest rowid are new,
 *   and `memory_changes` (migration 6, filled by triggers) names every row whose text, scope, layer,
 *   status or time fields changed or that was deleted, by any process, since its high-water mark;
 * - a row whose text changed keeps its old postings skipped and its new terms in a small delta; the
 *   index is rebuilt when the delta grows.
 *
 * Per row it holds typed arrays (scope, layer, status, the time fields of the visibility filter, FTS5's
 * document length, Engram's term count), FTS5's terms as posting lists (weighted frequency per row,
 * stop-word terms left out) and Engram's own stems as a forward list, so both stages of the FTS path are
 * computed exactly as SQLite and `rankBm25` compute them.
 */
import {
  LAYERS,
  STATUSES,
  visibilityBounds,
  visibleUnder,
  type MemoryStatus,
  type TimeFilter,
  type VisibilityBounds,
} from '../../../core/memory.js';
import type { ChannelHit } from '../../../core/ports/store.js';
import { bm25Document, bm25Query, termLength } from '../../../core/text/bm25.js';
import type { Scope } from '../../../core/scope.js';
import { ftsTermOf, ownTerms, plainFtsTerms, plainText, sqliteFtsTerms, STOP_TERMS, type FtsTerms } from './lexical-tokens.js';
import type { SqliteConnection } from '../sqlite-connection.js';

interface SourceRow {
  rowid: number;
  id: string;
  scope: string;
  layer: string;
  status: string;
  content: string;
  tags: string;
  entities: string;
  term_count: number | null;
  valid_from: number;
  valid_to: number | null;
  recorded_at: number;
  invalidated_at: number | null;
}

const ROW_COLUMNS =
  'rowid, id, scope, layer, status, content, tags, entities, term_count, valid_from, valid_to, recorded_at, invalidated_at';
/** Rows read per snapshot while building (each chunk blocks the event loop for a few tens of ms). */
const BUILD_CHUNK = 1000;
/** Stores up to this many rows are indexed at once, inside the first search. */
const INLINE_BUILD_MAX = 5000;
/** Rows whose text changed after the build, kept apart; beyond this many the index is rebuilt. */
const MAX_DELTA = 5000;

class Postings {
  docs = new Int32Array(4);
  freqs = new Float32Array(4);
  length = 0;

  /** Drops the spare capacity (after a build). */
  compact(): void {
    if (this.docs.length === this.length) return;
    this.docs = this.docs.slice(0, Math.max(1, this.length));
    this.freqs = this.freqs.slice(0, Math.max(1, this.length));
  }

  add(doc: number, freq: number): void {
    if (this.length === this.docs.length) {
      const docs = new Int32Array(this.length * 2);
      docs.set(this.docs);
      this.docs = docs;
      const freqs = new Float32Array(this.length * 2);
      freqs.set(this.freqs);
      this.freqs = freqs;
    }
    this.docs[this.length] = doc;
    this.freqs[this.length] = freq;
    this.length++;
  }
}

function grow<T extends Int32Array | Float64Array | Float32Array | Uint8Array>(array: T, size: number, fill?: number): T {
  if (array.length >= size) return array;
  let capacity = Math.max(1024, array.length);
  while (capacity < size) capacity *= 2;
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  if (fill !== undefined) next.fill(fill, array.length);
  return next;
}

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

/** The index's data; replaced as a whole by a rebuild. */
class LexicalData {
  // per row, indexed by rowid
  present = new Uint8Array(0);
  moved = new Uint8Array(0);
  /** present and not moved: the row's base postings count (one array read in the hot loops). */
  posted = new Uint8Array(0);
  scope = new Int32Array(0);
  layer = new Uint8Array(0);
  status = new Uint8Array(0);
  validFrom = new Float64Array(0);
  validTo = new Float64Array(0);
  recordedAt = new Float64Array(0);
  invalidatedAt = new Float64Array(0);
  ftsLength = new Int32Array(0);
  /** `term_count` as stored (−1 for NULL), for the scope statistics. */
  termCount = new Int32Array(0);
  /** The length `rankBm25` uses: `term_count ?? termLength(content)`. */
  bm25Length = new Int32Array(0);
  textHash = new Int32Array(0);
  ownStart = new Int32Array(0);
  ownCount = new Int32Array(0);
  /** Memory ids by rowid. */
  ids: string[] = [];
  // Engram stems, forward: per row a run in these arrays
  ownStems = new Int32Array(1 << 16);
  ownFreqs = new Float32Array(1 << 16);
  ownUsed = 0;
  readonly stemIds = new Map<string, number>();
  // FTS5 terms, inverted
  readonly postings = new Map<string, Postings>();
  /** Rows whose text changed since they were posted: their current FTS terms. */
  readonly delta = new Map<number, Map<string, number>>();
  readonly scopeIds = new Map<string, number>();
  scopeDocs: number[] = [];
  scopeLength: number[] = [];
  rows = 0;
  tokens = 0;
  /** Highest rowid seen, and the last `memory_changes.seq` applied. */
  maxRowid = 0;
  mark = 0;
  // scratch for searches
  score = new Float64Array(0);
  touched = new Int32Array(0);
  /** Moves on every removal or text change of a posted row; counts cached under an older one are stale. */
  deadGeneration = 0;
  readonly #counts = new Map<string, { length: number; generation: number; n: number }>();

  #ensure(rowid: number): void {
    const size = rowid + 1;
    if (this.present.length >= size) return;
    this.present = grow(this.present, size);
    this.moved = grow(this.moved, size);
    this.posted = grow(this.posted, size);
    this.scope = grow(this.scope, size);
    this.layer = grow(this.layer, size);
    this.status = grow(this.status, size);
    this.validFrom = grow(this.validFrom, size);
    this.validTo = grow(this.validTo, size);
    this.recordedAt = grow(this.recordedAt, size);
    this.invalidatedAt = grow(this.invalidatedAt, size);
    this.ftsLength = grow(this.ftsLength, size);
    this.termCount = grow(this.termCount, size);
    this.bm25Length = grow(this.bm25Length, size);
    this.textHash = grow(this.textHash, size);
    this.ownStart = grow(this.ownStart, size);
    this.ownCount = grow(this.ownCount, size);
    this.score = grow(this.score, size);
  }

  #scopeId(scope: string): number {
    let id = this.scopeIds.get(scope);
    if (id === undefined) {
      id = this.scopeDocs.length;
      this.scopeIds.set(scope, id);
      this.scopeDocs.push(0);
      this.scopeLength.push(0);
    }
    return id;
  }

  /** Applies rows as they are now (inserted or changed); `ftsTerms` holds the SQLite-tokenised ones. */
  apply(rows: readonly SourceRow[], ftsTerms: ReadonlyMap<number, FtsTerms>): void {
    for (const row of rows) {
      const r = row.rowid;
      this.#ensure(r);
      const hash = textHash(row);
      const wasPresent = this.present[r] === 1;
      if (wasPresent) this.#unapply(r);
      const textChanged = !wasPresent || this.textHash[r] !== hash;
      if (textChanged) {
        const fts = ftsTerms.get(r) ?? plainFtsTerms(row.content, row.tags, row.entities);
        const own = ownTerms(row.content, row.tags, row.entities);
        if (r > this.maxRowid) {
          for (const [term, freq] of fts.terms) {
            let list = this.postings.get(term);
            if (list === undefined) {
              list = new Postings();
              this.postings.set(term, list);
            }
            list.add(r, freq);
          }
          this.maxRowid = r;
        } else {
          this.moved[r] = 1;
          this.deadGeneration++;
          this.delta.set(r, fts.terms);
        }
        this.ftsLength[r] = fts.length;
        this.bm25Length[r] = row.term_count ?? own.length;
        this.textHash[r] = hash;
        this.#writeOwn(r, own.terms);
      } else {
        this.bm25Length[r] = row.term_count ?? termLength(row.content);
      }
      this.present[r] = 1;
      this.posted[r] = this.moved[r] === 1 ? 0 : 1;
      this.ids[r] = row.id;
      const scope = this.#scopeId(row.scope);
      if (wasPresent && this.scope[r] !== scope) this.deadGeneration++;
      this.scope[r] = scope;
      this.layer[r] = LAYERS.indexOf(row.layer as (typeof LAYERS)[number]);
      this.status[r] = STATUSES.indexOf(row.status as (typeof STATUSES)[number]);
      this.validFrom[r] = row.valid_from;
      this.validTo[r] = row.valid_to ?? Number.NaN;
      this.recordedAt[r] = row.recorded_at;
      this.invalidatedAt[r] = row.invalidated_at ?? Number.NaN;
      this.termCount[r] = row.term_count ?? -1;
      this.#reapply(r);
    }
  }

  remove(rowid: number): void {
    if (rowid >= this.present.length || this.present[rowid] !== 1) return;
    this.#unapply(rowid);
    this.present[rowid] = 0;
    this.posted[rowid] = 0;
    this.deadGeneration++;
    this.delta.delete(rowid);
  }

  #unapply(r: number): void {
    const scope = this.scope[r] as number;
    this.rows--;
    this.tokens -= this.ftsLength[r] as number;
    this.scopeDocs[scope] = (this.scopeDocs[scope] as number) - 1;
    const count = this.termCount[r] as number;
    if (count >= 0) this.scopeLength[scope] = (this.scopeLength[scope] as number) - count;
  }

  #reapply(r: number): void {
    const scope = this.scope[r] as number;
    this.rows++;
    this.tokens += this.ftsLength[r] as number;
    this.scopeDocs[scope] = (this.scopeDocs[scope] as number) + 1;
    const count = this.termCount[r] as number;
    if (count >= 0) this.scopeLength[scope] = (this.scopeLength[scope] as number) + count;
  }

  #writeOwn(r: number, terms: ReadonlyMap<string, number>): void {
    const need = this.ownUsed + terms.size;
    if (need > this.ownStems.length) {
      let capacity = this.ownStems.length * 2;
      while (capacity < need) capacity *= 2;
      const stems = new Int32Array(capacity);
      stems.set(this.ownStems.subarray(0, this.ownUsed));
      this.ownStems = stems;
      const freqs = new Float32Array(capacity);
      freqs.set(this.ownFreqs.subarray(0, this.ownUsed));
      this.ownFreqs = freqs;
    }
    this.ownStart[r] = this.ownUsed;
    this.ownCount[r] = terms.size;
    for (const [s, freq] of terms) {
      let id = this.stemIds.get(s);
      if (id === undefined) {
        id = this.stemIds.size;
        this.stemIds.set(s, id);
      }
      this.ownStems[this.ownUsed] = id;
      this.ownFreqs[this.ownUsed] = freq;
      this.ownUsed++;
    }
  }

  /** Drops spare capacity once built: posting lists and the stem arena at their exact sizes. */
  compact(): void {
    for (const list of this.postings.values()) list.compact();
    this.ownStems = this.ownStems.slice(0, Math.max(1024, this.ownUsed));
    this.ownFreqs = this.ownFreqs.slice(0, Math.max(1024, this.ownUsed));
  }

  /** Indexes the next rows above `maxRowid`; `true` when there were no more. */
  readChunk(connection: SqliteConnection): boolean {
    const rows = connection.all<SourceRow>(
      `SELECT ${ROW_COLUMNS} FROM memories WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      this.maxRowid,
      BUILD_CHUNK,
    );
    this.apply(
      rows,
      sqliteFtsTerms(
        connection,
        rows.filter((row) => !(plainText(row.content) && plainText(row.tags) && plainText(row.entities))),
      ),
    );
    return rows.length < BUILD_CHUNK;
  }

  /** Reads rows above `maxRowid` and rows named by the change log since `mark`, in the caller's snapshot. */
  catchUp(connection: SqliteConnection): void {
    const top = connection.get<{ r: number | null }>('SELECT max(rowid) AS r FROM memories')?.r ?? 0;
    const changes = connection.all<{ seq: number; memory_rowid: number }>(
      'SELECT seq, memory_rowid FROM memory_changes WHERE seq > ? ORDER BY seq',
      this.mark,
    );
    if (top <= this.maxRowid && changes.length === 0) return;
    const changed = new Set<number>();
    for (const change of changes) if (change.memory_rowid <= this.maxRowid) changed.add(change.memory_rowid);
    const rows: SourceRow[] = [];
    if (changed.size > 0) {
      const found = connection.all<SourceRow>(
        `SELECT ${ROW_COLUMNS} FROM memories WHERE rowid IN (SELECT value FROM json_each(?))`,
        JSON.stringify([...changed]),
      );
      const seen = new Set(found.map((row) => row.rowid));
      for (const rowid of changed) if (!seen.has(rowid)) this.remove(rowid);
      rows.push(...found);
    }
    if (top > this.maxRowid)
      rows.push(...connection.all<SourceRow>(`SELECT ${ROW_COLUMNS} FROM memories WHERE rowid > ? ORDER BY rowid`, this.maxRowid));
    rows.sort((x, y) => x.rowid - y.rowid);
    this.apply(
      rows,
      sqliteFtsTerms(
        connection,
        rows.filter((row) => !(plainText(row.content) && plainText(row.tags) && plainText(row.entities))),
      ),
    );
    const last = changes[changes.length - 1];
    if (last !== undefined) this.mark = last.seq;
  }

  /** FTS5's candidates and `rankBm25`'s ranking of them, or `null` when a query word is not indexable. */
  search(query: IndexedLexicalQuery): ChannelHit[] | null {
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
    const posted = this.posted;
    // Stage 1, FTS5's bm25 (fts5_aux.c): idf = ln((N − n + 0.5) / (n + 0.5)), at least 1e-6, over all rows
    const nRow = this.rows;
    if (nRow <= 0) return [];
    const avgdl = this.tokens / nRow;
    const idfOf = new Map<string, number>();
    for (const term of new Set(phraseTerms)) {
      let hits = this.#liveCount(term, undefined);
      for (const terms of this.delta.values()) if (terms.has(term)) hits++;
      let idf = Math.log((nRow - hits + 0.5) / (hits + 0.5));
      if (idf <= 0) idf = 1e-6;
      idfOf.set(term, idf);
    }
    const k1 = 1.2;
    const b = 0.75;
    const score = this.score;
    const ftsLength = this.ftsLength;
    if (this.touched.length < this.present.length) this.touched = new Int32Array(this.present.length);
    const touched = this.touched;
    let touchedCount = 0;
    for (let p = 0; p < phraseTerms.length; p++) {
      const term = phraseTerms[p] as string;
      const repetitions = query.phrases[p]?.repetitions ?? 1;
      const idf = idfOf.get(term) as number;
      const list = this.postings.get(term);
      if (list !== undefined) {
        const docs = list.docs;
        const freqs = list.freqs;
        for (let i = 0; i < list.length; i++) {
          const d = docs[i] as number;
          if (posted[d] !== 1) continue;
          const f = freqs[i] as number;
          const add = idf * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * (ftsLength[d] as number)) / avgdl)));
          const before = score[d] as number;
          if (before === 0) touched[touchedCount++] = d;
          if (repetitions === 1) score[d] = before + add;
          else for (let rep = 0; rep < repetitions; rep++) score[d] = (score[d] as number) + add;
        }
      }
      for (const [d, terms] of this.delta) {
        const f = terms.get(term);
        if (f === undefined) continue;
        const add = idf * ((f * (k1 + 1.0)) / (f + k1 * (1 - b + (b * (ftsLength[d] as number)) / avgdl)));
        if (score[d] === 0) touched[touchedCount++] = d;
        for (let rep = 0; rep < repetitions; rep++) score[d] = (score[d] as number) + add;
      }
    }
    // the best `candidates` visible rows of the scopes and layers, by score then rowid
    const scopeSet = new Set<number>();
    for (const scope of query.scopes) {
      const id = this.scopeIds.get(scope);
      if (id !== undefined) scopeSet.add(id);
    }
    const layerSet =
      query.layers === undefined ? undefined : new Set(query.layers.map((layer) => LAYERS.indexOf(layer as (typeof LAYERS)[number])));
    const visible = visibilityBounds(query.filter, query.now);
    const heap = new CandidateHeap(query.candidates, score);
    for (let i = 0; i < touchedCount; i++) {
      const d = touched[i] as number;
      // the filters only for rows that would enter the heap
      if (!heap.wants(d)) continue;
      if (
        scopeSet.has(this.scope[d] as number) &&
        (layerSet === undefined || layerSet.has(this.layer[d] as number)) &&
        this.#visible(d, visible)
      )
        heap.offer(d);
    }
    const candidates = heap.rows();
    for (let i = 0; i < touchedCount; i++) score[touched[i] as number] = 0;
    if (candidates.length === 0) return [];
    return this.#rank(candidates, query, surfaceTerms, scopeSet);
  }

  /** The rows among `rowids` in `scopes` (and `layers`) visible under `filter`, as rowid → id. */
  visibleIds(
    rowids: readonly number[],
    scopes: readonly Scope[],
    layers: readonly string[] | undefined,
    filter: TimeFilter,
    now: number,
  ): Map<number, string> {
    const scopeSet = new Set<number>();
    for (const scope of scopes) {
      const id = this.scopeIds.get(scope);
      if (id !== undefined) scopeSet.add(id);
    }
    const layerSet = layers === undefined ? undefined : new Set(layers.map((layer) => LAYERS.indexOf(layer as (typeof LAYERS)[number])));
    const v = visibilityBounds(filter, now);
    const out = new Map<number, string>();
    for (const d of rowids) {
      if (d >= this.present.length || this.present[d] !== 1 || !scopeSet.has(this.scope[d] as number)) continue;
      if ((layerSet === undefined || layerSet.has(this.layer[d] as number)) && this.#visible(d, v)) out.set(d, this.ids[d] as string);
    }
    return out;
  }

  #visible(d: number, v: VisibilityBounds): boolean {
    const validTo = this.validTo[d] as number;
    const invalidatedAt = this.invalidatedAt[d] as number;
    return visibleUnder(
      v,
      STATUSES[this.status[d] as number] as MemoryStatus,
      this.recordedAt[d] as number,
      this.validFrom[d] as number,
      Number.isNaN(validTo) ? null : validTo,
      Number.isNaN(invalidatedAt) ? null : invalidatedAt,
    );
  }

  /** Stage 2, `rankBm25` with the scopes' statistics (as `LexicalStatistics.collect` counts them). */
  #rank(
    candidates: readonly number[],
    query: IndexedLexicalQuery,
    surfaceTerms: ReadonlyMap<string, readonly string[]>,
    scopeSet: ReadonlySet<number>,
  ): ChannelHit[] {
    let docs = 0;
    let totalLength = 0;
    for (const id of scopeSet) {
      docs += this.scopeDocs[id] as number;
      totalLength += this.scopeLength[id] as number;
    }
    const avgLength = docs > 0 ? totalLength / docs : 1;
    const { k1, b } = query;
    const stems = [...query.weights.keys()];
    const stemId = stems.map((s) => this.stemIds.get(s) ?? -1);
    const weighed = bm25Query(
      stems.map((s) => query.weights.get(s) as number),
      stems.map((s) => Math.min(this.#documentFrequency(surfaceTerms.get(s) ?? [], scopeSet), docs)),
      docs,
    );
    const scored: { rowid: number; score: number; coverage: number }[] = [];
    const tf = new Float64Array(stems.length);
    for (const d of candidates) {
      tf.fill(0);
      const start = this.ownStart[d] as number;
      const end = start + (this.ownCount[d] as number);
      for (let i = start; i < end; i++) {
        const id = this.ownStems[i] as number;
        for (let j = 0; j < stemId.length; j++) if (stemId[j] === id) tf[j] = this.ownFreqs[i] as number;
      }
      const hit = bm25Document(weighed, tf, this.bm25Length[d] as number, avgLength, k1, b);
      if (hit.score > 0) scored.push({ rowid: d, ...hit });
    }
    const hits: ChannelHit[] = scored.map((s) => ({ id: this.ids[s.rowid] as string, score: s.score, coverage: s.coverage }));
    return hits.sort((x, y) => y.score - x.score || (x.id < y.id ? -1 : 1)).slice(0, query.limit);
  }

  /** Posted rows (present, text unchanged) holding `term`, of the scopes when given; cached until rows die. */
  #liveCount(term: string, scopeSet: ReadonlySet<number> | undefined): number {
    const list = this.postings.get(term);
    if (list === undefined) return 0;
    const key = scopeSet === undefined ? term : `${term}\u0000${[...scopeSet].sort((x, y) => x - y).join(',')}`;
    const cached = this.#counts.get(key);
    if (cached !== undefined && cached.length === list.length && cached.generation === this.deadGeneration) return cached.n;
    let n = 0;
    // rows appended since the cached count only add to it
    let from = 0;
    if (cached !== undefined && cached.generation === this.deadGeneration && cached.length < list.length) {
      n = cached.n;
      from = cached.length;
    }
    const docs = list.docs;
    for (let i = from; i < list.length; i++) {
      const d = docs[i] as number;
      if (this.posted[d] === 1 && (scopeSet === undefined || scopeSet.has(this.scope[d] as number))) n++;
    }
    if (this.#counts.size > 100_000) this.#counts.clear();
    this.#counts.set(key, { length: list.length, generation: this.deadGeneration, n });
    return n;
  }

  /** Rows of the scopes (any status) holding any of `terms`, as an FTS5 MATCH of the words counts them. */
  #documentFrequency(terms: readonly string[], scopeSet: ReadonlySet<number>): number {
    if (terms.length === 1) {
      const term = terms[0] as string;
      let n = this.#liveCount(term, scopeSet);
      for (const [d, row] of this.delta) if (row.has(term) && scopeSet.has(this.scope[d] as number)) n++;
      return n;
    }
    const counted = terms.length > 1 ? new Set<number>() : undefined;
    let n = 0;
    const count = (d: number): void => {
      if (!scopeSet.has(this.scope[d] as number)) return;
      if (counted === undefined) n++;
      else counted.add(d);
    };
    for (const term of terms) {
      const list = this.postings.get(term);
      if (list !== undefined) {
        for (let i = 0; i < list.length; i++) {
          const d = list.docs[i] as number;
          if (this.posted[d] === 1) count(d);
        }
      }
      for (const [d, row] of this.delta) if (row.has(term)) count(d);
    }
    return counted === undefined ? n : counted.size;
  }
}

/** The best `size` rows by (score descending, rowid ascending): a bounded min-heap. */
class CandidateHeap {
  readonly #rows: number[] = [];
  readonly #size: number;
  readonly #score: Float64Array;

  constructor(size: number, score: Float64Array) {
    this.#size = size;
    this.#score = score;
  }

  /** Whether row `a` ranks below row `b`. */
  #worse(a: number, b: number): boolean {
    const sa = this.#score[a] as number;
    const sb = this.#score[b] as number;
    return sa < sb || (sa === sb && a > b);
  }

  /** Whether row `d` would enter the heap now. */
  wants(d: number): boolean {
    return this.#rows.length < this.#size || (this.#size > 0 && this.#worse(this.#rows[0] as number, d));
  }

  offer(d: number): void {
    const heap = this.#rows;
    if (heap.length < this.#size) {
      heap.push(d);
      let i = heap.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(heap[i] as number, heap[parent] as number)) break;
        [heap[i], heap[parent]] = [heap[parent] as number, heap[i] as number];
        i = parent;
      }
      return;
    }
    if (this.#size === 0 || !this.#worse(heap[0] as number, d)) return;
    heap[0] = d;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < heap.length && this.#worse(heap[left] as number, heap[worst] as number)) worst = left;
      if (right < heap.length && this.#worse(heap[right] as number, heap[worst] as number)) worst = right;
      if (worst === i) break;
      [heap[i], heap[worst]] = [heap[worst] as number, heap[i] as number];
      i = worst;
    }
  }

  rows(): number[] {
    return [...this.#rows];
  }
}

/** Yields to the event loop without keeping the process alive. */
function pause(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0).unref();
  });
}

/** A 32-bit FNV-1a hash of the indexed text, mixed with its length, to tell text changes from others. */
function textHash(row: SourceRow): number {
  let h = 0x811c9dc5;
  for (const text of [row.content, row.tags, row.entities]) {
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0xff;
    h = Math.imul(h, 0x01000193);
  }
  return (h ^ (row.content.length + row.tags.length * 31 + row.entities.length * 131)) | 0;
}

/**
 * The store's lexical index: built on demand (`prepare`, or the first search of a store with at least
 * `threshold` rows), used once ready; until then, and for queries it cannot answer, callers use FTS5.
 */
export class LexicalIndex {
  readonly #connection: SqliteConnection;
  readonly #threshold: number;
  #data: LexicalData | undefined;
  #building: Promise<boolean> | undefined;
  #closed = false;
  #checkedSize = false;

  readonly #logger: { info(message: string): void } | undefined;

  constructor(connection: SqliteConnection, threshold: number, logger?: { info(message: string): void }) {
    this.#connection = connection;
    this.#threshold = threshold;
    this.#logger = logger;
  }

  get ready(): boolean {
    return this.#data !== undefined;
  }

  /** Builds the index now if it is not built; resolves `true` once it serves searches. */
  prepare(): Promise<boolean> {
    if (this.#data !== undefined) return Promise.resolve(true);
    if (this.#threshold === Infinity) return Promise.resolve(false);
    this.#building ??= this.#build().finally(() => {
      this.#building = undefined;
    });
    // the build's pauses do not keep the process alive (a one-shot command may exit mid-build); a caller
    // waiting for it does
    const keepAlive = setInterval(() => undefined, 60_000);
    return this.#building.finally(() => clearInterval(keepAlive));
  }

  /**
   * Answers a search from the index (caught up first, inside the caller's snapshot), or `null`: not
   * built yet (a build starts when the store is large enough), or a query word it does not index.
   */
  search(connection: SqliteConnection, query: IndexedLexicalQuery): ChannelHit[] | null {
    if (this.#data === undefined) this.#maybeStart(connection);
    const data = this.#data;
    if (data === undefined) {
      this.#usage.fts++;
      return null;
    }
    data.catchUp(connection);
    if (data.delta.size > MAX_DELTA && this.#building === undefined) this.#rebuild();
    const hits = data.search(query);
    if (hits === null) this.#usage.fts++;
    else this.#usage.indexed++;
    return hits;
  }

  readonly #usage = { indexed: 0, fts: 0 };

  /**
   * The vector search's post-filter from the index (caught up first, in the caller's snapshot): the
   * rows among `rowids` of the scopes and layers visible under the filter, as rowid → id; `null` when
   * the index is not built.
   */
  visibleIds(
    connection: SqliteConnection,
    rowids: readonly number[],
    query: { scopes: readonly Scope[]; layers?: readonly string[] | undefined; now: number } & TimeFilter,
  ): Map<number, string> | null {
    const data = this.#data;
    if (data === undefined) return null;
    data.catchUp(connection);
    return data.visibleIds(rowids, query.scopes, query.layers, query, query.now);
  }

  /** How many searches the index answered, and how many it left to FTS5 (not ready, or a word it does not index). */
  get usage(): { readonly indexed: number; readonly fts: number; readonly rows: number } {
    return { ...this.#usage, rows: this.#data?.rows ?? 0 };
  }

  close(): void {
    this.#closed = true;
  }

  #maybeStart(connection: SqliteConnection): void {
    if (this.#building !== undefined || this.#checkedSize || this.#threshold === Infinity) return;
    const size = connection.get<{ n: number | null }>("SELECT seq AS n FROM sqlite_sequence WHERE name = 'memories'")?.n ?? 0;
    if (size < this.#threshold) return;
    if (size <= INLINE_BUILD_MAX) {
      // small enough to build at once, inside the caller's snapshot
      const data = new LexicalData();
      data.mark = connection.get<{ m: number | null }>('SELECT max(seq) AS m FROM memory_changes')?.m ?? 0;
      while (!data.readChunk(connection));
      data.catchUp(connection);
      this.#data = data;
      return;
    }
    this.#checkedSize = true;
    void this.prepare().catch(() => undefined);
  }

  #rebuild(): void {
    const current = this.#data;
    this.#building = this.#buildData()
      .then((data) => {
        if (data !== undefined && this.#data === current) this.#data = data;
        return data !== undefined;
      })
      .catch(() => false)
      .finally(() => {
        this.#building = undefined;
      });
  }

  async #build(): Promise<boolean> {
    const data = await this.#buildData();
    if (data === undefined) return false;
    this.#data = data;
    return true;
  }

  async #buildData(): Promise<LexicalData | undefined> {
    const started = performance.now();
    const data = await this.#readAll();
    if (data !== undefined)
      this.#logger?.info(`built the in-memory lexical index (${data.rows} rows, ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    return data;
  }

  async #readAll(): Promise<LexicalData | undefined> {
    const connection = this.#connection;
    const data = new LexicalData();
    // never inside the search that started the build, and between chunks let searches (on FTS5) run
    await pause();
    if (this.#closed) return undefined;
    data.mark = connection.snapshot(() => connection.get<{ m: number | null }>('SELECT max(seq) AS m FROM memory_changes')?.m ?? 0);
    for (;;) {
      if (this.#closed) return undefined;
      const done = connection.snapshot(() => data.readChunk(connection));
      if (done) break;
      await pause();
    }
    if (this.#closed) return undefined;
    data.compact();
    connection.snapshot(() => data.catchUp(connection));
    return data;
  }
}
