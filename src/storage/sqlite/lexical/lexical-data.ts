/**
 * The in-memory lexical index's data, per row in typed arrays indexed by rowid: scope, layer, status, the
 * time fields of the visibility filter, FTS5's document length, Engram's term count; FTS5's terms as
 * posting lists (weighted frequency per row, stop-word terms left out) and Engram's own stems as a
 * forward list. A row whose text changed after it was posted keeps its old postings skipped and its new
 * terms in a small delta. Kept up to date from the `memories` table and its change log; replaced as a
 * whole by a rebuild.
 */
import { LAYERS, STATUSES, visibleUnder, type MemoryStatus, type VisibilityBounds } from '../../../core/memory.js';
import { termLength } from '../../../core/text/bm25.js';
import type { Scope } from '../../../core/scope.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { ownTerms, plainRowFtsTerms, unplainFtsTerms, type FtsTerms } from './lexical-tokens.js';
import { PostingTable } from './postings.js';
import { feedFloor } from '../change-feeds.js';

/** A `memories` row as the index reads it. */
export interface SourceRow {
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

export const LEXICAL_ROW_COLUMNS =
  'rowid, id, scope, layer, status, content, tags, entities, term_count, valid_from, valid_to, recorded_at, invalidated_at';
/** Rows read per snapshot while building (each chunk blocks the event loop for a few tens of ms). */
const BUILD_CHUNK = 1000;
/** Ids of loaded rows kept decoded at most (~100 bytes each). */
const DECODED_IDS = 200_000;

/** `array` with room for `size` entries (the same array when it has it), new entries set to `fill`. */
function grow<T extends Int32Array | Float64Array | Float32Array | Uint8Array>(array: T, size: number, fill?: number): T {
  if (array.length >= size) return array;
  let capacity = Math.max(1024, array.length);
  while (capacity < size) capacity *= 2;
  const next = new (array.constructor as new (n: number) => T)(capacity);
  next.set(array);
  if (fill !== undefined) next.fill(fill, array.length);
  return next;
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

/** The index's data; replaced as a whole by a rebuild. */
export class LexicalData {
  // per row, indexed by rowid
  present: Uint8Array = new Uint8Array(0);
  moved: Uint8Array = new Uint8Array(0);
  /** present and not moved: the row's base postings count (one array read in the hot loops). */
  posted: Uint8Array = new Uint8Array(0);
  scope: Int32Array = new Int32Array(0);
  layer: Uint8Array = new Uint8Array(0);
  status: Uint8Array = new Uint8Array(0);
  validFrom: Float64Array = new Float64Array(0);
  validTo: Float64Array = new Float64Array(0);
  recordedAt: Float64Array = new Float64Array(0);
  invalidatedAt: Float64Array = new Float64Array(0);
  ftsLength: Int32Array = new Int32Array(0);
  /** `term_count` as stored (−1 for NULL), for the scope statistics. */
  termCount: Int32Array = new Int32Array(0);
  /** The length `rankBm25` uses: `term_count ?? termLength(content)`. */
  bm25Length: Int32Array = new Int32Array(0);
  textHash: Int32Array = new Int32Array(0);
  ownStart: Int32Array = new Int32Array(0);
  ownCount: Int32Array = new Int32Array(0);
  /** Memory ids by rowid, of the rows applied here; rows loaded from a file read theirs from `#idBytes`. */
  readonly ids: string[] = [];
  #idBytes: Buffer | undefined;
  #idStarts: Int32Array = new Int32Array(0);
  readonly #decodedIds = new Map<number, string>();
  // Engram stems, forward: per row a run in these arrays
  ownStems: Int32Array = new Int32Array(1 << 16);
  ownFreqs: Float32Array = new Float32Array(1 << 16);
  ownUsed = 0;
  readonly stemIds = new Map<string, number>();
  // FTS5 terms, inverted
  postings = new PostingTable();
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
  score: Float64Array = new Float64Array(0);
  touched: Int32Array = new Int32Array(0);
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
        const fts = ftsTerms.get(r) ?? plainRowFtsTerms(row);
        const own = ownTerms(row.content, row.tags, row.entities);
        if (r > this.maxRowid) {
          for (const [term, freq] of fts.terms) this.postings.open(term).add(r, freq);
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
    this.postings.compact();
    this.ownStems = this.ownStems.slice(0, Math.max(1024, this.ownUsed));
    this.ownFreqs = this.ownFreqs.slice(0, Math.max(1024, this.ownUsed));
  }

  /** Indexes the next rows above `maxRowid`; `true` when there were no more. */
  readChunk(connection: SqliteConnection): boolean {
    const rows = connection.all<SourceRow>(
      `SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE rowid > ? ORDER BY rowid LIMIT ?`,
      this.maxRowid,
      BUILD_CHUNK,
    );
    this.#applyRead(connection, rows);
    return rows.length < BUILD_CHUNK;
  }

  /**
   * Reads rows above `maxRowid` and rows named by the change log since `mark`, in the caller's snapshot.
   * `false` (nothing read) when the log was pruned past `mark`: the data can no longer be caught up.
   */
  catchUp(connection: SqliteConnection): boolean {
    if (feedFloor(connection, 'memory_changes', '') > this.mark + 1) return false;
    const top = connection.get<{ r: number | null }>('SELECT max(rowid) AS r FROM memories')?.r ?? 0;
    const changes = connection.all<{ seq: number; memory_rowid: number }>(
      'SELECT seq, memory_rowid FROM memory_changes WHERE seq > ? ORDER BY seq',
      this.mark,
    );
    if (top <= this.maxRowid && changes.length === 0) return true;
    const changed = new Set<number>();
    for (const change of changes) if (change.memory_rowid <= this.maxRowid) changed.add(change.memory_rowid);
    const rows: SourceRow[] = [];
    if (changed.size > 0) {
      const found = connection.all<SourceRow>(
        `SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE rowid IN (SELECT value FROM json_each(?))`,
        JSON.stringify([...changed]),
      );
      const seen = new Set(found.map((row) => row.rowid));
      for (const rowid of changed) if (!seen.has(rowid)) this.remove(rowid);
      rows.push(...found);
    }
    if (top > this.maxRowid)
      rows.push(...connection.all<SourceRow>(`SELECT ${LEXICAL_ROW_COLUMNS} FROM memories WHERE rowid > ? ORDER BY rowid`, this.maxRowid));
    rows.sort((x, y) => x.rowid - y.rowid);
    this.#applyRead(connection, rows);
    const last = changes[changes.length - 1];
    if (last !== undefined) this.mark = last.seq;
    return true;
  }

  /**
   * The memory id of row `d`. A loaded row's id is decoded once and kept (at most `DECODED_IDS`, then
   * they start again): a search hands out the same rows' ids query after query, and the same string
   * object is hashed once by every map it is looked up in (decoding took 0.27 ms of a LoCoMo recall).
   */
  idOf(d: number): string {
    const id = this.ids[d];
    if (id !== undefined || this.#idBytes === undefined || d + 1 >= this.#idStarts.length) return id as string;
    let decoded = this.#decodedIds.get(d);
    if (decoded === undefined) {
      decoded = this.#idBytes.toString('utf8', this.#idStarts[d] as number, this.#idStarts[d + 1] as number);
      if (this.#decodedIds.size >= DECODED_IDS) this.#decodedIds.clear();
      this.#decodedIds.set(d, decoded);
    }
    return decoded;
  }

  /** Takes the ids of loaded rows: row `d`'s is the UTF-8 text of `bytes` from `starts[d]` to `starts[d + 1]`. */
  adoptIds(bytes: Buffer, starts: Int32Array): void {
    this.#idBytes = bytes;
    this.#idStarts = starts;
    this.#decodedIds.clear();
  }

  /** Applies rows read from the table: plain text tokenised here, anything else by SQLite's own tokenizer. */
  #applyRead(connection: SqliteConnection, rows: readonly SourceRow[]): void {
    this.apply(rows, unplainFtsTerms(connection, rows));
  }

  /** Whether row `d` is present, of the scopes (and layers) and visible under the bounds. */
  rowVisible(d: number, scopeSet: ReadonlySet<number>, layerSet: ReadonlySet<number> | undefined, v: VisibilityBounds): boolean {
    if (d >= this.present.length || this.present[d] !== 1 || !scopeSet.has(this.scope[d] as number)) return false;
    return (layerSet === undefined || layerSet.has(this.layer[d] as number)) && this.visible(d, v);
  }

  /** Whether row `d` is visible under the bounds. */
  visible(d: number, v: VisibilityBounds): boolean {
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

  /** The ids of the scopes this index has seen. */
  scopeSet(scopes: readonly Scope[]): Set<number> {
    const ids = new Set<number>();
    for (const scope of scopes) {
      const id = this.scopeIds.get(scope);
      if (id !== undefined) ids.add(id);
    }
    return ids;
  }

  /**
   * Calls `visit(row, weighted frequency)` for every row holding FTS5 term `term` as it is now: posted
   * rows from the posting list, rows whose text changed from the delta.
   */
  forEachHolder(term: string, visit: (d: number, f: number) => void): void {
    const list = this.postings.get(term);
    if (list !== undefined) {
      const posted = this.posted;
      const docs = list.docs;
      const freqs = list.freqs;
      for (let i = 0; i < list.length; i++) {
        const d = docs[i] as number;
        if (posted[d] === 1) visit(d, freqs[i] as number);
      }
    }
    this.forEachChanged(term, visit);
  }

  /**
   * Calls `visit(row, weighted frequency)` for every row whose text changed since it was posted (the
   * delta) that holds `term`. A caller that walks `postings.get(term)` itself, skipping rows that are
   * not `posted`, adds these to visit every holder.
   */
  forEachChanged(term: string, visit: (d: number, f: number) => void): void {
    for (const [d, terms] of this.delta) {
      const f = terms.get(term);
      if (f !== undefined) visit(d, f);
    }
  }

  /** Rows (any status) holding `term`, of the scopes when given: the posted ones counted once and cached. */
  rowsHolding(term: string, scopeSet: ReadonlySet<number> | undefined): number {
    let n = this.#liveCount(term, scopeSet);
    for (const [d, row] of this.delta) if (row.has(term) && (scopeSet === undefined || scopeSet.has(this.scope[d] as number))) n++;
    return n;
  }

  /** Posted rows (present, text unchanged) holding `term`, of the scopes when given; cached until rows die. */
  #liveCount(term: string, scopeSet: ReadonlySet<number> | undefined): number {
    const list = this.postings.get(term);
    if (list === undefined) return 0;
    // every scope the index has seen counts as no scope filter (one count, kept once)
    const scopes = scopeSet === undefined || scopeSet.size >= this.scopeDocs.length ? undefined : scopeSet;
    const key = scopes === undefined ? term : `${term}\u0000${[...scopes].sort((x, y) => x - y).join(',')}`;
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
    const posted = this.posted;
    if (scopes === undefined) for (let i = from; i < list.length; i++) n += posted[docs[i] as number] as number;
    else {
      const scope = this.scope;
      for (let i = from; i < list.length; i++) {
        const d = docs[i] as number;
        if (posted[d] === 1 && scopes.has(scope[d] as number)) n++;
      }
    }
    if (this.#counts.size > 100_000) this.#counts.clear();
    this.#counts.set(key, { length: list.length, generation: this.deadGeneration, n });
    return n;
  }

  /** The weighted frequency of FTS5 term `term` in present row `d` (0 when it does not hold it). */
  ftsFrequency(term: string, d: number): number {
    if (this.present[d] !== 1) return 0;
    if (this.moved[d] === 1) return this.delta.get(d)?.get(term) ?? 0;
    const list = this.postings.get(term);
    if (list === undefined) return 0;
    // a list holds its rows in ascending rowid order (rows are posted as they are read, by rowid)
    let low = 0;
    let high = list.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const doc = list.docs[middle] as number;
      if (doc === d) return list.freqs[middle] as number;
      if (doc < d) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  }

  /** `documentFrequency` counted over `rows` (present rows: the scopes' own, listed by the caller). */
  documentFrequencyIn(terms: readonly string[], rows: Int32Array): number {
    let n = 0;
    for (const d of rows) if (terms.some((term) => this.ftsFrequency(term, d) > 0)) n++;
    return n;
  }

  /** Rows of the scopes (any status) holding any of `terms`, as an FTS5 MATCH of the words counts them. */
  documentFrequency(terms: readonly string[], scopeSet: ReadonlySet<number>): number {
    if (terms.length === 1) return this.rowsHolding(terms[0] as string, scopeSet);
    const counted = new Set<number>();
    for (const term of terms)
      this.forEachHolder(term, (d) => {
        if (scopeSet.has(this.scope[d] as number)) counted.add(d);
      });
    return counted.size;
  }
}

/** The layer indexes of `layers` (`undefined`: every layer). */
export function layerIdSet(layers: readonly string[] | undefined): Set<number> | undefined {
  return layers === undefined ? undefined : new Set(layers.map((layer) => LAYERS.indexOf(layer as (typeof LAYERS)[number])));
}
