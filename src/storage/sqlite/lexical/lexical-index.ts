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
 * Its parts: `lexical-data.ts` (the rows and postings), `lexical-search.ts` (both stages of a search),
 * `postings.ts`, `candidate-heap.ts` and `lexical-tokens.ts` (the two tokenisations).
 */
import type { TimeFilter } from '../../../core/memory.js';
import type { ChannelHit } from '../../../core/ports/store.js';
import type { Scope } from '../../../core/scope.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import { LexicalData } from './lexical-data.js';
import { searchLexicalData, type IndexedLexicalQuery } from './lexical-search.js';

/** Stores up to this many rows are indexed at once, inside the first search. */
const INLINE_BUILD_MAX = 5000;
/** Rows whose text changed after the build, kept apart; beyond this many the index is rebuilt. */
const MAX_DELTA = 5000;

/** Yields to the event loop without keeping the process alive. */
function pause(): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0).unref();
  });
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
    const hits = searchLexicalData(data, query);
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
