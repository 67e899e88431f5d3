/**
 * Configuration of the SQLite store, and the small structural subset of the SQLite driver the store
 * calls (Kysely `sqlite-dialect-config.ts` style), so the store's code never depends on the driver's types.
 */
import { EngramError, messages } from '../../core/errors.js';
import { ANN_PARAMETERS, ANN_PREVIEW_EXPANSION } from './ann/ann-library.js';

/**
 * Opens an Engram store on one SQLite file.
 *
 * @example
 * ```ts
 * const config: SqliteStoreConfig = { path: './engram.db', embedding: { name: 'use-lite:512', dimension: 512 } };
 * ```
 */
export interface SqliteStoreConfig {
  /** The database file; created with its schema on first open. `:memory:` gives a private, single-connection store. */
  readonly path: string;
  /** The embedder's identity; recorded on first open, and a later open with another one is refused. */
  readonly embedding: { readonly name: string; readonly dimension: number };
  /** How long one attempt waits for another writer's lock, in ms (default 10 000). */
  readonly busyTimeoutMs?: number;
  /** Open without writing anything (no migrations, no transactions, access counts are dropped). */
  readonly readonly?: boolean;
  /**
   * Scopes with more rows than this are vector-searched by an exact in-memory index (or HNSW, see
   * `vectorIndex`) whatever their size; smaller ones by the in-memory index while they fit
   * `memoryIndexBudgetMb`, else by sqlite-vec (default 20 000; `Infinity` keeps every scope in sqlite-vec).
   */
  readonly memoryIndexThreshold?: number;
  /**
   * Searches of a scope that sqlite-vec still serves before its in-memory index is loaded (default 2),
   * so a one-shot process never pays the load (~2 ms per 5,000 384-d vectors, ~1 s per 100k).
   */
  readonly memoryIndexWarmup?: number;
  /**
   * MiB of vectors that scopes of up to `memoryIndexThreshold` rows may hold in memory together
   * (default 256); past it the least recently searched go back to sqlite-vec. 0 leaves them all there.
   */
  readonly memoryIndexBudgetMb?: number;
  /**
   * Scan the in-memory vectors with a WebAssembly SIMD kernel where the runtime has one (default true);
   * false runs the plain JS loop, for comparisons. Both give the same hits (scores within ~1e-6).
   */
  readonly simdScan?: boolean;
  /**
   * Stores with at least this many rows build an in-memory lexical index on their first lexical search
   * (default 5,000; `Infinity` never builds it, `0` always does); it returns the same hits and scores
   * as FTS5, faster. It is kept in `<path>.lexical` (loaded by the next process, rebuilt in a worker
   * thread when missing or unusable). `prepareLexicalIndex()` loads or builds it at once.
   */
  readonly lexicalIndexThreshold?: number;
  /**
   * An in-memory lexical index of at least this many rows picks a search's candidates without scoring
   * every row that holds a query word (MaxScore: rows whose best possible score cannot make the
   * candidates are skipped), with the same hits and scores (default 600,000; `Infinity` never, `0`
   * always). Below it, scoring every holder is faster.
   */
  readonly lexicalPruneRows?: number;
  /** How long `recordAccess` batches before writing, in ms (default 1000). */
  readonly accessFlushMs?: number;
  /**
   * Decoded records the read connection keeps until the next commit, with the thread orders, edges and
   * concept refs recall reads again (default 20,000 records; 0 turns the cache off). A file store only:
   * a `:memory:` store reads through its one connection and keeps none.
   */
  readonly readCacheRecords?: number;
  /**
   * The newest entries of each change feed (`memory_changes`, `vector_changes`) that pruning always keeps
   * (default 100,000). Older entries are deleted once every persisted index file has folded them in; a
   * process whose in-memory index is further behind reloads it instead of catching up.
   */
  readonly changeFeedRetention?: number;
  /**
   * The write-ahead log's size, in bytes, past which its checkpoints move off the writer's thread onto
   * a thread of their own (`wal-checkpointer.ts`; default 4 MiB, the size at which SQLite's own
   * checkpoint runs; 0: from the first commit; Infinity: never, the writer checkpoints as SQLite does).
   * A writable file store only.
   */
  readonly walCheckpointThreadBytes?: number;
  /**
   * How scopes above `memoryIndexThreshold` are vector-searched. `'hnsw'`: an approximate HNSW index
   * per scope (recall@10 ≥ 0.98), kept in `<path>.ann/` and rebuilt from the stored vectors in the
   * background whenever it is missing or stale, exact search serving meanwhile; needs the optional
   * dependency `usearch`, loaded when a scope first crosses the threshold (a warning and exact search
   * if it does not load then). `'exact'`: the exact in-memory index. Default: `'hnsw'` when `usearch`
   * is installed with a binary for this platform, else `'exact'`. `:memory:` stores always use `'exact'`.
   */
  readonly vectorIndex?: 'exact' | 'hnsw';
  /**
   * HNSW scopes of more than this many vectors are searched on a worker thread of the store, while its
   * own thread answers the recall's lexical channels (default 200 000, where the search expansion grows
   * from 128 to 896; `Infinity`: always on the store's thread).
   */
  readonly vectorSearchThreadRows?: number;
  /**
   * While a scope's HNSW search runs on the search thread, a recall reads ahead the records, part
   * scores and neighbours of a preview: the same file searched on the store's thread with this search
   * expansion (default 128: at a million vectors ~3 ms, 80-90 % of the full search's rows, whose
   * expansion is 896); the full search's answer is unchanged. `0`: no previews. An integer ≥ 0.
   */
  readonly vectorPreviewExpansion?: number;
  /** Where the store reports what it does on its own, such as rebuilding a vector index (default: warnings to `console.warn`). */
  readonly logger?: SqliteStoreLogger;
}

