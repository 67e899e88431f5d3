/**
 * An in-memory lexical index for the SQLite store: the same ranking and scores as the FTS path
 * (FTS5 bm25 picks the candidates, scope-local BM25 ranks them), without asking FTS5 to score every
 * match. Derived data, never a second source of truth, like the ANN index:
 *
 * - persisted beside the database (`<database>.lexical`, `lexical-file.ts`): a new process loads it
 *   with one read (typed arrays, no per-row parsing) in its first search, when the file is of this
 *   database and the change feed still holds everything after its mark; otherwise it is built in a
 *   worker thread (`lexical-build.ts`) from the `memories` table while searches use FTS5;
 * - caught up before every search, in the search's own snapshot: rows above its highest rowid are new,
 *   and `memory_changes` (migration 6, filled by triggers) names every row whose text, scope, layer,
 *   status or time fields changed or that was deleted, by any process, since its high-water mark; when
 *   the feed was pruned past that mark (`change-feeds.ts`) the index is dropped and loaded again;
 * - a row whose text changed keeps its old postings skipped and its new terms in a small delta; the
 *   index is rebuilt when the delta grows;
 * - it holds committed rows only: a search inside a write transaction reads the rows the transaction
 *   wrote through its writer (`lexical-pending.ts`) and scores them in place of the index's rows of the
 *   same rowids, with the statistics as the transaction sees them;
 * - the file is written after each build, and refreshed by the worker (loaded, caught up, written)
 *   once the index is `PERSIST_CHANGES` changes and `PERSIST_INTERVAL_MS` ahead of it; a writable
 *   store then prunes the change feeds.
 *
 * Its parts: `lexical-data.ts` (the rows and postings), `lexical-search.ts` (both stages of a search),
 * `postings.ts`, `candidate-heap.ts` and `lexical-tokens.ts` (the two tokenisations), `lexical-file.ts`
 * and `lexical-build.ts` (the file), `lexical-builder.ts` (the worker).
 */
import { visibilityBounds, type TimeFilter } from '../../../core/memory.js';
import { changedAfter } from '../sqlite-beliefs.js';
import type { ChannelHit } from '../../../core/ports/store.js';
import type { Scope } from '../../../core/scope.js';
import type { SqliteConnection } from '../sqlite-connection.js';
import type { SqliteStoreLogger } from '../sqlite-store-config.js';
import { loadLexicalFile, type LexicalBuildRequest, type LexicalBuildResult } from './lexical-build.js';
import { runLexicalBuild, type LexicalBuildRun } from './lexical-builder.js';
import { LexicalData, layerIdSet } from './lexical-data.js';
import { deserializeLexicalData, lexicalFilePath, readLexicalHeader, removeLexicalFile } from './lexical-file.js';
import type { PendingLexicalRows } from './lexical-pending.js';
import { pendingRowVisible, searchLexicalData, type IndexedLexicalQuery, type PendingLexicalRow } from './lexical-search.js';

/** Stores up to this many rows are indexed at once, inside the first search. */
const INLINE_BUILD_MAX = 5000;
/**
 * What an inline build costs per row, as a bound: 1,532 LoCoMo turns in 91 ms on the 2-core machine
 * (~0.06 ms a row). A store below the threshold is indexed once this process's FTS5 searches of it have
 * cost as much as building would (rent until renting cost the price of buying): a one-shot CLI or hook
 * process never pays for a build, and a long-lived one spends on FTS5 about what the build costs it.
 */
const INLINE_BUILD_MS_PER_ROW = 0.06;
/** Rows whose text changed after the build, kept apart; beyond this many the index is rebuilt. */
const MAX_DELTA = 5000;
/** The file is refreshed once the index holds this many changes (rows and change-feed entries) more… */
const PERSIST_CHANGES = 5000;
/** …and at most this often. */
const PERSIST_INTERVAL_MS = 60_000;
/** A failed build is retried after this long. */
const RETRY_MS = 5 * 60_000;

/** See {@link LexicalIndex.usage}. */
export interface LexicalIndexUsage {
  readonly indexed: number;
  readonly fts: number;
  readonly byScope: number;
  /** Rows a search found in a posting list and left unscored: their best possible score could not make the candidates. */
  readonly skipped: number;
  readonly rows: number;
  readonly loads: number;
  readonly builds: number;
}

/** Which rows a vector search may return (`LexicalIndex.view`). */
export interface LexicalView {
  readonly visible: (rowid: number) => boolean;
  readonly ids: (rowids: readonly number[]) => Map<number, string>;
}

