/**
 * Approximate nearest-neighbour search for large scopes: one HNSW index per scope (usearch), so the
 * scope filter is inside the search by construction. Derived data, never a second source of truth:
 *
 * - the base is a file in `<database>.ann/`, memory-mapped read-only, holding the scope's vectors up
 *   to its manifest's high-water mark (a `vector_changes.seq`); an int8 base's results are re-scored
 *   from the exact vectors the same build wrote beside it;
 * - changes logged after that mark, by any process, are caught up before each search into a small
 *   exact delta (new and re-embedded rows scored exactly; their stale base entries skipped);
 * - when the delta grows, or the file is missing, corrupt or built for something else, a background
 *   build (a worker thread) writes a new file and the scope switches to it. Until then the caller
 *   falls back to exact search.
 */
import { resolve } from 'node:path';
import { EngramError, messages } from '../../../core/errors.js';
import { continues, manifestProblem, readDatabaseId } from './ann-build.js';
import { prunedPast } from '../change-feeds.js';
import { AnnBuilder } from './ann-builder.js';
import { AnnFiles, type AnnManifest } from './ann-files.js';
import { OverFetch } from './ann-over-fetch.js';
import {
  ANN_PARAMETERS,
  expansionSearchFor,
  loadUsearch,
  locateUsearch,
  usearchProblem,
  type AnnParameters,
  type UsearchIndex,
  type UsearchModule,
} from './ann-library.js';
import { mapAnnFile, searchMapped, type AnnBaseHits, type AnnFileTarget } from './ann-mapped.js';
import { AnnSearchThread } from './ann-search-thread.js';
import { isMemoryPath, type SqliteConnection } from '../sqlite-connection.js';
import type { ResolvedSqliteStoreConfig, SqliteStoreLogger } from '../sqlite-store-config.js';
import { readVectors } from './stored-vectors.js';
import type { AnnVectorsReader } from './ann-vectors.js';
import { dot, inverseNorm } from '../../../core/simd-scan.js';
import type { ScoredRow } from './vector-index.js';

export interface AnnIndexOptions {
  /** Loads the HNSW library when a scope first needs it; `undefined` when it does not load. */
  readonly library: () => UsearchModule | undefined;
  /** The store's read connection: it must see committed data only. */
  readonly connection: SqliteConnection;
  readonly databasePath: string;
  readonly busyTimeoutMs: number;
  readonly embedder: { readonly name: string; readonly dimension: number };
  /** Use existing files only: never build or write. */
  readonly readonly: boolean;
  readonly logger: SqliteStoreLogger;
  readonly parameters?: AnnParameters;
  /**
   * Scopes whose file holds more vectors than this are searched on the store's search thread when
   * searched ahead (`searchAhead`); `Infinity`: never (the store's `vectorSearchThreadRows`).
   */
  readonly searchThreadRows: number;
  /**
   * The search expansion of a preview (`preview`) of a file searched on the search thread, when below
   * the file's own; 0: no previews (the store's `vectorPreviewExpansion`).
   */
  readonly previewExpansion: number;
}

/** A search of a scope's file run ahead on the search thread, for `search` to use. */
export interface AnnSearchAhead {
  readonly indexPath: string;
  /** Rows it asked for. */
  readonly asked: number;
  readonly hits: AnnBaseHits;
}

/** Candidates of one scope; `floor`: a row not returned may still score up to this (−∞ when `exhausted`). */
export interface AnnSearchResult {
  readonly rows: ScoredRow[];
  readonly exhausted: boolean;
  readonly floor: number;
}

interface DeltaRow {
  readonly vector: Float32Array;
  readonly inverseNorm: number;
}

interface ScopeState {
  base: UsearchIndex | undefined;
  /** The mapped file. */
  target: AnnFileTarget | undefined;
  /** The base's exact vectors (an int8 index), which its results are re-scored from. */
  vectors: AnnVectorsReader | undefined;
  manifest: AnnManifest | undefined;
  /** A manifest's file found unusable, so it is not verified again. */
  rejected: string | undefined;
  checkedAt: number;
  highWaterMark: number;
  /** Rows changed since the base's mark: their current vectors. */
  readonly delta: Map<number, DeltaRow>;
  /** Base entries that are stale (re-embedded or deleted since). */
  readonly replaced: Set<number>;
}

/** How often a scope's manifest is re-read for a newer file another process published. */
const RECHECK_MS = 1000;

/**
 * The store's approximate index when configured (or by default) and possible: file-backed stores
 * only, and `usearch` must be installed with a binary for this platform. It is only located here,
 * not loaded: the first scope large enough loads it. An explicit `vectorIndex: 'hnsw'` that cannot
 * be honoured throws.
 */
