/**
 * An exact in-memory vector index per scope, derived from the vectors stored in SQLite (the single
 * source of truth). Faster than sqlite-vec's KNN at every scope size: the vectors sit in WebAssembly
 * memory and a SIMD kernel scans them in place (`core/simd-scan.ts`; a JS loop where SIMD is unavailable).
 * Loaded lazily per scope, then caught up before each search from `vector_changes` by a high-water
 * mark, because other connections and processes write too. Status and time filters are not its job:
 * callers post-filter the candidates it returns against the database.
 *
 * Scopes loaded as evictable (small ones, which sqlite-vec can serve as well) share a memory budget:
 * past it the least recently searched of them are dropped. Other scopes are held regardless.
 */
import { prunedPast } from '../change-feeds.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { dot, inverseNorm, SCAN_ROWS, simdAvailable, VectorArena } from '../../../core/simd-scan.js';
import { readScopeChunks, readScopeRows, readVectors, type VectorChunk } from './stored-vectors.js';

/** A candidate: the memory's rowid and its cosine similarity to the query. */
export interface ScoredRow {
  rowid: number;
  score: number;
}

/** How the index holds and scans its vectors. */
export interface VectorIndexOptions {
  /** Scan with the WebAssembly SIMD kernel when the runtime has it (default true); false runs the JS loop. */
  readonly simd?: boolean;
  /** Bytes that evictable scopes may hold together (default 256 MiB). */
  readonly budgetBytes?: number;
}

/** What the index holds now. */
export interface VectorIndexUsage {
  readonly scopes: number;
  readonly bytes: number;
  readonly evictableBytes: number;
  readonly evictions: number;
  readonly simd: boolean;
}

const BLOCK_CAPACITY = SCAN_ROWS;
const FIRST_BLOCK_CAPACITY = 16;
/** A loaded scope's last block is rounded up to this many rows, leaving room for a few writes. */
const LOAD_STEP = 64;
/** Encodes a slot as `block * SLOT_RANGE + slot`. */
const SLOT_RANGE = BLOCK_CAPACITY;

interface Block {
  readonly arena: VectorArena;
  /** Byte offset of the block's rows in its arena. */
  readonly offset: number;
  /** -1 marks an empty or removed slot; its length is the block's capacity. */
  readonly rowids: Float64Array;
  readonly inverseNorms: Float32Array;
  count: number;
}

interface ScopeVectors {
  readonly blocks: Block[];
  readonly positions: Map<number, number>;
  /** The last `vector_changes.seq` applied. */
  highWaterMark: number;
  bytes: number;
  evictable: boolean;
}

export class VectorIndex {
  readonly #connection: SqliteConnection;
  readonly #dimension: number;
  readonly #simd: boolean;
  readonly #budgetBytes: number;
  /** In least-recently-searched-first order. */
  readonly #scopes = new Map<string, ScopeVectors>();
  readonly #searches = new Map<string, number>();
  readonly #arenas: VectorArena[] = [];
  #evictableBytes = 0;
  #evictions = 0;

  /** `connection` must see committed data only (the store's read connection). */
  constructor(connection: SqliteConnection, dimension: number, options: VectorIndexOptions = {}) {
    this.#connection = connection;
    this.#dimension = dimension;
    this.#simd = options.simd ?? true;
    this.#budgetBytes = options.budgetBytes ?? 256 * 2 ** 20;
  }

