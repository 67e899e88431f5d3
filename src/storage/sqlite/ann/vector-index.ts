/**
 * An exact in-memory vector index per scope, derived from the vectors stored in SQLite (the single
 * source of truth). Faster than sqlite-vec's scan for large scopes: a tight JS loop over Float32Array
 * blocks. Loaded lazily per scope, then caught up before each search from `vector_changes` by a
 * high-water mark, because other connections and processes write too. Status and time filters are
 * not its job: callers post-filter the candidates it returns against the database.
 */
import { prunedPast } from '../change-feeds.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { readScopeChunks, readScopeRows, readVectors, type VectorChunk } from './stored-vectors.js';

/** A candidate: the memory's rowid and its cosine similarity to the query. */
export interface ScoredRow {
  rowid: number;
  score: number;
}

const BLOCK_CAPACITY = 1024;
/** Encodes a slot as `block * SLOT_RANGE + slot`. */
const SLOT_RANGE = 1 << 20;

interface Block {
  readonly vectors: Float32Array;
  /** -1 marks an empty or removed slot. */
  readonly rowids: Float64Array;
  readonly inverseNorms: Float32Array;
  count: number;
}

interface ScopeVectors {
  readonly blocks: Block[];
  readonly positions: Map<number, number>;
  /** The last `vector_changes.seq` applied. */
  highWaterMark: number;
}

export class VectorIndex {
  readonly #connection: SqliteConnection;
  readonly #dimension: number;
  readonly #scopes = new Map<string, ScopeVectors>();
  readonly #searches = new Map<string, number>();

  /** `connection` must see committed data only (the store's read connection). */
  constructor(connection: SqliteConnection, dimension: number) {
    this.#connection = connection;
    this.#dimension = dimension;
  }

  /** Counts a search of `scope` and returns how many there have been in this process. */
  countSearch(scope: string): number {
    const count = (this.#searches.get(scope) ?? 0) + 1;
    this.#searches.set(scope, count);
    return count;
  }

  /** Forgets every loaded scope; they reload on next use (after a rollback on a shared connection). */
  clear(): void {
    this.#scopes.clear();
  }

  isLoaded(scope: string): boolean {
    return this.#scopes.has(scope);
  }

  /** Loads `scope` on first use, then applies every vector change committed since the last sync. */
  sync(scope: string): void {
    this.#connection.snapshot(() => {
      let state = this.#scopes.get(scope);
      // the change feed was pruned past the scope's mark: what was missed is unknown, so reload it
      if (state !== undefined && prunedPast(this.#connection, 'vector_changes', scope, state.highWaterMark)) state = undefined;
      if (state === undefined) {
        state = this.#load(scope);
        this.#scopes.set(scope, state);
      }
      this.#catchUp(scope, state);
    });
  }

  /**
   * The `k` rows of `scope` most similar to `query`, best first, skipping rowids in `exclude`.
   * Call `sync` first.
   */
  search(scope: string, query: Float32Array, k: number, exclude?: ReadonlySet<number>): ScoredRow[] {
    const state = this.#scopes.get(scope);
    if (state === undefined || !(k > 0) || state.positions.size === 0) return [];
    const queryInverseNorm = inverseNorm(query, 0, this.#dimension);
    const heap = new TopK(Math.min(k, state.positions.size));
    const skip = exclude !== undefined && exclude.size > 0 ? exclude : undefined;
    for (const block of state.blocks) {
      const { vectors, rowids, inverseNorms, count } = block;
      for (let slot = 0; slot < count; slot++) {
        const rowid = rowids[slot] as number;
        if (rowid < 0 || (skip !== undefined && skip.has(rowid))) continue;
        const score = dot(vectors, slot * this.#dimension, query, this.#dimension) * (inverseNorms[slot] as number) * queryInverseNorm;
        heap.offer(rowid, score);
      }
    }
    return heap.sorted();
  }

  /** Forgets `scope`'s vectors (another index serves it now); it reloads on next `sync`. */
  drop(scope: string): void {
    this.#scopes.delete(scope);
  }

  #load(scope: string): ScopeVectors {
    const state: ScopeVectors = { blocks: [], positions: new Map(), highWaterMark: 0 };
    state.highWaterMark =
      this.#connection.get<{ seq: number | null }>('SELECT max(seq) AS seq FROM vector_changes WHERE scope = ?', scope)?.seq ?? 0;
    const chunks = readScopeChunks(this.#connection, { scope, dimension: this.#dimension });
    if (chunks !== undefined && chunks.every((chunk) => chunk.size < SLOT_RANGE)) {
      for (const chunk of chunks) this.#addChunk(state, chunk);
    } else {
      const rows = readScopeRows(this.#connection, scope, this.#dimension);
      for (let i = 0; i < rows.size; i++)
        this.#upsert(state, rows.rowids[i] as number, rows.vectors.subarray(i * this.#dimension, (i + 1) * this.#dimension));
    }
    return state;
  }

  /** Adopts a chunk read from sqlite-vec as one block, without copying its vectors. */
  #addChunk(state: ScopeVectors, chunk: VectorChunk): void {
    const { size, rowids, vectors } = chunk;
    const dimension = this.#dimension;
    const inverseNorms = new Float32Array(size);
    const blockIndex = state.blocks.length;
    for (let slot = 0; slot < size; slot++) {
      const rowid = rowids[slot] as number;
      if (rowid < 0) continue;
      inverseNorms[slot] = inverseNorm(vectors, slot * dimension, dimension);
      state.positions.set(rowid, blockIndex * SLOT_RANGE + slot);
    }
    state.blocks.push({ vectors, rowids, inverseNorms, count: size });
  }

  #catchUp(scope: string, state: ScopeVectors): void {
    const changes = this.#connection.all<{ seq: number; memory_rowid: number }>(
      'SELECT seq, memory_rowid FROM vector_changes WHERE scope = ? AND seq > ? ORDER BY seq',
      scope,
      state.highWaterMark,
    );
    if (changes.length === 0) return;
    const changed = new Set(changes.map((c) => c.memory_rowid));
    const vectors = readVectors(this.#connection, changed, this.#dimension);
    for (const rowid of changed) {
      const vector = vectors.get(rowid);
      if (vector === undefined) this.#remove(state, rowid);
      else this.#upsert(state, rowid, vector);
    }
    state.highWaterMark = (changes[changes.length - 1] as { seq: number }).seq;
  }

  #upsert(state: ScopeVectors, rowid: number, source: Float32Array): void {
    const dimension = this.#dimension;
    let position = state.positions.get(rowid);
    if (position === undefined) {
      let tail = state.blocks[state.blocks.length - 1];
      if (tail === undefined || tail.count >= tail.rowids.length) {
        tail = {
          vectors: new Float32Array(BLOCK_CAPACITY * dimension),
          rowids: new Float64Array(BLOCK_CAPACITY).fill(-1),
          inverseNorms: new Float32Array(BLOCK_CAPACITY),
          count: 0,
        };
        state.blocks.push(tail);
      }
      position = (state.blocks.length - 1) * SLOT_RANGE + tail.count;
      tail.count++;
      state.positions.set(rowid, position);
    }
    const block = state.blocks[Math.floor(position / SLOT_RANGE)] as Block;
    const slot = position % SLOT_RANGE;
    block.vectors.set(source, slot * dimension);
    block.rowids[slot] = rowid;
    block.inverseNorms[slot] = inverseNorm(source, 0, dimension);
  }

  #remove(state: ScopeVectors, rowid: number): void {
    const position = state.positions.get(rowid);
    if (position === undefined) return;
    const block = state.blocks[Math.floor(position / SLOT_RANGE)] as Block;
    block.rowids[position % SLOT_RANGE] = -1;
    state.positions.delete(rowid);
  }
}