export function openAnnIndex(config: ResolvedSqliteStoreConfig, reader: SqliteConnection): AnnIndex | undefined {
  if (config.vectorIndex === 'exact' || isMemoryPath(config.path)) return undefined;
  if (locateUsearch() === undefined) {
    if (config.vectorIndex === 'auto') return undefined;
    throw new EngramError(
      'STORAGE_UNAVAILABLE',
      messages.storageUnavailable(
        'vectorIndex "hnsw" needs the optional dependency usearch, which does not load here; run `npm install usearch` or use vectorIndex "exact"',
      ),
      { details: { vectorIndex: config.vectorIndex } },
    );
  }
  return new AnnIndex({
    library: loadUsearch,
    connection: reader,
    databasePath: resolve(config.path),
    busyTimeoutMs: config.busyTimeoutMs,
    embedder: config.embedding,
    readonly: config.readonly,
    logger: config.logger,
    searchThreadRows: config.vectorSearchThreadRows,
    previewExpansion: config.vectorPreviewExpansion,
  });
}

export class AnnIndex {
  readonly #options: AnnIndexOptions;
  readonly #parameters: AnnParameters;
  readonly #files: AnnFiles;
  readonly #scopes = new Map<string, ScopeState>();
  /** How many rows to ask each scope's index for per row wanted, from the post-filter's recent survival. */
  readonly overFetch = new OverFetch();
  #searches = 0;
  #rowsAsked = 0;
  readonly #builder: AnnBuilder | undefined;
  readonly #thread: AnnSearchThread | undefined;
  #databaseId: string | undefined;
  #closed = false;
  #libraryWarned = false;

  constructor(options: AnnIndexOptions) {
    this.#options = options;
    this.#parameters = options.parameters ?? ANN_PARAMETERS;
    this.#files = new AnnFiles(`${options.databasePath}.ann`);
    this.#thread = Number.isFinite(options.searchThreadRows) ? new AnnSearchThread(options.logger) : undefined;
    this.#builder = options.readonly
      ? undefined
      : new AnnBuilder({
          library: options.library,
          files: this.#files,
          logger: options.logger,
          request: {
            databasePath: options.databasePath,
            busyTimeoutMs: options.busyTimeoutMs,
            directory: this.#files.directory,
            embedder: { name: options.embedder.name, dimension: options.embedder.dimension },
            parameters: this.#parameters,
          },
          onBuilt: (scope) => {
            const state = this.#scopes.get(scope);
            // the next sync maps the new file
            if (state !== undefined) state.checkedAt = 0;
          },
        });
  }