  /** Counts a search of `scope` and returns how many there have been in this process (since its eviction). */
  countSearch(scope: string): number {
    const count = (this.#searches.get(scope) ?? 0) + 1;
    this.#searches.set(scope, count);
    return count;
  }

  /** Forgets every loaded scope; they reload on next use (after a rollback on a shared connection). */
  clear(): void {
    for (const scope of [...this.#scopes.keys()]) this.drop(scope);
  }

  isLoaded(scope: string): boolean {
    return this.#scopes.has(scope);
  }

  /** The vectors `scope` holds, as of its last sync (0 when not loaded). */
  size(scope: string): number {
    return this.#scopes.get(scope)?.positions.size ?? 0;
  }

  /** Whether a scope of `rows` vectors, loaded now, fits in the budget of evictable scopes. */
  fits(rows: number): boolean {
    const full = Math.floor(rows / BLOCK_CAPACITY);
    const tail = rows % BLOCK_CAPACITY === 0 ? 0 : loadCapacity(rows % BLOCK_CAPACITY);
    return this.#budgetBytes > 0 && (full * BLOCK_CAPACITY + tail) * this.#rowBytes() <= this.#budgetBytes;
  }

  get usage(): VectorIndexUsage {
    let bytes = 0;
    for (const state of this.#scopes.values()) bytes += state.bytes;
    return {
      scopes: this.#scopes.size,
      bytes,
      evictableBytes: this.#evictableBytes,
      evictions: this.#evictions,
      simd: this.#simd && simdAvailable(),
    };
  }

  /**
   * Loads `scope` on first use, then applies every vector change committed since the last sync.
   * `evictable` scopes count against the budget (see `trim`).
   */
  sync(scope: string, options: { evictable: boolean }): void {
    this.#connection.snapshot(() => {
      let state = this.#scopes.get(scope);
      // the change feed was pruned past the scope's mark: what was missed is unknown, so reload it
      if (state !== undefined && prunedPast(this.#connection, 'vector_changes', scope, state.highWaterMark)) state = undefined;
      if (state === undefined) {
        state = this.#load(scope);
        this.#scopes.set(scope, state);
      }
      this.#setEvictable(state, options.evictable);
      this.#catchUp(scope, state);
    });
  }

  /**
   * Drops the least recently searched evictable scopes, other than those in `keep`, until the
   * evictable ones fit the budget; a dropped scope warms up again before it reloads.
   */
  trim(keep: ReadonlySet<string>): void {
    if (this.#evictableBytes <= this.#budgetBytes) return;
    for (const [scope, state] of [...this.#scopes]) {
      if (this.#evictableBytes <= this.#budgetBytes) return;
      if (!state.evictable || keep.has(scope)) continue;
      this.drop(scope);
      this.#searches.delete(scope);
      this.#evictions++;
    }
  }

  /**
   * The `k` rows of `scope` most similar to `query`, best first, skipping rowids in `exclude` and, when
   * given, rows `accept` refuses.
   * Call `sync` first.
   */
  search(scope: string, query: Float32Array, k: number, exclude?: ReadonlySet<number>, accept?: (rowid: number) => boolean): ScoredRow[] {
    const state = this.#scopes.get(scope);
    if (state === undefined || !(k > 0) || state.positions.size === 0) return [];
    this.#scopes.delete(scope);
    this.#scopes.set(scope, state);
    const queryInverseNorm = inverseNorm(query, 0, this.#dimension);
    const heap = new TopK(Math.min(k, state.positions.size));
    const skip = exclude !== undefined && exclude.size > 0 ? exclude : undefined;
    for (const arena of this.#arenas) arena.setQuery(query);
    for (const block of state.blocks) {
      const { arena, offset, rowids, inverseNorms, count } = block;
      const dots = arena.scan(offset, count);
      for (let slot = 0; slot < count; slot++) {
        const rowid = rowids[slot] as number;
        if (rowid < 0 || (skip !== undefined && skip.has(rowid))) continue;
        const score = (dots[slot] as number) * (inverseNorms[slot] as number) * queryInverseNorm;
        // the filter runs only for rows that would enter the heap
        if (accept !== undefined && (!heap.wants(score) || !accept(rowid))) continue;
        heap.offer(rowid, score);
      }
    }
    return heap.sorted();
  }

  /** Forgets `scope`'s vectors (another index serves it now); it reloads on next `sync`. */
  drop(scope: string): void {
    const state = this.#scopes.get(scope);
    if (state === undefined) return;
    this.#setEvictable(state, false);
    for (const block of state.blocks) block.arena.release(block.offset, block.rowids.length * this.#rowBytes());
    this.#scopes.delete(scope);
  }

  #rowBytes(): number {
    return Math.ceil(this.#dimension / 8) * 8 * 4;
  }

  #setEvictable(state: ScopeVectors, evictable: boolean): void {
    if (state.evictable === evictable) return;
    this.#evictableBytes += evictable ? state.bytes : -state.bytes;
    state.evictable = evictable;
  }

  #load(scope: string): ScopeVectors {
    const state: ScopeVectors = { blocks: [], positions: new Map(), highWaterMark: 0, bytes: 0, evictable: false };
    state.highWaterMark =
      this.#connection.get<{ seq: number | null }>('SELECT max(seq) AS seq FROM vector_changes WHERE scope = ?', scope)?.seq ?? 0;
    const chunks: readonly VectorChunk[] = readScopeChunks(this.#connection, { scope, dimension: this.#dimension }) ?? [
      readScopeRows(this.#connection, scope, this.#dimension),
    ];
    let rows = 0;
    for (const chunk of chunks) for (let slot = 0; slot < chunk.size; slot++) if ((chunk.rowids[slot] as number) >= 0) rows++;
    for (const chunk of chunks) {
      // runs of live slots are copied in one piece
      for (let slot = 0; slot < chunk.size;) {
        if ((chunk.rowids[slot] as number) < 0) {
          slot++;
          continue;
        }
        let end = slot + 1;
        while (end < chunk.size && (chunk.rowids[end] as number) >= 0) end++;
        this.#appendRun(state, chunk, { from: slot, to: end, expected: rows });
        slot = end;
      }
    }
    return state;
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
    const position = state.positions.get(rowid);
    if (position === undefined) {
      this.#append(state, rowid, source, 0);
      return;
    }
    const block = state.blocks[Math.floor(position / SLOT_RANGE)] as Block;
    const slot = position % SLOT_RANGE;
    block.arena.write(block.offset, slot, source);
    block.inverseNorms[slot] = inverseNorm(source, 0, this.#dimension);
  }

  /**
   * Adds a row at the end. A new block is sized for the `expected` rows still to come (a load), else
   * twice the last one (growth), up to a full block.
   */
  #append(state: ScopeVectors, rowid: number, source: Float32Array, expected: number): void {
    let tail = state.blocks[state.blocks.length - 1];
    if (tail === undefined || tail.count >= tail.rowids.length) {
      tail = this.#allocateBlock(expected > 0 ? loadCapacity(expected) : growthCapacity(2 * (tail?.rowids.length ?? 0)));
      state.blocks.push(tail);
      const bytes = tail.rowids.length * this.#rowBytes();
      state.bytes += bytes;
      if (state.evictable) this.#evictableBytes += bytes;
    }
    const slot = tail.count++;
    state.positions.set(rowid, (state.blocks.length - 1) * SLOT_RANGE + slot);
    tail.arena.write(tail.offset, slot, source);
    tail.rowids[slot] = rowid;
    tail.inverseNorms[slot] = inverseNorm(source, 0, this.#dimension);
  }

  /**
   * Appends slots `from .. to-1` of `chunk` (all live) while loading; a new block is sized for the
   * `expected` rows of the whole load still to come.
   */
  #appendRun(state: ScopeVectors, chunk: VectorChunk, run: { from: number; to: number; expected: number }): void {
    const dimension = this.#dimension;
    for (let slot = run.from; slot < run.to;) {
      let tail = state.blocks[state.blocks.length - 1];
      if (tail === undefined || tail.count >= tail.rowids.length) {
        tail = this.#allocateBlock(loadCapacity(run.expected - state.positions.size));
        state.blocks.push(tail);
        state.bytes += tail.rowids.length * this.#rowBytes();
      }
      const count = Math.min(tail.rowids.length - tail.count, run.to - slot);
      const vectors = chunk.vectors.subarray(slot * dimension, (slot + count) * dimension);
      tail.arena.writeRows(tail.offset, tail.count, vectors);
      const blockIndex = state.blocks.length - 1;
      for (let i = 0; i < count; i++) {
        const rowid = chunk.rowids[slot + i] as number;
        tail.rowids[tail.count + i] = rowid;
        tail.inverseNorms[tail.count + i] = inverseNorm(vectors, i * dimension, dimension);
        state.positions.set(rowid, blockIndex * SLOT_RANGE + tail.count + i);
      }
      tail.count += count;
      slot += count;
    }
  }

  #allocateBlock(capacity: number): Block {
    const bytes = capacity * this.#rowBytes();
    for (const arena of this.#arenas) {
      const offset = arena.allocate(bytes);
      if (offset !== undefined) return block(arena, offset, capacity);
    }
    const arena = new VectorArena(this.#dimension, { simd: this.#simd });
    this.#arenas.push(arena);
    const offset = arena.allocate(bytes);
    if (offset === undefined) throw new RangeError('the vector index could not allocate memory');
    return block(arena, offset, capacity);
  }

  #remove(state: ScopeVectors, rowid: number): void {
    const position = state.positions.get(rowid);
    if (position === undefined) return;
    const block = state.blocks[Math.floor(position / SLOT_RANGE)] as Block;
    block.rowids[position % SLOT_RANGE] = -1;
    state.positions.delete(rowid);
  }
}

function block(arena: VectorArena, offset: number, capacity: number): Block {
  return { arena, offset, rowids: new Float64Array(capacity).fill(-1), inverseNorms: new Float32Array(capacity), count: 0 };
}

/** A block loaded with `rows` rows: a multiple of LOAD_STEP rows, up to a full block. */
function loadCapacity(rows: number): number {
  return Math.min(BLOCK_CAPACITY, Math.max(FIRST_BLOCK_CAPACITY, Math.ceil(rows / LOAD_STEP) * LOAD_STEP));
}

/** A block for rows added after the load: a power of two from FIRST_BLOCK_CAPACITY to a full block. */
function growthCapacity(rows: number): number {
  return Math.min(BLOCK_CAPACITY, Math.max(FIRST_BLOCK_CAPACITY, 2 ** Math.ceil(Math.log2(Math.max(1, rows)))));
}

/** Cosine similarity of two vectors of the same length (0 when either has no length). */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  return dot(a, 0, b, a.length) * inverseNorm(a, 0, a.length) * inverseNorm(b, 0, b.length);
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

  /** Whether a row scoring `score` would enter the heap now. */
  wants(score: number): boolean {
    return this.#size < this.#k || score > (this.#scores[0] as number);
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