/**
 * Receives the store's background events; `details` never hold memory text or vectors.
 *
 * @example
 * ```ts
 * const logger: SqliteStoreLogger = { info: () => {}, warn: (message) => process.stderr.write(`${message}\n`) };
 * ```
 */
export interface SqliteStoreLogger {
  info(message: string, details?: Readonly<Record<string, unknown>>): void;
  warn(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** The config with defaults applied, validated and frozen. */
export interface ResolvedSqliteStoreConfig {
  readonly path: string;
  readonly embedding: { readonly name: string; readonly dimension: number };
  readonly busyTimeoutMs: number;
  readonly readonly: boolean;
  readonly memoryIndexThreshold: number;
  readonly memoryIndexWarmup: number;
  readonly memoryIndexBudgetMb: number;
  readonly simdScan: boolean;
  readonly lexicalIndexThreshold: number;
  readonly lexicalPruneRows: number;
  readonly accessFlushMs: number;
  readonly readCacheRecords: number;
  readonly changeFeedRetention: number;
  readonly walCheckpointThreadBytes: number;
  /** `'auto'`: HNSW when its library loads. */
  readonly vectorIndex: 'exact' | 'hnsw' | 'auto';
  readonly vectorSearchThreadRows: number;
  readonly vectorPreviewExpansion: number;
  readonly logger: SqliteStoreLogger;
}

/** The driver's prepared statement, as far as the store uses it. */
export interface SqliteStatement {
  run(...params: unknown[]): { changes: number; lastInsertRowid: number | bigint };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Rows as arrays of column values (better-sqlite3); cheaper to build than objects for wide rows. */
  raw?(toggle?: boolean): SqliteStatement;
}

/** The driver's connection, as far as the store uses it (better-sqlite3 satisfies it). */
export interface SqliteDatabase {
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  loadExtension(path: string, entryPoint?: string): unknown;
  close(): unknown;
}

const MAX_DIMENSION = 8192; // sqlite-vec's limit for float vectors

/** Applies defaults and rejects unusable values with `INVALID_INPUT`. */
export function resolveSqliteStoreConfig(config: SqliteStoreConfig): ResolvedSqliteStoreConfig {
  const { path, embedding } = config;
  if (typeof path !== 'string' || path.length === 0) {
    throw invalid('path must be a non-empty file path (or ":memory:")', 'path');
  }
  if (typeof embedding?.name !== 'string' || embedding.name.trim().length === 0) {
    throw invalid('embedding.name must name the embedder, e.g. "use-lite:512"', 'embedding.name');
  }
  const dimension = embedding.dimension;
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > MAX_DIMENSION) {
    throw invalid(`embedding.dimension must be an integer from 1 to ${MAX_DIMENSION}`, 'embedding.dimension');
  }
  const busyTimeoutMs = config.busyTimeoutMs ?? 10_000;
  if (!Number.isFinite(busyTimeoutMs) || busyTimeoutMs < 0) throw invalid('busyTimeoutMs must be a finite number ≥ 0', 'busyTimeoutMs');
  const memoryIndexThreshold = config.memoryIndexThreshold ?? 20_000;
  if (Number.isNaN(memoryIndexThreshold) || memoryIndexThreshold < 0) {
    throw invalid('memoryIndexThreshold must be a number ≥ 0 (or Infinity)', 'memoryIndexThreshold');
  }
  const memoryIndexWarmup = config.memoryIndexWarmup ?? 2;
  if (!Number.isInteger(memoryIndexWarmup) || memoryIndexWarmup < 0)
    throw invalid('memoryIndexWarmup must be an integer ≥ 0', 'memoryIndexWarmup');
  const memoryIndexBudgetMb = config.memoryIndexBudgetMb ?? 256;
  if (Number.isNaN(memoryIndexBudgetMb) || memoryIndexBudgetMb < 0)
    throw invalid('memoryIndexBudgetMb must be a number ≥ 0 (or Infinity)', 'memoryIndexBudgetMb');
  if (config.simdScan !== undefined && typeof config.simdScan !== 'boolean') throw invalid('simdScan must be true or false', 'simdScan');
  const lexicalIndexThreshold = config.lexicalIndexThreshold ?? 5_000;
  if (Number.isNaN(lexicalIndexThreshold) || lexicalIndexThreshold < 0) {
    throw invalid('lexicalIndexThreshold must be a number ≥ 0 (or Infinity)', 'lexicalIndexThreshold');
  }
  const lexicalPruneRows = config.lexicalPruneRows ?? 600_000;
  if (typeof lexicalPruneRows !== 'number' || Number.isNaN(lexicalPruneRows) || lexicalPruneRows < 0)
    throw invalid('lexicalPruneRows must be a number of rows ≥ 0 (or Infinity)', 'lexicalPruneRows');
  const accessFlushMs = config.accessFlushMs ?? 1000;
  if (!Number.isFinite(accessFlushMs) || accessFlushMs < 0) throw invalid('accessFlushMs must be a finite number ≥ 0', 'accessFlushMs');
  const readCacheRecords = config.readCacheRecords ?? 20_000;
  if (!Number.isInteger(readCacheRecords) || readCacheRecords < 0)
    throw invalid('readCacheRecords must be an integer ≥ 0 (0 turns the read cache off)', 'readCacheRecords');
  const walCheckpointThreadBytes = config.walCheckpointThreadBytes ?? 4 * 2 ** 20;
  if (typeof walCheckpointThreadBytes !== 'number' || Number.isNaN(walCheckpointThreadBytes) || walCheckpointThreadBytes < 0)
    throw invalid('walCheckpointThreadBytes must be a number of bytes ≥ 0 (or Infinity)', 'walCheckpointThreadBytes');
  const changeFeedRetention = config.changeFeedRetention ?? 100_000;
  if (!Number.isInteger(changeFeedRetention) || changeFeedRetention < 1)
    throw invalid('changeFeedRetention must be an integer ≥ 1', 'changeFeedRetention');
  const vectorIndex = config.vectorIndex ?? 'auto';
  if (vectorIndex !== 'exact' && vectorIndex !== 'hnsw' && vectorIndex !== 'auto')
    throw invalid('vectorIndex must be "exact" or "hnsw"', 'vectorIndex');
  const vectorSearchThreadRows = config.vectorSearchThreadRows ?? ANN_PARAMETERS.compactRows;
  if (typeof vectorSearchThreadRows !== 'number' || Number.isNaN(vectorSearchThreadRows) || vectorSearchThreadRows < 0)
    throw invalid('vectorSearchThreadRows must be a number ≥ 0 (or Infinity)', 'vectorSearchThreadRows');
  const vectorPreviewExpansion = config.vectorPreviewExpansion ?? ANN_PREVIEW_EXPANSION;
  if (!Number.isInteger(vectorPreviewExpansion) || vectorPreviewExpansion < 0)
    throw invalid('vectorPreviewExpansion must be an integer ≥ 0 (0: no previews)', 'vectorPreviewExpansion');
  return Object.freeze({
    path,
    embedding: Object.freeze({ name: embedding.name, dimension }),
    busyTimeoutMs,
    readonly: config.readonly === true,
    memoryIndexThreshold,
    memoryIndexWarmup,
    memoryIndexBudgetMb,
    simdScan: config.simdScan ?? true,
    lexicalIndexThreshold,
    lexicalPruneRows,
    accessFlushMs,
    readCacheRecords,
    changeFeedRetention,
    walCheckpointThreadBytes,
    vectorIndex,
    vectorSearchThreadRows,
    vectorPreviewExpansion,
    logger: config.logger ?? CONSOLE_WARNINGS,
  });
}

const CONSOLE_WARNINGS: SqliteStoreLogger = Object.freeze({
  info: () => undefined,
  warn: (message: string) => console.warn(`engram: ${message}`),
});

function invalid(summary: string, field: string): EngramError {
  return new EngramError('INVALID_INPUT', messages.invalidInput(`SQLite store config: ${summary}.`), { details: { field } });
}
