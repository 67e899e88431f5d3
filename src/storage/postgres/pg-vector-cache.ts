/**
 * Exact vector search without pgvector: each process keeps the embeddings of the scopes it searches in
 * memory, in blocks of rows in WebAssembly memory, and scores them with the SIMD kernel of the SQLite
 * store's exact index (`core/simd-scan.ts`; a JS loop where SIMD is unavailable): tens of times faster
 * than cosine in SQL over `real[]`, and ~8x the plain JS loop this cache ran before (100k vectors).
 * Freshness across servers comes from `vector_log`, an append-only log of every embedding write: before
 * each search one indexed read fetches what other writers changed since this cache's high-water mark
 * (a purge logs the ids it deleted, which the cache then drops). Status, time and layer filters are
 * applied afterwards in SQL, so the cache holds just (id, vector).
 */
import { SCAN_ROWS, VectorArena } from '../../core/simd-scan.js';
import type { PgQueryable } from './pg-driver.js';
import { parseVectorText, type Tables } from './pg-rows.js';

/** `SCAN_ROWS` rows of vectors at `offset` in `arena`: slot s of a scope is row s % SCAN_ROWS of block s / SCAN_ROWS. */
interface Block {
  readonly arena: VectorArena;
  readonly offset: number;
}

interface ScopeVectors {
  highWater: number;
  slots: Map<string, number>;
  ids: string[];
  blocks: Block[];
  norms: Float32Array;
  size: number;
}

export interface ScoredId {
  id: string;
  score: number;
}

export class VectorCache {
  readonly #dimension: number;
  readonly #byScope = new Map<string, ScopeVectors>();
  readonly #pageSize: number;
  readonly #loading = new Map<string, Promise<void>>();
  readonly #simd: boolean;
  /** The arenas blocks are taken from; the last one has room, or a new one is opened. */
  #arenas: VectorArena[] = [];

  /** `pageSize`: vectors per read while a scope is first loaded; `simd: false` scans with the JS loop. */
  constructor(dimension: number, options: { pageSize?: number; simd?: boolean } = {}) {
    this.#dimension = dimension;
    this.#pageSize = Math.max(1, Math.floor(options.pageSize ?? 5000));
    this.#simd = options.simd ?? true;
  }

  /** Brings `scope` up to date from committed data (`db` must be outside any transaction). */
  async sync(db: PgQueryable, t: Tables, scope: string): Promise<void> {
    if (!this.#byScope.has(scope)) {
      // concurrent first searches of a scope share one load
      let loading = this.#loading.get(scope);
      if (loading === undefined) {
        loading = this.#load(db, t, scope).finally(() => this.#loading.delete(scope));
        this.#loading.set(scope, loading);
      }
      await loading;
    }
    await this.#catchUp(db, t, scope);
  }

  /** Reads every vector of `scope` into a new entry, with the log's mark taken first. */
  async #load(db: PgQueryable, t: Tables, scope: string): Promise<void> {
    // the mark first: what is written while loading is fetched again next time (idempotent)
    const mark = Number(
      (await db.query<{ hw: number | null }>(`SELECT max(seq) AS hw FROM ${t.q('vector_log')} WHERE scope = $1`, [scope])).rows[0]?.hw ?? 0,
    );
    const entry: ScopeVectors = {
      highWater: mark,
      slots: new Map(),
      ids: [],
      blocks: [],
      norms: new Float32Array(0),
      size: 0,
    };
    // in pages along the scope's insertion order: one result of a large scope's vectors as text
    // (~6 KB each at 512 dimensions) would not fit the JS heap at a million records
    for (let after = -1; ;) {
      // text after the limit, so a plan that sorts the scope (no statistics yet) converts one page, not all
      const rows = await db.query<{ id: string; seq: number; e: string }>(
        `SELECT id, seq, embedding::text AS e FROM (SELECT id, seq, embedding FROM ${t.memories}
           WHERE scope = $1 AND seq > $2 AND embedding IS NOT NULL ORDER BY seq LIMIT ${this.#pageSize}) page ORDER BY seq`,
        [scope, after],
      );
      for (const row of rows.rows) this.#put(entry, row.id, parseVectorText(row.e));
      if (rows.rows.length < this.#pageSize) break;
      after = Number(rows.rows[rows.rows.length - 1]!.seq);
    }
    this.#byScope.set(scope, entry);
  }