/** Cosine similarity of two vectors of the same length (0 when either has no length). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  return dot(a, 0, b, a.length) * inverseNorm(a, 0, a.length) * inverseNorm(b, 0, b.length);
}

/** Dot product of `vectors[offset .. offset+length]` with `query`, unrolled 4-way. */
export function dot(vectors: Float32Array, offset: number, query: Float32Array, length: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const end = length - (length % 4);
  let i = 0;
  for (; i < end; i += 4) {
    s0 += (vectors[offset + i] as number) * (query[i] as number);
    s1 += (vectors[offset + i + 1] as number) * (query[i + 1] as number);
    s2 += (vectors[offset + i + 2] as number) * (query[i + 2] as number);
    s3 += (vectors[offset + i + 3] as number) * (query[i + 3] as number);
  }
  for (; i < length; i++) s0 += (vectors[offset + i] as number) * (query[i] as number);
  return s0 + s1 + s2 + s3;
}

/** 1 / the Euclidean norm of `vectors[offset .. offset+length]` (0 for a zero vector). */
export function inverseNorm(vectors: Float32Array, offset: number, length: number): number {
  const norm = Math.sqrt(dot(vectors, offset, vectors.subarray(offset, offset + length), length));
  return norm > 0 ? 1 / norm : 0;
}

/** Keeps the k best (rowid, score) pairs in a binary min-heap. */
class TopK {
  readonly #k: number;
  readonly #scores: Float64Array;
  readonly #rowids: Float64Array;
  #size = 0;

  constructor(k: number) {
    this.#k = k;
    this.#scores = new Float64Array(k);
    this.#rowids = new Float64Array(k);
  }

  offer(rowid: number, score: number): void {
    const scores = this.#scores;
    if (this.#size < this.#k) {
      let i = this.#size++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if ((scores[parent] as number) <= score) break;
        scores[i] = scores[parent] as number;
        this.#rowids[i] = this.#rowids[parent] as number;
        i = parent;
      }
      scores[i] = score;
      this.#rowids[i] = rowid;
      return;
    }
    if (score <= (scores[0] as number)) return;
    let i = 0;
    const size = this.#size;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= size) break;
      const right = left + 1;
      const child = right < size && (scores[right] as number) < (scores[left] as number) ? right : left;
      if ((scores[child] as number) >= score) break;
      scores[i] = scores[child] as number;
      this.#rowids[i] = this.#rowids[child] as number;
      i = child;
    }
    scores[i] = score;
    this.#rowids[i] = rowid;
  }

  /** Best first; ties by rowid so results are deterministic. */
  sorted(): ScoredRow[] {
    const out: ScoredRow[] = [];
    for (let i = 0; i < this.#size; i++) out.push({ rowid: this.#rowids[i] as number, score: this.#scores[i] as number });
    return out.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
  }
}