export interface LexicalIndexOptions {
  /** The store's read connection: it must see committed data only. */
  readonly connection: SqliteConnection;
  /** The database file (absolute path); the index file lies beside it. */
  readonly databasePath: string;
  readonly busyTimeoutMs: number;
  /** Stores with at least this many rows use the index (`Infinity`: never). */
  readonly threshold: number;
  /** Indexes of at least this many rows skip the rows that cannot make a search's candidates (`searchLexicalData`). */
  readonly pruneRows: number;
  /** Never write the file nor prune (a read-only store). */
  readonly readonly: boolean;
  /** The change-feed entries pruning always keeps. */
  readonly changeFeedRetention: number;
  readonly logger: SqliteStoreLogger;
}

/**
 * The store's lexical index: loaded from its file or built on demand (`prepare`, or the first search of
 * a store with at least `threshold` rows), used once ready; until then, and for queries it cannot
 * answer, callers use FTS5.
 */
export class LexicalIndex {
  readonly #options: LexicalIndexOptions;
  readonly #filePath: string;
  #data: LexicalData | undefined;
  #job: { run: LexicalBuildRun; done: Promise<boolean> } | undefined;
  #closed = false;
  #checkedSize = false;
  /** Milliseconds this process's FTS5 searches took while the index was not ready. */
  #ftsMs = 0;
  #fileTried = false;
  #failedAt = -Infinity;
  /** The marks of the file on disk as last seen (−1: none), and when. */
  #persisted = { mark: -1, maxRowid: -1, at: 0 };
  readonly #usage = { indexed: 0, fts: 0, byScope: 0, skipped: 0, loads: 0, builds: 0 };

  constructor(options: LexicalIndexOptions) {
    this.#options = options;
    this.#filePath = lexicalFilePath(options.databasePath);
  }

  get ready(): boolean {
    return this.#data !== undefined;
  }