  /** Applies what the log holds past the entry's mark (other writers' inserts, updates, purges). */
  async #catchUp(db: PgQueryable, t: Tables, scope: string): Promise<void> {
    const entry = this.#byScope.get(scope);
    if (entry === undefined) return;
    const log = t.q('vector_log');
    const changes = await db.query<{ seq: number; id: string; e: string | null }>(
      `SELECT l.seq, l.memory_id AS id, m.embedding::text AS e FROM ${log} l LEFT JOIN ${t.memories} m ON m.id = l.memory_id AND m.scope = l.scope
       WHERE l.scope = $1 AND l.seq > $2 ORDER BY l.seq`,
      [scope, entry.highWater],
    );
    for (const row of changes.rows) {
      if (row.e === null) this.#remove(entry, row.id);
      else this.#put(entry, row.id, parseVectorText(row.e));
      entry.highWater = Math.max(entry.highWater, Number(row.seq));
    }
  }

  /** Scope size as cached. */
  size(scope: string): number {
    return this.#byScope.get(scope)?.size ?? 0;
  }

  /** The `k` best cosine scores of `scopes` (synced), best first. */
  top(scopes: readonly string[], query: Float32Array, k: number): ScoredId[] {
    const d = this.#dimension;
    let qn = 0;
    for (let i = 0; i < d; i++) qn += query[i]! * query[i]!;
    qn = Math.sqrt(qn);
    // bounded min-heap of the k best (score, id)
    const heapScores: number[] = [];
    const heapIds: string[] = [];
    const worse = (a: number, b: number) =>
      heapScores[a]! < heapScores[b]! || (heapScores[a] === heapScores[b] && heapIds[a]! > heapIds[b]!);
    const swap = (a: number, b: number) => {
      [heapScores[a], heapScores[b]] = [heapScores[b]!, heapScores[a]!];
      [heapIds[a], heapIds[b]] = [heapIds[b]!, heapIds[a]!];
    };
    const siftDown = (i: number) => {
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heapScores.length && worse(l, m)) m = l;
        if (r < heapScores.length && worse(r, m)) m = r;
        if (m === i) return;
        swap(i, m);
        i = m;
      }
    };
    let queried: VectorArena | undefined;
    for (const scope of scopes) {
      const entry = this.#byScope.get(scope);
      if (entry === undefined) continue;
      const { norms, ids } = entry;
      for (let first = 0; first < entry.size; first += SCAN_ROWS) {
        const block = entry.blocks[first / SCAN_ROWS] as Block;
        if (block.arena !== queried) {
          block.arena.setQuery(query);
          queried = block.arena;
        }
        const count = Math.min(SCAN_ROWS, entry.size - first);
        const dots = block.arena.scan(block.offset, count);
        for (let row = 0; row < count; row++) {
          const slot = first + row;
          const norm = norms[slot]! * qn;
          const score = norm === 0 ? 0 : dots[row]! / norm;
          const id = ids[slot]!;
          if (heapScores.length < k) {
            heapScores.push(score);
            heapIds.push(id);
            for (let i = heapScores.length - 1; i > 0;) {
              const parent = (i - 1) >> 1;
              if (!worse(i, parent)) break;
              swap(i, parent);
              i = parent;
            }
          } else if (k > 0 && (score > heapScores[0]! || (score === heapScores[0] && id < heapIds[0]!))) {
            heapScores[0] = score;
            heapIds[0] = id;
            siftDown(0);
          }
        }
      }
    }
    const result = heapIds.map((id, i) => ({ id, score: heapScores[i]! }));
    return result.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  }

  /** Total records in the synced `scopes`. */
  total(scopes: readonly string[]): number {
    return scopes.reduce((sum, scope) => sum + this.size(scope), 0);
  }

  clear(): void {
    this.#byScope.clear();
    this.#arenas = [];
  }

  /** Drops a purged record: the last slot moves into its place. */
  #remove(entry: ScopeVectors, id: string): void {
    const slot = entry.slots.get(id);
    if (slot === undefined) return;
    const d = this.#dimension;
    const last = entry.size - 1;
    if (slot !== last) {
      const moved = entry.ids[last] as string;
      const from = entry.blocks[Math.floor(last / SCAN_ROWS)] as Block;
      const to = entry.blocks[Math.floor(slot / SCAN_ROWS)] as Block;
      const at = from.offset / 4 + (last % SCAN_ROWS) * from.arena.stride;
      to.arena.write(to.offset, slot % SCAN_ROWS, from.arena.floats.subarray(at, at + d));
      entry.norms[slot] = entry.norms[last] as number;
      entry.ids[slot] = moved;
      entry.slots.set(moved, slot);
    }
    entry.ids.length = last;
    entry.slots.delete(id);
    entry.size = last;
  }

  /** Room for `SCAN_ROWS` more vectors: in the newest arena, or in a new one when it is full. */
  #newBlock(): Block {
    let arena = this.#arenas[this.#arenas.length - 1];
    let offset = arena?.allocate(SCAN_ROWS * arena.stride * 4);
    if (arena === undefined || offset === undefined) {
      arena = new VectorArena(this.#dimension, { simd: this.#simd });
      this.#arenas.push(arena);
      offset = arena.allocate(SCAN_ROWS * arena.stride * 4);
      // a fresh arena takes one block of any dimension a store allows
      if (offset === undefined) throw new Error(`no memory for ${SCAN_ROWS} vectors of ${this.#dimension} dimensions`);
    }
    return { arena, offset };
  }

  #put(entry: ScopeVectors, id: string, vector: Float32Array): void {
    const d = this.#dimension;
    if (vector.length !== d) return;
    let slot = entry.slots.get(id);
    if (slot === undefined) {
      slot = entry.size++;
      if (entry.size > entry.norms.length) {
        const norms = new Float32Array(Math.max(1024, entry.size * 2));
        norms.set(entry.norms);
        entry.norms = norms;
      }
      if (slot === entry.blocks.length * SCAN_ROWS) entry.blocks.push(this.#newBlock());
      entry.slots.set(id, slot);
      entry.ids[slot] = id;
    }
    const block = entry.blocks[Math.floor(slot / SCAN_ROWS)] as Block;
    block.arena.write(block.offset, slot % SCAN_ROWS, vector);
    let n = 0;
    for (let i = 0; i < d; i++) n += vector[i]! * vector[i]!;
    entry.norms[slot] = Math.sqrt(n);
  }
}