  /**
   * HNSW searches run since the store opened, the rows they asked for, and how many of them the search
   * thread ran (for benchmarks and tests).
   */
  get usage(): { readonly searches: number; readonly rowsAsked: number; readonly threadSearches: number } {
    return { searches: this.#searches, rowsAsked: this.#rowsAsked, threadSearches: this.#thread?.searches ?? 0 };
  }

  /** Whether some scope's file is mapped by the search thread, so searches may run there (`searchAhead`). */
  get searchesAhead(): boolean {
    return this.#thread?.mapped === true;
  }

  /** Whether a search sent to the search thread is still running there (see `AnnSearchThread.searching`). */
  get searchingAway(): boolean {
    return this.#thread?.searching === true;
  }

  isLoaded(scope: string): boolean {
    return this.#scopes.get(scope)?.base !== undefined;
  }

  /** The vectors in `scope`'s newest index file, as its manifest says (`undefined`: no file). */
  fileRows(scope: string): number | undefined {
    return this.#files.readManifest(scope)?.count;
  }

  /** Whether `scope` has an index file (it was large once), without reading it. */
  hasFile(scope: string): boolean {
    return this.#files.hasManifest(scope);
  }

  /**
   * Makes `scope` searchable: maps its newest valid file and catches up with the change log. Returns
   * false when the scope cannot be served yet; then, if `build`, a background build is started.
   */
  sync(scope: string, options: { build: boolean }): boolean {
    const library = this.#library();
    if (library === undefined) return false;
    const connection = this.#options.connection;
    return connection.snapshot(() => {
      const known = this.#scopes.get(scope);
      // the change feed was pruned past the mark this process caught up to: map the newest file again
      if (known !== undefined && prunedPast(connection, 'vector_changes', scope, known.highWaterMark)) this.#forget(scope);
      const state = this.#refresh(scope, library);
      if (state.base === undefined) {
        if (options.build)
          this.#builder?.start(scope, state.rejected === undefined ? 'no usable index file' : 'the index file was unusable');
        return false;
      }
      const limit = this.#mergeThreshold(state);
      if (!this.#catchUp(scope, state, limit * 4)) {
        if (options.build) this.#builder?.start(scope, 'too many changes since the index file was saved');
        return false;
      }
      if (options.build && state.delta.size + state.replaced.size > limit)
        this.#builder?.start(scope, 'folding recent changes into the file');
      return true;
    });
  }

  /**
   * Starts on the search thread the HNSW search that `search(scope, query, k)` will need, when the
   * scope is loaded, its file is large enough and the thread has it mapped; else `undefined` (and the
   * file is mapped there for later searches). Resolves to what `search` takes as `ahead`; rejects when
   * the thread failed (the caller then searches on its own thread).
   */
  searchAhead(scope: string, query: Float32Array, k: number): Promise<AnnSearchAhead> | undefined {
    const state = this.#scopes.get(scope);
    if (state?.base === undefined || state.target === undefined || this.#thread === undefined || !(k > 0)) return undefined;
    const size = state.base.size();
    if (size <= this.#options.searchThreadRows || !this.#thread.ready(state.target)) return undefined;
    const { indexPath } = state.target;
    const asked = Math.min(this.#wanted(state, k, undefined), size);
    return this.#thread.search(state.target, query, asked).then((hits) => ({ indexPath, asked, hits }));
  }

  /**
   * A cheap first guess at the rows `search(scope, query, k)` returns, while that search runs on the
   * search thread: the file searched on this thread with the preview expansion (`previewExpansion`;
   * about 3 ms at a million vectors against 12-19 for the full search, and 80-90 % of its rows),
   * without the change log's rows. `undefined` when the scope's searches do not go to the search thread
   * or a preview would cost what the full search does. Rows may be missing or extra: for reading ahead
   * only.
   */
  preview(scope: string, query: Float32Array, k: number): ScoredRow[] | undefined {
    const state = this.#scopes.get(scope);
    if (state?.base === undefined || state.target === undefined || !(k > 0)) return undefined;
    if (state.base.size() <= this.#options.searchThreadRows || this.#viewExpansion(state.target) >= this.#fileExpansion(state.target))
      return undefined;
    const found = searchMapped(
      { base: state.base, vectors: state.vectors },
      query,
      Math.min(this.#wanted(state, k, undefined), state.base.size()),
    );
    const rows: ScoredRow[] = [];
    for (let i = 0; i < found.rowids.length; i++) {
      const rowid = found.rowids[i] as number;
      if (!state.replaced.has(rowid)) rows.push({ rowid, score: found.scores[i] as number });
    }
    return rows;
  }

  /**
   * The about `k` best rows of `scope` (call `sync` first), skipping `exclude`; from `ahead`, a search
   * run ahead for it, when that was of the file still searched and asked for as many rows.
   */
  search(scope: string, query: Float32Array, k: number, exclude?: ReadonlySet<number>, ahead?: AnnSearchAhead): AnnSearchResult {
    const state = this.#scopes.get(scope);
    if (state?.base === undefined || !(k > 0)) return { rows: [], exhausted: true, floor: -Infinity };
    const { base, replaced, delta } = state;
    const skipped = (rowid: number): boolean => replaced.has(rowid) || (exclude !== undefined && exclude.has(rowid));
    const rows: ScoredRow[] = [];
    // over-fetch by what may be skipped, so one search usually suffices
    const wanted = this.#wanted(state, k, exclude);
    const size = base.size();
    let exhausted = true;
    let floor = -Infinity;
    if (size > 0) {
      const asked = Math.min(wanted, size);
      this.#searches += 1;
      this.#rowsAsked += asked;
      const usable = ahead !== undefined && ahead.indexPath === state.target?.indexPath && ahead.asked >= asked;
      const found = usable ? ahead.hits : this.#searchBase(state, query, asked);
      let lowest = Infinity;
      for (let i = 0; i < found.rowids.length; i++) {
        const rowid = found.rowids[i] as number;
        if (skipped(rowid)) continue;
        const score = found.scores[i] as number;
        lowest = Math.min(lowest, score);
        rows.push({ rowid, score });
      }
      if (found.rowids.length >= wanted && wanted < size) {
        exhausted = false;
        // what a row not returned may score: about the last one's approximate score; with exact scores,
        // never above the lowest of those returned, so none of them is cut by its own search's floor
        floor = Math.min(found.lastApproximate, lowest);
      }
    }
    const fresh = this.#searchDelta(delta, query, k, exclude);
    rows.push(...fresh.rows);
    if (!fresh.exhausted) {
      exhausted = false;
      floor = Math.max(floor, fresh.floor);
    }
    rows.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    return { rows, exhausted, floor };
  }

  /** Rows to ask a scope's file for to keep `k` after its stale and excluded rows are skipped. */
  #wanted(state: ScopeState, k: number, exclude: ReadonlySet<number> | undefined): number {
    return k + Math.min(k, state.replaced.size + (exclude?.size ?? 0));
  }

  /** The search of the scope's file on this thread, with the file's own expansion whatever the view's. */
  #searchBase(state: ScopeState, query: Float32Array, asked: number): AnnBaseHits {
    const target = state.target as AnnFileTarget;
    return searchMapped({ base: state.base as UsearchIndex, vectors: state.vectors }, query, asked, this.#fileExpansion(target));
  }

  /** The search expansion of `target`'s file (the search thread's, and every full search's). */
  #fileExpansion(target: AnnFileTarget): number {
    return expansionSearchFor(this.#parameters, target.count);
  }

  /**
   * The expansion this thread maps `target` with: the preview's when lower than the file's (full
   * searches here then ask for the file's; `searchMapped`), else the file's.
   */
  #viewExpansion(target: AnnFileTarget): number {
    const preview = this.#options.previewExpansion;
    const own = this.#fileExpansion(target);
    return preview > 0 ? Math.min(preview, own) : own;
  }

  /**
   * Brings `scope`'s file up to date now (building it if missing, folding in pending changes) and maps
   * it, on the search thread too when it is searched there. Resolves true when searches of the scope use
   * the index, false when it cannot be built here.
   */
  async prepare(scope: string): Promise<boolean> {
    if (this.#library() === undefined) return false;
    const builder = this.#builder;
    for (let round = 0; !this.#closed; round++) {
      if (builder?.isRunning(scope) === true) {
        await builder.wait(scope);
        continue;
      }
      const ready = this.sync(scope, { build: false });
      const state = this.#scopes.get(scope);
      const current = ready && state !== undefined && state.delta.size === 0 && state.replaced.size === 0;
      if (current || builder === undefined || (round > 0 && builder.failed(scope)) || (round >= 3 && ready)) {
        // searches of a large file run on the search thread once it has mapped it
        if (ready && state?.target !== undefined && (state.base?.size() ?? 0) > this.#options.searchThreadRows)
          await this.#thread?.whenMapped(state.target);
        return ready;
      }
      builder.start(scope, ready ? 'prepare: folding recent changes into the file' : 'prepare');
      // another process holds the build lock: wait for its file
      if (!builder.isRunning(scope)) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return false;
  }

  /**
   * Forgets `scope`'s index and removes its files (after a purge, so no file keeps a purged vector):
   * waits for a build of the scope in this process first, since it may have read the rows before
   * they were deleted. Searches fall back to exact search until a new file is built from the stored
   * vectors (started by the next large search).
   */
  async discard(scope: string): Promise<void> {
    if (this.#options.readonly) return;
    while (this.#builder?.isRunning(scope) === true) await this.#builder.wait(scope);
    this.#forget(scope);
    this.#files.remove(scope);
  }

  /** Stops running builds (their locks are released) and unmaps the files. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#builder?.close();
    await this.#thread?.close();
    for (const scope of [...this.#scopes.keys()]) this.#forget(scope);
  }

  /** Drops `scope`'s state and closes its vectors file. */
  #forget(scope: string): void {
    const state = this.#scopes.get(scope);
    state?.vectors?.close();
    if (state?.target !== undefined) this.#thread?.forget(state.target.indexPath);
    this.#scopes.delete(scope);
  }

  /** The HNSW library, loaded on first need; when it does not load, one warning and exact search. */
  #library(): UsearchModule | undefined {
    const library = this.#options.library();
    if (library === undefined && !this.#libraryWarned) {
      this.#libraryWarned = true;
      this.#options.logger.warn(`large scopes use exact vector search: ${usearchProblem() ?? 'usearch does not load'}`);
    }
    return library;
  }

  /** Re-reads the manifest (at most once a second) and maps a newer valid file. */
  #refresh(scope: string, library: UsearchModule): ScopeState {
    let state = this.#scopes.get(scope);
    if (state === undefined) {
      state = {
        base: undefined,
        target: undefined,
        vectors: undefined,
        manifest: undefined,
        rejected: undefined,
        checkedAt: 0,
        highWaterMark: 0,
        delta: new Map(),
        replaced: new Set(),
      };
      this.#scopes.set(scope, state);
    }
    const now = Date.now();
    if (now - state.checkedAt < RECHECK_MS) return state;
    state.checkedAt = now;
    const manifest = this.#files.readManifest(scope);
    if (manifest === undefined || manifest.file === state.manifest?.file || manifest.file === state.rejected) return state;
    const problem = this.#problem(manifest);
    if (problem !== undefined) {
      state.rejected = manifest.file;
      this.#options.logger.warn(
        `the vector index file of scope "${scope}" is not used (${problem}); it will be rebuilt from the stored vectors`,
        {
          scope,
          file: manifest.file,
        },
      );
      return state;
    }
    const target: AnnFileTarget = {
      indexPath: this.#files.indexPath(manifest),
      vectorsPath: this.#files.vectorsPath(manifest),
      count: manifest.count,
      dimension: this.#options.embedder.dimension,
      parameters: this.#parameters,
    };
    let mapped;
    try {
      mapped = mapAnnFile(library, target, this.#viewExpansion(target));
    } catch (error) {
      state.rejected = manifest.file;
      this.#options.logger.warn(`the vector index file of scope "${scope}" does not open; it will be rebuilt from the stored vectors`, {
        scope,
        file: manifest.file,
        error: error instanceof Error ? error.message : String(error),
      });
      return state;
    }
    state.vectors?.close();
    if (state.target !== undefined) this.#thread?.forget(state.target.indexPath);
    Object.assign(state, { ...mapped, target, manifest, rejected: undefined, highWaterMark: manifest.highWaterMark });
    state.delta.clear();
    state.replaced.clear();
    return state;
  }

  #problem(manifest: AnnManifest): string | undefined {
    const connection = this.#options.connection;
    this.#databaseId ??= readDatabaseId(connection);
    const mismatch = manifestProblem(manifest, { embedder: this.#options.embedder, parameters: this.#parameters }, this.#databaseId);
    if (mismatch !== undefined) return mismatch;
    if (!continues(connection, manifest)) return 'the change log does not contain its high-water mark';
    const verified = this.#files.verify(manifest);
    if (verified === false) return 'the file is missing, truncated or corrupt';
    // checked by reading all of it: seal it, so the next open does not (a no-op while a build runs)
    if (verified === 'checked' && !this.#options.readonly) this.#files.seal(manifest.scope, manifest);
    return undefined;
  }

  /** Applies logged changes after the state's mark; false (nothing applied) when more than `limit` wait. */
  #catchUp(scope: string, state: ScopeState, limit: number): boolean {
    const connection = this.#options.connection;
    const changes = connection.all<{ seq: number; memory_rowid: number }>(
      'SELECT seq, memory_rowid FROM vector_changes WHERE scope = ? AND seq > ? ORDER BY seq LIMIT ?',
      scope,
      state.highWaterMark,
      limit + 1,
    );
    if (changes.length > limit) return false;
    if (changes.length === 0) return true;
    const changed = [...new Set(changes.map((c) => c.memory_rowid))];
    const vectors = readVectors(connection, changed, this.#options.embedder.dimension);
    const inBase = (state.base as UsearchIndex).contains(BigUint64Array.from(changed, BigInt));
    changed.forEach((rowid, i) => {
      if (inBase[i] === true) state.replaced.add(rowid);
      const vector = vectors.get(rowid);
      if (vector === undefined) state.delta.delete(rowid);
      else state.delta.set(rowid, { vector, inverseNorm: inverseNorm(vector, 0, vector.length) });
    });
    state.highWaterMark = (changes[changes.length - 1] as { seq: number }).seq;
    return true;
  }

  /** Exact top `k` of the delta. */
  #searchDelta(delta: ReadonlyMap<number, DeltaRow>, query: Float32Array, k: number, exclude?: ReadonlySet<number>): AnnSearchResult {
    if (delta.size === 0) return { rows: [], exhausted: true, floor: -Infinity };
    const queryInverseNorm = inverseNorm(query, 0, query.length);
    const rows: ScoredRow[] = [];
    for (const [rowid, row] of delta) {
      if (exclude !== undefined && exclude.has(rowid)) continue;
      rows.push({ rowid, score: dot(row.vector, 0, query, query.length) * row.inverseNorm * queryInverseNorm });
    }
    rows.sort((a, b) => b.score - a.score || a.rowid - b.rowid);
    if (rows.length <= k) return { rows, exhausted: true, floor: -Infinity };
    return { rows: rows.slice(0, k), exhausted: false, floor: (rows[k - 1] as ScoredRow).score };
  }

  /** Changes a scope's delta may hold before they are folded into a new file. */
  #mergeThreshold(state: ScopeState): number {
    return Math.min(8192, Math.max(1024, Math.round((state.manifest?.count ?? 0) * 0.02)));
  }
}