  /** Loads or builds the index now if it is not ready; resolves `true` once it serves searches. */
  async prepare(): Promise<boolean> {
    if (this.#data !== undefined) return true;
    if (this.#options.threshold === Infinity || this.#closed) return false;
    const connection = this.#options.connection;
    if (!this.#fileTried && connection.snapshot(() => this.#loadFile(connection))) return true;
    for (let attempt = 0; attempt < 3 && this.#data === undefined && !this.#closed; attempt++) {
      const job = this.#job ?? this.#startBuild('prepare', { rebuild: this.#fileTried, force: true });
      if (job === undefined) return false;
      job.run.keepAlive();
      if (!(await job.done)) return false;
    }
    return this.#data !== undefined;
  }

  /**
   * Answers a search from the index (caught up first, inside the caller's snapshot), or `null`: not
   * ready yet (loaded or built when the store is large enough), or a query word it does not index.
   * Inside a write transaction (`pending` given, `connection` its writer) the index answers for the
   * committed rows, caught up through its own connection, and the transaction's rows stand in for its
   * rows of those rowids.
   */
  search(connection: SqliteConnection, query: IndexedLexicalQuery, pending?: PendingLexicalRows): ChannelHit[] | null {
    // the index holds each row's validity as it is now; what was believed before a later change is in SQL
    if (believedOtherwise(connection, query.scopes, query.filter)) return null;
    const reader = pending === undefined ? connection : this.#options.connection;
    const data = this.#current(reader, true);
    if (data === undefined) {
      this.#usage.fts++;
      return null;
    }
    if (data.delta.size > MAX_DELTA) this.#startBuild('many rows changed text since the index was built', { rebuild: true });
    else this.#maybePersist(data);
    const hits = searchLexicalData(data, query, pending?.read(connection, reader, data), this.#usage, this.#options.pruneRows);
    if (hits === null) this.#usage.fts++;
    else this.#usage.indexed++;
    return hits;
  }

  /**
   * Records what an FTS5 search cost because the index was not ready (or could not answer): a store
   * below the threshold is indexed inline once these add up to what building it would cost.
   */
  noteFtsSearch(milliseconds: number): void {
    if (this.#data === undefined && milliseconds > 0) this.#ftsMs += milliseconds;
  }

  /**
   * Which rows a vector search may return, from the index (caught up once, as `search` reads it):
   * `visible` one row at a time (the exact scan skips the others), `ids` the visible ones among
   * candidates as rowid → id (the post-filter). `null` when the index is not ready.
   */
  view(
    connection: SqliteConnection,
    query: { scopes: readonly Scope[]; layers?: readonly string[] | undefined; now: number } & TimeFilter,
    pending?: PendingLexicalRows,
  ): LexicalView | null {
    const reader = pending === undefined ? connection : this.#options.connection;
    if (believedOtherwise(connection, query.scopes, query)) return null;
    const data = this.#current(reader, false);
    if (data === undefined) return null;
    const scopeSet = data.scopeSet(query.scopes);
    const layerSet = layerIdSet(query.layers);
    const bounds = visibilityBounds(query, query.now);
    const overlay = pending?.read(connection, reader, data);
    const pendingRow = (rowid: number): PendingLexicalRow | undefined => {
      const row = overlay?.rows.get(rowid);
      return row !== undefined && pendingRowVisible(row, query.scopes, query.layers, bounds) ? row : undefined;
    };
    const visible =
      overlay === undefined || overlay.masked.size === 0
        ? (rowid: number) => data.rowVisible(rowid, scopeSet, layerSet, bounds)
        : (rowid: number) =>
            overlay.masked.has(rowid) ? pendingRow(rowid) !== undefined : data.rowVisible(rowid, scopeSet, layerSet, bounds);
    return {
      visible,
      ids: (rowids) => {
        const out = new Map<number, string>();
        for (const rowid of rowids) {
          if (overlay?.masked.has(rowid) === true) {
            const row = pendingRow(rowid);
            if (row !== undefined) out.set(rowid, row.id);
          } else if (data.rowVisible(rowid, scopeSet, layerSet, bounds)) out.set(rowid, data.idOf(rowid));
        }
        return out;
      },
    };
  }

  /**
   * How many searches the index answered and left to FTS5 (not ready, or a word it does not index),
   * how many of its answers scored their scopes' rows alone (`byScope`), its rows, and how often it
   * was loaded from its file or built from the rows in this process.
   */
  get usage(): LexicalIndexUsage {
    return { ...this.#usage, rows: this.#data?.rows ?? 0 };
  }

  /** Stops a running build or refresh (a killed one is redone later) and waits for it to end. */
  async close(): Promise<void> {
    this.#closed = true;
    const job = this.#job;
    if (job === undefined) return;
    job.run.stop();
    await job.done;
  }

  /**
   * Removes the index file (after a purge, so no file keeps a purged record's terms), once a build or
   * refresh of this process that may have read the rows before they were deleted has ended. The next
   * file is built from the rows.
   */
  async discard(): Promise<void> {
    while (this.#job !== undefined) await this.#job.done;
    if (this.#options.readonly) return;
    removeLexicalFile(this.#filePath);
    this.#persisted = { mark: -1, maxRowid: -1, at: 0 };
  }

  /** The index caught up in the caller's snapshot; loads or starts it when `start`. */
  #current(connection: SqliteConnection, start: boolean): LexicalData | undefined {
    if (this.#data === undefined) {
      if (!start) return undefined;
      this.#maybeStart(connection);
    }
    const data = this.#data;
    if (data === undefined || data.catchUp(connection)) return data;
    // the change feed was pruned past the index's mark: load the file again, or rebuild
    this.#options.logger.info('the change feed was pruned past the in-memory lexical index; it is loaded again');
    this.#data = undefined;
    this.#fileTried = false;
    if (!start) return undefined;
    this.#maybeStart(connection);
    return this.#data;
  }

  #maybeStart(connection: SqliteConnection): void {
    if (this.#job !== undefined || this.#options.threshold === Infinity || this.#closed) return;
    let size = Infinity;
    if (!this.#checkedSize) {
      size = connection.get<{ n: number | null }>("SELECT seq AS n FROM sqlite_sequence WHERE name = 'memories'")?.n ?? 0;
      // below the threshold only once FTS5 has cost what an inline build would, and never from the file
      // (a small store's index is not written)
      if (size < this.#options.threshold) {
        if (size > INLINE_BUILD_MAX || this.#ftsMs < size * INLINE_BUILD_MS_PER_ROW) return;
        this.#buildInline(connection);
        return;
      }
      this.#checkedSize = true;
    }
    if (!this.#fileTried && this.#loadFile(connection)) return;
    if (size <= INLINE_BUILD_MAX) {
      this.#buildInline(connection);
      return;
    }
    this.#startBuild('no usable index file', { rebuild: true, force: false });
  }

  /** Builds the index of a small store at once, inside the caller's snapshot. */
  #buildInline(connection: SqliteConnection): void {
    const data = new LexicalData();
    data.mark = connection.get<{ m: number | null }>('SELECT max(seq) AS m FROM memory_changes')?.m ?? 0;
    while (!data.readChunk(connection));
    if (data.catchUp(connection)) this.#data = data;
  }

  /** Loads the index file if it is usable, caught up in the caller's snapshot; whether it did. */
  #loadFile(connection: SqliteConnection): boolean {
    this.#fileTried = true;
    const started = performance.now();
    const loaded = loadLexicalFile(connection, this.#filePath, { seal: !this.#options.readonly });
    if ('problem' in loaded) {
      if (loaded.problem !== 'there is no index file')
        this.#options.logger.warn(`${loaded.problem}; the lexical index is rebuilt from the database`, { file: this.#filePath });
      return false;
    }
    const { data } = loaded;
    const persisted = { mark: data.mark, maxRowid: data.maxRowid, at: Date.now() };
    if (!data.catchUp(connection)) return false;
    this.#data = data;
    this.#persisted = persisted;
    this.#usage.loads++;
    this.#options.logger.info(
      `loaded the lexical index file (${data.rows} rows, ${((performance.now() - started) / 1000).toFixed(2)} s with the catch-up)`,
      { file: this.#filePath, rows: data.rows },
    );
    return true;
  }

  /** Starts a build (`rebuild`: from the rows) unless a job runs or one failed recently (unless `force`). */
  #startBuild(
    reason: string,
    options: { rebuild: boolean; force?: boolean },
  ): { run: LexicalBuildRun; done: Promise<boolean> } | undefined {
    if (this.#job !== undefined || this.#closed) return this.#job;
    if (options.force !== true && Date.now() - this.#failedAt < RETRY_MS) return undefined;
    this.#options.logger.info(`building the lexical index in the background: ${reason}`);
    const current = this.#data;
    return this.#run({ rebuild: options.rebuild, minChanges: 0, reply: true }, (result) => {
      if (result.bytes === undefined || this.#data !== current) return;
      const header = readLexicalHeader(result.bytes, { verify: false });
      if (typeof header === 'string') throw new Error(`the built lexical index is unreadable: ${header}`);
      this.#data = deserializeLexicalData(result.bytes, header);
      this.#usage.builds++;
    });
  }

  /** Refreshes the file in the background once the index is enough changes and time ahead of it. */
  #maybePersist(data: LexicalData): void {
    // a store below the threshold is indexed inline when it pays; its index is never written (nor read)
    if (this.#options.readonly || data.maxRowid < this.#options.threshold || this.#job !== undefined || this.#closed) return;
    const persisted = this.#persisted;
    const ahead = data.mark - persisted.mark + (data.maxRowid - persisted.maxRowid);
    if (ahead < PERSIST_CHANGES || Date.now() - persisted.at < PERSIST_INTERVAL_MS) return;
    if (Date.now() - this.#failedAt < RETRY_MS) return;
    this.#run({ rebuild: false, minChanges: PERSIST_CHANGES, reply: false }, () => undefined);
  }

  #run(
    job: Pick<LexicalBuildRequest, 'rebuild' | 'minChanges' | 'reply'>,
    adopt: (result: LexicalBuildResult) => void,
  ): { run: LexicalBuildRun; done: Promise<boolean> } {
    const { databasePath, busyTimeoutMs, readonly, changeFeedRetention, logger } = this.#options;
    const run = runLexicalBuild({
      databasePath,
      busyTimeoutMs,
      filePath: this.#filePath,
      write: !readonly,
      pruneRetention: readonly ? undefined : changeFeedRetention,
      ...job,
    });
    const done = run.result
      .then((result) => {
        this.#failedAt = -Infinity;
        this.#persisted = result.file === undefined ? { ...this.#persisted, at: Date.now() } : { ...result.file, at: Date.now() };
        if (!this.#closed) adopt(result);
        logger.info(
          `${result.kind === 'build' ? 'built' : 'refreshed'} the lexical index${result.written ? ' file' : ''} (${result.rows} rows, ${result.seconds.toFixed(1)} s${result.kind === 'build' ? `: ${result.reason}` : ''})`,
          { kind: result.kind, reason: result.reason, rows: result.rows, seconds: result.seconds, pruned: result.pruned },
        );
        return true;
      })
      .catch((error: unknown) => {
        this.#failedAt = Date.now();
        if (!this.#closed)
          logger.warn('building the lexical index failed; FTS5 serves lexical searches meanwhile', {
            error: error instanceof Error ? error.message : String(error),
          });
        return false;
      })
      .finally(() => {
        this.#job = undefined;
      });
    this.#job = { run, done };
    return this.#job;
  }
}

/** Whether a read at `filter.knownAt` must judge some record of `scopes` by a validity it no longer has. */
function believedOtherwise(connection: SqliteConnection, scopes: readonly Scope[], filter: TimeFilter): boolean {
  return filter.knownAt !== undefined && changedAfter(connection, scopes, filter.knownAt);
}
